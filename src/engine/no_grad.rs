//! Values that need no gradient (PyTorch's `requires_grad=False`): inputs, targets,
//! constants, whose rules `backward()` then skips.

use std::rc::Rc;

use super::value::Value;
use crate::watch;

impl Value {
    /// Marks this leaf as needing no gradient (PyTorch's `requires_grad=False`): an
    /// input, a target, a constant. [`backward`](Value::backward) then leaves its grad
    /// at 0, and skips the rules of the nodes computed from such values alone (their
    /// [`requires_grad`](Value::requires_grad) is false too), which saves the work of
    /// gradients nobody reads. The values and every other gradient are unchanged, bit
    /// for bit. [`MLP::forward_f64`](crate::nn::MLP::forward_f64) makes its inputs so.
    ///
    /// # Panics
    ///
    /// If `self` is not a leaf (a computed value needs a gradient exactly when one of
    /// the values it was computed from does).
    ///
    /// ```
    /// use micrograd::Value;
    /// // PyTorch: x = torch.tensor(3.0)   (requires_grad=False); w = torch.tensor(2.0, requires_grad=True)
    /// let x = Value::new(3.0).no_grad();
    /// let w = Value::new(2.0);
    /// let y = &w * &x;
    /// y.backward();
    /// assert_eq!((w.grad(), x.grad()), (3.0, 0.0));
    /// assert!(!x.requires_grad() && w.requires_grad() && y.requires_grad());
    /// assert!(!(&x * 2.0).requires_grad());
    /// ```
    pub fn no_grad(self) -> Value {
        {
            let mut node = self.0.borrow_mut();
            assert!(
                node.is_leaf(),
                "no_grad() on a value computed by `{}`: only a leaf (Value::new) can be \
                 marked; a computed value needs a gradient exactly when one of its parents does",
                node.op_name()
            );
            node.requires_grad = false;
        }
        // A leaf no one else holds (a new one, `Value::new(x).no_grad()`) is on no tape:
        // no tape need look again.
        if Rc::strong_count(&self.0) > 1 {
            watch::count_grad_mark();
        }
        self
    }

    /// Whether [`backward`](Value::backward) computes this value's gradient: true for a
    /// leaf unless made with [`no_grad`](Value::no_grad); for a computed value, whether
    /// one of the values it was computed from needs one (PyTorch's `requires_grad`).
    ///
    /// ```
    /// use micrograd::Value;
    /// let (x, w) = (Value::new(1.0).no_grad(), Value::new(2.0));
    /// assert!(!x.requires_grad() && !x.relu().requires_grad());
    /// assert!((&x * &w).requires_grad());
    /// ```
    pub fn requires_grad(&self) -> bool {
        self.0.borrow().requires_grad
    }
}

//! Writing a value's numbers: Python's `p.data = ...` (an optimiser's update),
//! `o.grad = 1.0` and `p.grad = 0`.

use super::value::Value;
use crate::watch;

impl Value {
    /// Overwrites the data (Python's `p.data = ...`, e.g. a parameter update).
    /// Nodes computed from this one are *not* recomputed: build the expression again (a
    /// [`Tape`](crate::tape::Tape) compiled from them notices the write by itself and
    /// reads the new data on its next run).
    ///
    /// ```
    /// let w = micrograd::Value::new(1.0);
    /// w.set_data(w.data() - 0.1 * 2.0);
    /// assert_eq!(w.data(), 0.8);
    /// ```
    pub fn set_data(&self, data: f64) {
        self.0.borrow_mut().data = data;
        watch::count_data_write();
    }

    /// Overwrites this value's gradient (Python's `o.grad = 1.0`): how the lecture
    /// seeds backpropagation by hand before calling
    /// [`backward_step`](Value::backward_step) node by node.
    ///
    /// ```
    /// let x = micrograd::Value::new(2.0);
    /// x.set_grad(1.0);
    /// assert_eq!(x.grad(), 1.0);
    /// ```
    #[inline]
    pub fn set_grad(&self, grad: f64) {
        self.0.borrow_mut().grad = grad;
    }

    /// Sets this value's gradient to 0 (Python's `p.grad = 0`).
    ///
    /// ```
    /// let x = micrograd::Value::new(2.0);
    /// (&x * 3.0).backward();
    /// x.zero_grad();
    /// assert_eq!(x.grad(), 0.0);
    /// ```
    #[inline]
    pub fn zero_grad(&self) {
        self.0.borrow_mut().grad = 0.0;
    }
}

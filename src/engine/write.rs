//! Writing a value's numbers: Python's `self.grad += ...` (what every backward closure
//! does), `p.data = ...` (an optimiser's update), `o.grad = 1.0` and `p.grad = 0`.

use super::value::{Node, Value};
use crate::watch;

impl Value {
    /// Adds `delta` to this value's gradient (Python's `self.grad += ...`): d grad /
    /// d delta = 1. A value that needs no gradient ([`no_grad`](Value::no_grad)) keeps
    /// its grad: nothing is added.
    ///
    /// What `backward()` does for every contribution, made public for gradients computed
    /// elsewhere: on other threads (a [`Tape`](crate::tape::Tape)'s
    /// [`leaf_grads`](crate::tape::Tape::leaf_grads), or a worker's plain numbers), by
    /// hand, or by another program. Add them into the parameters' `grad`, and any
    /// optimiser that reads `p.grad()` steps with them, as after `backward()`.
    ///
    /// ```
    /// let w = micrograd::Value::new(2.0);
    /// (&w * 3.0).backward();            // w.grad = 3
    /// w.add_grad(0.5);                  // a gradient from elsewhere: w.grad += 0.5
    /// assert_eq!(w.grad(), 3.5);
    /// ```
    #[inline]
    pub fn add_grad(&self, delta: f64) {
        self.0.borrow_mut().add_grad(delta);
    }

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

impl Node {
    /// `grad += delta`, unless this node needs no gradient ([`Value::add_grad`], for a
    /// node already borrowed).
    #[inline]
    pub(crate) fn add_grad(&mut self, delta: f64) {
        if self.requires_grad {
            self.grad += delta;
        }
    }
}

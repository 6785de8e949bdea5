//! The activations, `relu` (micrograd's) and `tanh` (the lecture's): each one's `out`, then
//! its backward closure, which adds the local derivative (its rule:
//! `src/rules/activations.rs`) times `out.grad`. `sigmoid`, `leaky_relu` and `softplus` are
//! in `src/ops/activations.rs`.

use super::value::{Node, Value};
use crate::rules::activations::{Relu, Tanh, RELU, TANH};
use crate::rules::NO_CONSTS;

impl Value {
    /// `max(0, x)`, Python's `relu()`.
    ///
    /// Derivative: 1 where x > 0, else 0 (so ReLU'(0) = 0, as in micrograd).
    ///
    /// ```
    /// let x = micrograd::Value::new(-3.0);
    /// let y = x.relu();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.0, 0.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn relu(&self) -> Value {
        let out = (RELU.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (RELU.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Relu>(out, NO_CONSTS, backward)
    }

    /// The hyperbolic tangent (the activation of the Zero-to-Hero lecture; micrograd's
    /// package has no `tanh`, the lecture's `Value` has).
    ///
    /// Derivative: 1 - tanh(x)².
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.tanh();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.0, 1.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn tanh(&self) -> Value {
        let out = (TANH.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (TANH.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Tanh>(out, NO_CONSTS, backward)
    }
}

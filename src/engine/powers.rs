//! `powf`, micrograd's `x ** n`: `out`, then its backward closure, which adds the local
//! derivative (its rule: `src/rules/powers.rs`) times `out.grad`. `powi` and `pow` with a
//! `Value` exponent are in `src/ops/powers.rs`.

use super::value::{Node, Value};
use crate::rules::powers::{Powf, POWF};

impl Value {
    /// xⁿ for a constant exponent: micrograd's `x ** n` (shown as op `"**"`).
    ///
    /// Derivative: n·xⁿ⁻¹, and 0 for n = 0 at x = 0, where x⁰ is flat but 0·0⁻¹ would
    /// be NaN (Python raises `ZeroDivisionError` there; everywhere else the numbers are
    /// Python's).
    ///
    /// ```
    /// let x = micrograd::Value::new(3.0);
    /// let y = x.powf(2.0);
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (9.0, 6.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn powf(&self, n: f64) -> Value {
        let c = [n, 0.0];
        let out = (POWF.forward)(self.data(), c);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (POWF.local_grad)(x.data(), out.data, out.consts());
            x.add_grad(dx * out.grad);
        };
        self.unary::<Powf>(out, c, backward)
    }
}

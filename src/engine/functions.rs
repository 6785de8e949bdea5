//! `exp`, the lecture's: `out`, then its backward closure, which adds the local derivative
//! (its rule: `src/rules/functions.rs`) times `out.grad`. The further functions (`ln`,
//! `sqrt`, `sin`, ...) are in `src/ops/functions.rs`.

use super::value::{Node, Value};
use crate::rules::functions::{Exp, EXP};
use crate::rules::NO_CONSTS;

impl Value {
    /// eˣ.
    ///
    /// Derivative: eˣ (the output itself).
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.exp();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (1.0, 1.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn exp(&self) -> Value {
        let out = (EXP.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (EXP.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Exp>(out, NO_CONSTS, backward)
    }
}

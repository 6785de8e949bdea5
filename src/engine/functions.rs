//! `exp`, the lecture's: the method, then its rule (its forward value and, right under it,
//! its local derivative), then the type that names it. The further functions (`ln`, `sqrt`,
//! `sin`, ...) are in `src/ops/functions.rs`.

use super::rules::Named;
use super::rules::{Rule, Rule1, NO_CONSTS};
use super::value::{Node, Value};
use crate::forms::PythonSource::Lecture;
use crate::forms::{RuleText, UNARY};

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

/// `exp`.
pub(crate) const EXP: Rule1 = Rule1 {
    name: "exp",
    method: |x, _| x.exp(),
    // Python (lecture): out = Value(math.exp(x), (self, ), 'exp')
    forward: |x, _| x.exp(),
    // Python (lecture): self.grad += out.data * out.grad
    local_grad: |_x, out, _| out,
    c_forward: |w, a, _| w.call("exp", a),
    c_local_grad: |_, _a, out, _| out.to_owned(),
    text: RuleText {
        source: Lecture,
        python: &["self.grad += out.data * out.grad"],
        rust: &["local_grad: |_x, out, _| out,", UNARY],
    },
};

/// Names `exp`'s closure (see `Named`).
pub(crate) struct Exp;

impl Named for Exp {
    const RULE: Rule = Rule::One(&EXP);
}

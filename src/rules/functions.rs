//! The rule of `exp`, the lecture's (its method: `src/engine/functions.rs`).

use super::forms::PythonSource::Lecture;
use super::forms::{RuleText, UNARY};
use super::{Named, Rule, Rule1};

/// `exp`.
pub(crate) const EXP: Rule1 = Rule1 {
    name: "exp",
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

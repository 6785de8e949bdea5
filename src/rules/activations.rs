//! The rules of `relu` (micrograd's) and `tanh` (the lecture's); their methods are in
//! `src/engine/activations.rs`.

use super::forms::PythonSource::{Engine, Lecture};
use super::forms::{RuleText, UNARY};
use super::{Named, Rule, Rule1};

/// `relu`.
pub(crate) const RELU: Rule1 = Rule1 {
    name: "relu",
    // Python: out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')
    forward: |x, _| if x < 0.0 { 0.0 } else { x },
    // Python: self.grad += (out.data > 0) * out.grad
    local_grad: |_x, out, _| if out > 0.0 { 1.0 } else { 0.0 },
    c_forward: |w, a, _| format!("{a} < {zero} ? {zero} : {a}", zero = w.num(0.0)),
    c_local_grad: |w, _a, out, _| {
        let (zero, one) = (w.num(0.0), w.num(1.0));
        format!("({out} > {zero} ? {one} : {zero})")
    },
    text: RuleText {
        source: Engine,
        python: &["self.grad += (out.data > 0) * out.grad"],
        rust: &[
            "local_grad: |_x, out, _| if out > 0.0 { 1.0 } else { 0.0 },",
            UNARY,
        ],
    },
};

/// Names `relu`'s closure (see `Named`).
pub(crate) struct Relu;

impl Named for Relu {
    const RULE: Rule = Rule::One(&RELU);
}

/// `tanh`.
pub(crate) const TANH: Rule1 = Rule1 {
    name: "tanh",
    // Python (lecture): t = (math.exp(2*x) - 1)/(math.exp(2*x) + 1); out = Value(t, ...)
    // (here libm's tanh, Python's `math.tanh`: the lecture's formula can differ by an ulp)
    forward: |x, _| x.tanh(),
    // Python (lecture): self.grad += (1 - t**2) * out.grad
    local_grad: |_x, out, _| 1.0 - out * out,
    c_forward: |w, a, _| w.call("tanh", a),
    c_local_grad: |w, _a, out, _| format!("({one} - {out} * {out})", one = w.num(1.0)),
    text: RuleText {
        source: Lecture,
        python: &["self.grad += (1 - t**2) * out.grad"],
        rust: &["local_grad: |_x, out, _| 1.0 - out * out,", UNARY],
    },
};

/// Names `tanh`'s closure (see `Named`).
pub(crate) struct Tanh;

impl Named for Tanh {
    const RULE: Rule = Rule::One(&TANH);
}

//! The activations: `relu` (micrograd's) and `tanh` (the lecture's). Each method is
//! followed by its rule (its forward value and, right under it, its local derivative)
//! and the type that names it. `sigmoid`, `leaky_relu` and `softplus` are in
//! `src/ops/activations.rs`.

use super::rules::Named;
use super::rules::{Rule, Rule1, NO_CONSTS};
use super::value::{Node, Value};
use crate::forms::PythonSource::{Engine, Lecture};
use crate::forms::{RuleText, UNARY};

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
}

/// `relu`.
pub(crate) const RELU: Rule1 = Rule1 {
    name: "relu",
    method: |x, _| x.relu(),
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

impl Value {
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

/// `tanh`.
pub(crate) const TANH: Rule1 = Rule1 {
    name: "tanh",
    method: |x, _| x.tanh(),
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

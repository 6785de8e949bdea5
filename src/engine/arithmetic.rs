//! `+` and `*`: each one's method (`out`, then its backward closure), then its rule
//! (forward value and local derivatives), then the type that names it. The `std::ops`
//! operators that call these methods, for every mix of `Value`, `&Value` and `f64`, are
//! in `operators.rs`; `-`, `/` and negation in `src/ops/composed.rs`.

use super::rules::Named;
use super::rules::{Rule, Rule2};
use super::value::{Node, Value};
use crate::forms::PythonSource::Engine;
use crate::forms::{RuleText, BINARY_A, BINARY_B};

impl Value {
    /// `a + b`: d/da = 1, d/db = 1.
    pub(crate) fn add_value(&self, other: &Value) -> Value {
        let out = (ADD.forward)(self.data(), other.data());
        let backward = |out: &Node| {
            let (a, b) = out.a_b();
            let (da, db) = (ADD.local_grads)(a.data(), b.data(), out.data);
            a.add_grad(da * out.grad);
            b.add_grad(db * out.grad);
        };
        self.binary::<Plus>(other, out, backward)
    }
}

/// `a + b`.
pub(crate) const ADD: Rule2 = Rule2 {
    name: "+",
    method: |a, b| a.add_value(b),
    // Python: out = Value(self.data + other.data, (self, other), '+')
    forward: |a, b| a + b,
    // Python: self.grad += out.grad; other.grad += out.grad
    local_grads: |_a, _b, _out| (1.0, 1.0),
    c_forward: |_, a, b| format!("{a} + {b}"),
    c_local_grads: |w, _a, _b, _out| (w.num(1.0), w.num(1.0)),
    text: RuleText {
        source: Engine,
        python: &["self.grad += out.grad", "other.grad += out.grad"],
        rust: &[
            "local_grads: |_a, _b, _out| (1.0, 1.0),",
            BINARY_A,
            BINARY_B,
        ],
    },
};

/// Names `a + b`'s closure (see `Named`).
pub(crate) struct Plus;

impl Named for Plus {
    const RULE: Rule = Rule::Two(&ADD);
}

impl Value {
    /// `a * b`: d/da = b, d/db = a.
    pub(crate) fn mul_value(&self, other: &Value) -> Value {
        let out = (MUL.forward)(self.data(), other.data());
        let backward = |out: &Node| {
            let (a, b) = out.a_b();
            let (da, db) = (MUL.local_grads)(a.data(), b.data(), out.data);
            a.add_grad(da * out.grad);
            b.add_grad(db * out.grad);
        };
        self.binary::<Times>(other, out, backward)
    }
}

/// `a * b`.
pub(crate) const MUL: Rule2 = Rule2 {
    name: "*",
    method: |a, b| a.mul_value(b),
    // Python: out = Value(self.data * other.data, (self, other), '*')
    forward: |a, b| a * b,
    // Python: self.grad += other.data * out.grad; other.grad += self.data * out.grad
    local_grads: |a, b, _out| (b, a),
    c_forward: |_, a, b| format!("{a} * {b}"),
    c_local_grads: |_, a, b, _out| (b.to_owned(), a.to_owned()),
    text: RuleText {
        source: Engine,
        python: &[
            "self.grad += other.data * out.grad",
            "other.grad += self.data * out.grad",
        ],
        rust: &["local_grads: |a, b, _out| (b, a),", BINARY_A, BINARY_B],
    },
};

/// Names `a * b`'s closure (see `Named`).
pub(crate) struct Times;

impl Named for Times {
    const RULE: Rule = Rule::Two(&MUL);
}

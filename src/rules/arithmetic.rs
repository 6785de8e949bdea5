//! The rules of `+` and `*` (their methods: `src/engine/arithmetic.rs`).

use super::forms::PythonSource::Engine;
use super::forms::{RuleText, BINARY_A, BINARY_B};
use super::{Named, Rule, Rule2};

/// `a + b`.
pub(crate) const ADD: Rule2 = Rule2 {
    name: "+",
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

/// `a * b`.
pub(crate) const MUL: Rule2 = Rule2 {
    name: "*",
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

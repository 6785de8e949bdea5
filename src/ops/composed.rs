//! `-`, `/` and negation, which Python composes from `+`, `*` and `**` (`a + (-b)`,
//! `a * b**-1`, `a * -1`): here each is one node with a rule of its own, written as
//! `+` is (`src/engine/arithmetic.rs`), with its `std::ops` operators. The values and,
//! after one `backward()`, the gradients are Python's; `a / b`'s differ from Python's
//! `a * b**-1` in the last bits (one rounding, not two).
//!
//! | expression | derivative in `a` | derivative in `b` |
//! |------------|-------------------|-------------------|
//! | `a - b`    | 1                 | -1                |
//! | `a / b`    | 1/b               | -a/b²             |
//! | `-a`       | -1                |                   |
//!
//! ```
//! use micrograd::Value;
//! let grads = |y: &Value, a: &Value, b: &Value| {
//!     y.backward();
//!     (y.data(), a.grad(), b.grad())
//! };
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&(&a - &b), &a, &b), (1.0, 1.0, -1.0));     // d/da = 1, d/db = -1
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&(&a / &b), &a, &b), (1.5, 0.5, -0.75));    // d/da = 1/b, d/db = -a/b²
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&-&a, &a, &b), (-3.0, -1.0, 0.0));          // d/da = -1
//! ```

use std::ops::{Div, DivAssign, Neg, Sub, SubAssign};

use crate::engine::operators::value_binop;
use crate::engine::value::{Node, Value};
use crate::rules::forms::PythonSource::Composed;
use crate::rules::forms::{RuleText, BINARY_A, BINARY_B, UNARY};
use crate::rules::Named;
use crate::rules::{Rule, Rule1, Rule2, NO_CONSTS};

impl Value {
    /// `a - b`: d/da = 1, d/db = -1 (Python builds it as `a + (-b)`: the same values
    /// and gradients from one `backward()`, with two hidden nodes fewer).
    pub(crate) fn sub_value(&self, other: &Value) -> Value {
        let out = (SUB.forward)(self.data(), other.data());
        let backward = |out: &Node| {
            let (a, b) = out.a_b();
            let (da, db) = (SUB.local_grads)(a.data(), b.data(), out.data);
            a.add_grad(da * out.grad);
            b.add_grad(db * out.grad);
        };
        self.binary::<Minus>(other, out, backward)
    }
}

/// `a - b`.
pub(crate) const SUB: Rule2 = Rule2 {
    name: "-",
    forward: |a, b| a - b,
    local_grads: |_a, _b, _out| (1.0, -1.0),
    c_forward: |_, a, b| format!("{a} - {b}"),
    c_local_grads: |w, _a, _b, _out| (w.num(1.0), w.num(-1.0)),
    text: RuleText {
        source: Composed("a - b as a + (-b)"),
        python: &["self.grad += out.grad", "other.grad += -1 * out.grad"],
        rust: &[
            "local_grads: |_a, _b, _out| (1.0, -1.0),",
            BINARY_A,
            BINARY_B,
        ],
    },
};

/// Names `a - b`'s closure (see `Named`).
pub(crate) struct Minus;

impl Named for Minus {
    const RULE: Rule = Rule::Two(&SUB);
}

impl Value {
    /// `a / b`: d/da = 1/b, d/db = -a/b² (Python builds it as `a * b**-1`).
    ///
    /// d/db is computed as `-out / b`, that is -(a/b)/b: `-a / (b * b)` would square b
    /// first, which overflows or underflows where the gradient itself is an ordinary
    /// number (at a = b = 1e-200 it gave -∞ for -1e200, at a = 0, b = 1e-200 NaN for
    /// -0, at a = b = 1e200 -0 for -1e-200). The two agree with Python's
    /// `(-1 * b**-2) * a` to 2 ulps where b² is a double.
    pub(crate) fn div_value(&self, other: &Value) -> Value {
        let out = (DIV.forward)(self.data(), other.data());
        let backward = |out: &Node| {
            let (a, b) = out.a_b();
            let (da, db) = (DIV.local_grads)(a.data(), b.data(), out.data);
            a.add_grad(da * out.grad);
            b.add_grad(db * out.grad);
        };
        self.binary::<Divide>(other, out, backward)
    }
}

/// `a / b`.
pub(crate) const DIV: Rule2 = Rule2 {
    name: "/",
    forward: |a, b| a / b,
    local_grads: |_a, b, out| (1.0 / b, -out / b),
    c_forward: |_, a, b| format!("{a} / {b}"),
    c_local_grads: |w, _a, b, out| (format!("{} / {b}", w.num(1.0)), format!("-{out} / {b}")),
    text: RuleText {
        source: Composed("a / b as a * b**-1"),
        python: &[
            "self.grad += other.data**-1 * out.grad",
            "other.grad += self.data * (-1 * other.data**-2) * out.grad",
        ],
        rust: &[
            "local_grads: |_a, b, out| (1.0 / b, -out / b),",
            BINARY_A,
            BINARY_B,
        ],
    },
};

/// Names `a / b`'s closure (see `Named`).
pub(crate) struct Divide;

impl Named for Divide {
    const RULE: Rule = Rule::Two(&DIV);
}

impl Value {
    /// `-a`: d/da = -1 (Python builds it as `a * -1`; same numbers).
    pub(crate) fn neg_value(&self) -> Value {
        let out = (NEG.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (NEG.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Negate>(out, NO_CONSTS, backward)
    }
}

/// `-a`.
pub(crate) const NEG: Rule1 = Rule1 {
    name: "neg",
    forward: |a, _| -a,
    local_grad: |_a, _out, _| -1.0,
    c_forward: |_, a, _| format!("-{a}"),
    c_local_grad: |w, _a, _out, _| w.num(-1.0),
    text: RuleText {
        source: Composed("-a as a * -1"),
        python: &["self.grad += -1 * out.grad"],
        rust: &["local_grad: |_a, _out, _| -1.0,", UNARY],
    },
};

/// Names `-a`'s closure (see `Named`).
pub(crate) struct Negate;

impl Named for Negate {
    const RULE: Rule = Rule::One(&NEG);
}

value_binop!(Sub, sub, SubAssign, sub_assign, sub_value);
value_binop!(Div, div, DivAssign, div_assign, div_value);

impl Neg for &Value {
    type Output = Value;
    fn neg(self) -> Value {
        self.neg_value()
    }
}

impl Neg for Value {
    type Output = Value;
    fn neg(self) -> Value {
        self.neg_value()
    }
}

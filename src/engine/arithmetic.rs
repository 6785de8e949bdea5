//! `+ - * /` and negation: each one's method and, right under it, its rule (forward
//! value and local derivatives). The `std::ops` operators that call these methods, for
//! every mix of `Value`, `&Value` and `f64`, are in `operators.rs`.

use super::op::Op;
use super::rules::{Rule1, Rule2, NO_CONSTS};
use super::value::Value;

impl Value {
    /// `a + b`: d/da = 1, d/db = 1.
    pub(crate) fn add_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Add)
    }
}

/// `a + b`.
pub(crate) const ADD: Rule2 = Rule2 {
    // Python: out = Value(self.data + other.data, (self, other), '+')
    forward: |a, b| a + b,
    // Python: self.grad += out.grad; other.grad += out.grad
    local_grads: |_a, _b, _out| (1.0, 1.0),
};

impl Value {
    /// `a - b`: d/da = 1, d/db = -1 (Python builds it as `a + (-b)`: the same values
    /// and gradients from one `backward()`, with two hidden nodes fewer).
    pub(crate) fn sub_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Sub)
    }
}

/// `a - b`.
pub(crate) const SUB: Rule2 = Rule2 {
    forward: |a, b| a - b,
    local_grads: |_a, _b, _out| (1.0, -1.0),
};

impl Value {
    /// `a * b`: d/da = b, d/db = a.
    pub(crate) fn mul_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Mul)
    }
}

/// `a * b`.
pub(crate) const MUL: Rule2 = Rule2 {
    // Python: out = Value(self.data * other.data, (self, other), '*')
    forward: |a, b| a * b,
    // Python: self.grad += other.data * out.grad; other.grad += self.data * out.grad
    local_grads: |a, b, _out| (b, a),
};

impl Value {
    /// `a / b`: d/da = 1/b, d/db = -a/b² (Python builds it as `a * b**-1`).
    ///
    /// d/db is computed as `-out / b`, that is -(a/b)/b: `-a / (b * b)` would square b
    /// first, which overflows or underflows where the gradient itself is an ordinary
    /// number (at a = b = 1e-200 it gave -∞ for -1e200, at a = 0, b = 1e-200 NaN for
    /// -0, at a = b = 1e200 -0 for -1e-200). The two agree with Python's
    /// `(-1 * b**-2) * a` to 2 ulps where b² is a double.
    pub(crate) fn div_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Div)
    }
}

/// `a / b`.
pub(crate) const DIV: Rule2 = Rule2 {
    forward: |a, b| a / b,
    local_grads: |_a, b, out| (1.0 / b, -out / b),
};

impl Value {
    /// `-a`: d/da = -1 (Python builds it as `a * -1`; same numbers).
    pub(crate) fn neg_value(&self) -> Value {
        self.unary(Op::Neg, NO_CONSTS)
    }
}

/// `-a`.
pub(crate) const NEG: Rule1 = Rule1 {
    forward: |a, _| -a,
    local_grad: |_a, _out, _| -1.0,
};

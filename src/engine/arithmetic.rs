//! `+` and `*`: each one's `out`, then its backward closure, which adds the local
//! derivatives (their rules: `src/rules/arithmetic.rs`) times `out.grad`. The `std::ops`
//! operators that call these methods, for every mix of `Value`, `&Value` and `f64`, are
//! in `operators.rs`; `-`, `/` and negation in `src/ops/composed.rs`.

use super::value::{Node, Value};
use crate::rules::arithmetic::{Plus, Times, ADD, MUL};

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

//! The ops without a code of their own (`code.rs`) on the tape: each step of such an op
//! calls its rule's functions through their pointers (the ops with a code are a `match`
//! on it, `Code::forward`, whose arms the compiler inlines into the tape's loops).

use crate::rules::{Consts, Rule};

impl Rule {
    /// `out` from the parents' values `a` and `b` (`b` unused by a one-parent op) and
    /// the constants `c` (unused by a two-parent op).
    pub(crate) fn forward(self, a: f64, b: f64, c: Consts) -> f64 {
        match self {
            Rule::One(r) => (r.forward)(a, c),
            Rule::Two(r) => (r.forward)(a, b),
        }
    }

    /// `(d out / d a, d out / d b)` (0 for `b` of a one-parent op).
    pub(crate) fn local_grads(self, a: f64, b: f64, out: f64, c: Consts) -> (f64, f64) {
        match self {
            Rule::One(r) => ((r.local_grad)(a, out, c), 0.0),
            Rule::Two(r) => (r.local_grads)(a, b, out),
        }
    }
}

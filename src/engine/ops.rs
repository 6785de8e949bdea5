//! The shape every op shares: a node made from its parents with the op's forward value,
//! and one backward rule, `parent.grad += d out / d parent * out.grad`.
//!
//! Python writes that backward line out in each op's `_backward` closure. Here each op
//! gives only its numbers (its forward value and its local derivative, side by side in
//! a rule right under its method: `arithmetic.rs`, `activations.rs`, `functions.rs`,
//! `powers.rs`, `piecewise.rs`), and the two helpers below hold the shape once. The
//! backward rules capture nothing (the op and its constants are read from the node),
//! so boxing them allocates nothing.

use super::op::Op;
use super::rules::{Consts, NO_CONSTS};
use super::value::{Node, Parents, Value};

impl Value {
    /// A node with the single parent `self`; `c` holds the op's constants (the
    /// exponent of `powf`, ...; [`NO_CONSTS`] for ops without any).
    pub(crate) fn unary(&self, op: Op, c: Consts) -> Value {
        let data = op.forward(self.stored_data(), 0.0, c);
        let parents = Parents::One([self.clone()]);
        Value::from_op(data, op, parents, c, Box::new(unary_rule))
    }

    /// A node with the parents `self` and `other`.
    pub(crate) fn binary(&self, other: &Value, op: Op) -> Value {
        let data = op.forward(self.stored_data(), other.stored_data(), NO_CONSTS);
        let parents = Parents::Two([self.clone(), other.clone()]);
        Value::from_op(data, op, parents, NO_CONSTS, Box::new(binary_rule))
    }

    /// The n-ary sum behind [`std::iter::Sum`]: one node with every term as a parent,
    /// added left to right from 0 as Python's `sum()` does. d/dxᵢ = 1 for every term.
    fn sum_of(terms: Box<[Value]>) -> Value {
        let out = terms.iter().fold(0.0, |acc, t| acc + t.stored_data());
        let backward = |out: &Node| {
            for t in out.parents() {
                t.add_grad(out.grad);
            }
        };
        let parents = Parents::Many(terms);
        Value::from_op(out, Op::Sum, parents, NO_CONSTS, Box::new(backward))
    }
}

/// The backward rule of every one-parent node: `x.grad += d out / d x * out.grad`.
fn unary_rule(out: &Node) {
    let x = &out.parents()[0];
    let (dx, _) = out
        .op
        .local_grads(x.stored_data(), 0.0, out.data, out.consts());
    x.add_grad(dx * out.grad);
}

/// The backward rule of every two-parent node: `a.grad += d out / d a * out.grad`, then
/// the same for `b` (for `a * a` both add to the same grad, as in Python).
pub(super) fn binary_rule(out: &Node) {
    let [a, b] = out.parents() else {
        unreachable!("a binary node has two parents")
    };
    let (da, db) = out
        .op
        .local_grads(a.stored_data(), b.stored_data(), out.data, NO_CONSTS);
    a.add_grad(da * out.grad);
    b.add_grad(db * out.grad);
}

/// `values.into_iter().sum()`: ONE node whose parents are all the terms (Python's
/// `sum()` builds a chain of `+` nodes instead; the numbers are the same).
///
/// Derivative: 1 with respect to every term. An empty sum is a leaf holding 0.
///
/// ```
/// use micrograd::Value;
/// let xs = [Value::new(1.0), Value::new(2.0), Value::new(3.0)];
/// let s: Value = xs.iter().sum();
/// assert_eq!((s.data(), s.op(), s.parents().len()), (6.0, "sum", 3));
/// s.backward();
/// assert!(xs.iter().all(|x| x.grad() == 1.0));
/// ```
impl std::iter::Sum<Value> for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        let terms: Box<[Value]> = iter.collect();
        if terms.is_empty() {
            return Value::new(0.0);
        }
        Value::sum_of(terms)
    }
}

/// `values.iter().sum()`: the same single n-ary node as `Sum<Value>`.
impl<'a> std::iter::Sum<&'a Value> for Value {
    fn sum<I: Iterator<Item = &'a Value>>(iter: I) -> Value {
        iter.cloned().sum()
    }
}

/// `values.into_iter().product()`: the factors multiplied left to right, one `*` node
/// each (Python's `math.prod(values)`, which starts from `1 * values[0]`; `1.0 * x` is
/// `x` exactly, so the numbers are the same with one node fewer).
///
/// Derivative: with respect to each factor, the product of all the others (the chain
/// rule through the `*` nodes). An empty product is a leaf holding 1.
///
/// ```
/// use micrograd::Value;
/// let xs = [Value::new(2.0), Value::new(3.0), Value::new(4.0)];
/// let p: Value = xs.iter().product();
/// assert_eq!((p.data(), p.op()), (24.0, "*"));
/// p.backward();
/// assert_eq!(xs.map(|x| x.grad()), [12.0, 8.0, 6.0]);
/// ```
impl std::iter::Product<Value> for Value {
    fn product<I: Iterator<Item = Value>>(iter: I) -> Value {
        iter.reduce(|acc, x| acc * x)
            .unwrap_or_else(|| Value::new(1.0))
    }
}

/// `values.iter().product()`: the same chain of `*` nodes as `Product<Value>`.
impl<'a> std::iter::Product<&'a Value> for Value {
    fn product<I: Iterator<Item = &'a Value>>(iter: I) -> Value {
        iter.cloned().product()
    }
}

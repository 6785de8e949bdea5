//! What every op's method shares: making its node (`unary`, `binary`: Python's
//! `Value(data, children, op)`) and finding its parents in the backward closure (`x`,
//! `a_b`: Python's `self` and `other`).
//!
//! A closure captures nothing (it is given its node, and reads the op's constants from
//! it), and the type that names its op (`struct Tanh;`) is zero-sized too, so boxing the
//! two together allocates nothing: a node is one allocation.

use std::any::Any;
use std::cell::Cell;
use std::mem::ManuallyDrop;

use super::inspect::Reader;
use super::label::Extra;
use super::parents::Parents;
use super::rules::Tagged;
use super::value::{BackwardFn, Node, Value};
use crate::rules::{Consts, Named};

/// A node's backward closure (Python's `_backward`): every `Fn(&Node)` closure is one.
/// What a reader of the graph asks of it (its op's rule and name) is in [`Reader`].
pub(crate) trait Backward: Reader + Any {
    /// Adds `d out / d parent * out.grad` to each parent's grad.
    fn run(&self, out: &Node);
}

impl<F: Fn(&Node) + 'static> Backward for F {
    #[inline]
    fn run(&self, out: &Node) {
        self(out);
    }
}

impl Value {
    /// A node made by an operation, which needs a gradient if a parent does. (Always
    /// inlined: out of line it costs every op's method a call.)
    #[inline(always)]
    pub(crate) fn from_op(data: f64, parents: Parents, backward: BackwardFn) -> Value {
        let requires_grad = parents.as_slice().iter().any(|p| p.node().requires_grad);
        Value::from_node(Node {
            data,
            grad: 0.0,
            parents: ManuallyDrop::new(parents),
            visited: false,
            requires_grad,
            backward: Some(backward),
            extra: None,
        })
    }

    /// The node `out` of the one-parent op `N` on `self`, with its constants `c`
    /// ([`NO_CONSTS`](crate::rules::NO_CONSTS) if none) and its backward closure: Python's
    /// `out = Value(data, (self,), op)`, then `out._backward = _backward`.
    pub(crate) fn unary<N: Named + 'static>(
        &self,
        out: f64,
        c: Consts,
        backward: impl Fn(&Node) + 'static,
    ) -> Value {
        self.unary_boxed(out, c, Box::new(Tagged::<N, _>::new(backward)))
    }

    /// [`unary`](Value::unary) with its closure boxed already (always inlined, as
    /// `from_op` is). One constant is kept in `parents`, two in `extra` (`-0.0` is one).
    #[inline(always)]
    pub(crate) fn unary_boxed(&self, out: f64, c: Consts, backward: BackwardFn) -> Value {
        let x = [self.clone()];
        match c.map(f64::to_bits) {
            [0, 0] => Value::from_op(out, Parents::One(x), backward),
            [_, 0] => Value::from_op(out, Parents::Constant(x, c[0], Cell::new(false)), backward),
            _ => {
                let v = Value::from_op(out, Parents::One(x), backward);
                v.0.borrow_mut().extra = Some(Box::new(Extra {
                    consts: c,
                    ..Extra::default()
                }));
                v
            }
        }
    }

    /// The node `out` of the two-parent op `N` on `self` and `other`, with its
    /// backward closure: Python's `out = Value(data, (self, other), op)`.
    pub(crate) fn binary<N: Named + 'static>(
        &self,
        other: &Value,
        out: f64,
        backward: impl Fn(&Node) + 'static,
    ) -> Value {
        let backward = Box::new(Tagged::<N, _>::new(backward));
        Value::from_op(out, Parents::Two([self.clone(), other.clone()]), backward)
    }
}

impl Node {
    /// The parent of a one-parent node: Python's `self` in the op's `_backward`.
    #[inline]
    pub(crate) fn x(&self) -> &Value {
        &self.parents()[0]
    }

    /// The parents of a two-parent node: Python's `self` and `other` in `_backward`
    /// (the same value twice for `a * a`: both lines add to its grad, as in Python).
    #[inline]
    pub(crate) fn a_b(&self) -> (&Value, &Value) {
        match self.parents() {
            [a, b] => (a, b),
            _ => unreachable!("a two-parent node has two parents"),
        }
    }
}

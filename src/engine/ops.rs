//! What every op's method shares: making its node (`unary`, `binary`: Python's `Value(data,
//! children, op)`), finding the parents in its backward closure (`x`, `a_b`: Python's
//! `self` and `other`).
//!
//! Each op's method (`arithmetic.rs`, `activations.rs`, `functions.rs`, `powers.rs`
//! here, and the further ops of `src/ops/`) computes `out` and, right under it,
//! writes its backward closure, `parent.grad += d out / d parent * out.grad`, as Python's
//! `_backward`. The closures capture nothing (they are given their node, and read the op's
//! constants from it), so boxing one allocates nothing. The op is named by a type of its
//! own (`struct Tanh;`, [`Named`]), which gives its rule; the node's closure carries that
//! type, so it costs nothing either, and the rule is found from the node (`Node::rule`).

use std::any::Any;
use std::cell::Cell;
use std::mem::ManuallyDrop;

use super::inspect::Reader;
use super::parents::Parents;
use super::rules::Tagged;
use super::value::{BackwardFn, Extra, Node, Value};
use crate::rules::{no_consts, Consts, Named, NO_CONSTS};

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
    /// A node made by an operation; its constants `consts` are stored (in `extra`) only
    /// when they are not all zero (bit for bit: `-0.0` is kept). It needs a gradient if
    /// a parent does. (Always inlined: out of line it costs every op's method a call.)
    #[inline(always)]
    pub(crate) fn from_op(
        data: f64,
        parents: Parents,
        consts: Consts,
        backward: BackwardFn,
    ) -> Value {
        let requires_grad = parents.as_slice().iter().any(|p| p.node().requires_grad);
        let extra = (!no_consts(consts)).then(|| {
            Box::new(Extra {
                consts,
                ..Extra::default()
            })
        });
        Value::from_node(Node {
            data,
            grad: 0.0,
            parents: ManuallyDrop::new(parents),
            visited: false,
            hidden: false,
            requires_grad,
            backward: Some(backward),
            extra,
        })
    }

    /// The node `out` of the one-parent op `N` on `self`, with its constants `c`
    /// ([`NO_CONSTS`] for ops without any; one constant is kept in the node,
    /// `Parents::Constant`) and its backward closure: Python's
    /// `out = Value(data, (self,), op)`, then `out._backward = _backward`.
    pub(crate) fn unary<N: Named + 'static>(
        &self,
        out: f64,
        c: Consts,
        backward: impl Fn(&Node) + 'static,
    ) -> Value {
        self.unary_boxed(out, c, Box::new(Tagged::<N, _>::new(backward)))
    }

    /// [`unary`](Value::unary) with its closure boxed already.
    pub(crate) fn unary_boxed(&self, out: f64, c: Consts, backward: BackwardFn) -> Value {
        let x = [self.clone()];
        let (parents, c) = match c.map(f64::to_bits) {
            [0, 0] => (Parents::One(x), NO_CONSTS),
            [_, 0] => (Parents::Constant(x, c[0], Cell::new(false)), NO_CONSTS),
            _ => (Parents::One(x), c),
        };
        Value::from_op(out, parents, c, backward)
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
        let parents = Parents::Two([self.clone(), other.clone()]);
        Value::from_op(out, parents, NO_CONSTS, backward)
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

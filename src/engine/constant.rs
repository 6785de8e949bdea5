//! Python's graph for a node that keeps an `f64` operand ([`Parents::Constant`], made
//! by `&x * 2.0` in `src/fast/constant.rs`): the leaf Python makes for the number.
//!
//! Every view walks the graph with
//! [`expand`](Value::expand), which puts the leaf back ([`Value::expand_constant`]), with the
//! constant as its data and, as its gradient, what the rule gives it (see
//! `docs/python-to-rust.md`); so do [`Value::parents`], [`Value::topo`] and the tape's
//! compiler, which see the same graph as before.

use super::op::Op;
use super::parents::{Parents, Side};
use super::rules::NO_CONSTS;
use super::value::{BackwardFn, Node, Value};

impl Value {
    /// Puts the leaf of a [`Parents::Constant`] node back (a no-op for any other node):
    /// its parents become `[x, leaf]` (or `[leaf, x]`), the leaf a hidden constant
    /// holding `c`, with the gradient [`constant_grad`] gives it, and its rule the
    /// two-parent rule. The graph then is the one Python builds, and stays so.
    pub(crate) fn expand_constant(&self) {
        let mut node = self.0.borrow_mut();
        if node.parents.constant().is_none() {
            return;
        }
        let grad = constant_grad(&node);
        let Parents::Constant([x], c, side) = node.parents.take() else {
            unreachable!("checked above")
        };
        let leaf = Value::hidden_constant(c);
        leaf.0.borrow_mut().grad = grad;
        *node.parents = match side {
            Side::Left => Parents::Two([leaf, x]),
            Side::Right => Parents::Two([x, leaf]),
        };
        node.backward = two_parent_backward(node.op);
    }
}

impl Side {
    /// The op's two operands, `x` being the `Value`'s data and `c` the constant.
    #[inline]
    pub(crate) fn operands(self, x: f64, c: f64) -> (f64, f64) {
        match self {
            Side::Left => (c, x),
            Side::Right => (x, c),
        }
    }

    /// `(d out / d x, d out / d c)` from the op's `(d out / d a, d out / d b)`.
    #[inline]
    pub(crate) fn split(self, (da, db): (f64, f64)) -> (f64, f64) {
        match self {
            Side::Left => (db, da),
            Side::Right => (da, db),
        }
    }
}

/// `(d out / d x, d out / d c)` of the [`Parents::Constant`] node `out`.
fn local_grads(out: &Node) -> (f64, f64) {
    let Parents::Constant([x], c, side) = &*out.parents else {
        unreachable!("a constant node keeps its constant")
    };
    let (a, b) = side.operands(x.data(), *c);
    side.split(out.op.local_grads(a, b, out.data, NO_CONSTS))
}

/// The gradient Python's leaf for the constant would have: 0 until the node's rule
/// runs, then `0 + d out / d c * out.grad` from the node as it is now (after one
/// `backward()`, Python's number; see `docs/python-to-rust.md` for after two).
fn constant_grad(out: &Node) -> f64 {
    if !out.constant_rule_ran.get() {
        return 0.0;
    }
    let (_, dc) = local_grads(out);
    0.0 + dc * out.grad
}

/// The backward closure that the method of the two-parent op `op` gives its node: taken
/// from a node that method makes, so that the closure is written once, in the method.
fn two_parent_backward(op: Op) -> Option<BackwardFn> {
    let node = op.apply2(&Value::new(1.0), &Value::new(1.0));
    let backward = node.0.borrow_mut().backward.take();
    backward
}

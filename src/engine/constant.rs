//! An `f64` operand kept in its node: `&x * 2.0` is one node, not a node and a leaf.
//!
//! Python's `__mul__` turns a plain number into a leaf (`other if isinstance(other,
//! Value) else Value(other)`), so `y * 1.0` costs two objects. Here the number stays
//! in the node ([`Parents::Constant`]): one allocation, one parent to walk in
//! `backward()` and in the drop. The value and the gradients are the same, bit for bit:
//! the rule is the op's own rule with the constant in the operand's place, and it adds
//! only the `Value` parent's contribution (the constant's gradient is never read).
//!
//! A learner still sees Python's graph: every view walks the graph with
//! [`expand`](Value::expand), which puts the leaf back ([`Value::expand_constant`]), with the
//! constant as its data and, as its gradient, what the rule gives it (see
//! `docs/python-to-rust.md`); so do [`Value::parents`], [`Value::topo`] and the tape's
//! compiler, which see the same graph as before.

use super::op::Op;
use super::ops::binary_rule;
use super::rules::NO_CONSTS;
use super::value::{BackwardFn, Node, Parents, Side, Value};

impl Value {
    /// `self op c` (or `c op self`, `side` saying where the constant goes) as one node
    /// holding the constant: the forward value and the derivatives of the two-operand
    /// op `op`, with `c` as one operand.
    /// (Always inlined, so that each operator's node gets the rule of its own op: see
    /// [`constant_rule`].)
    #[inline(always)]
    pub(crate) fn with_constant(&self, op: Op, c: f64, side: Side) -> Value {
        let (a, b) = side.operands(self.stored_data(), c);
        let data = op.forward(a, b, NO_CONSTS);
        let parents = Parents::Constant([self.clone()], c, side);
        Value::from_op(data, op, parents, NO_CONSTS, constant_rule(op))
    }

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
        node.backward = Some(Box::new(binary_rule));
    }
}

impl Side {
    /// The op's two operands, `x` being the `Value`'s data and `c` the constant.
    #[inline]
    fn operands(self, x: f64, c: f64) -> (f64, f64) {
        match self {
            Side::Left => (c, x),
            Side::Right => (x, c),
        }
    }

    /// `(d out / d x, d out / d c)` from the op's `(d out / d a, d out / d b)`.
    #[inline]
    fn split(self, (da, db): (f64, f64)) -> (f64, f64) {
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
    let (a, b) = side.operands(x.stored_data(), *c);
    side.split(out.op.local_grads(a, b, out.data, NO_CONSTS))
}

/// The rule of a node with a constant operand, for the op `op` (one of `+ - * /`):
/// the two-parent rule's line for the `Value` parent, `x.grad += d out / d x *
/// out.grad` (the line for the constant, which no one reads, is [`constant_grad`],
/// worked out when the constant is shown).
///
/// One closure per op, each with its op written in, so that the op's derivative is
/// compiled into the rule instead of looked up in [`Op::local_grads`]'s table when it
/// runs (fewer instructions a link on the chain `y = &y * 1.0`).
#[inline(always)]
fn constant_rule(op: Op) -> BackwardFn {
    match op {
        Op::Add => Box::new(|out: &Node| add_constant_rule(out, Op::Add)),
        Op::Sub => Box::new(|out: &Node| add_constant_rule(out, Op::Sub)),
        Op::Mul => Box::new(|out: &Node| add_constant_rule(out, Op::Mul)),
        Op::Div => Box::new(|out: &Node| add_constant_rule(out, Op::Div)),
        _ => unreachable!("an f64 operand is kept only by + - * /, not by {op:?}"),
    }
}

/// `x.grad += d out / d x * out.grad` for the node `out` of the op `op` (its own).
#[inline(always)]
fn add_constant_rule(out: &Node, op: Op) {
    let Parents::Constant([x], c, side) = &*out.parents else {
        unreachable!("a constant node keeps its constant")
    };
    // (`x`'s data read in the borrow that adds to its grad: one borrow fewer.)
    let mut x = x.0.borrow_mut();
    let (a, b) = side.operands(x.data, *c);
    let (dx, _) = side.split(op.local_grads(a, b, out.data, NO_CONSTS));
    x.add_grad(dx * out.grad);
    out.constant_rule_ran.set(true);
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

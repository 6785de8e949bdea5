//! An `f64` operand kept in its node: `&x * 2.0` is one node, not a node and a leaf.
//!
//! Python's `__mul__` turns a plain number into a leaf (`other if isinstance(other,
//! Value) else Value(other)`), so `y * 1.0` costs two objects. Here the number stays
//! in the node ([`Parents::Constant`]): one allocation, one parent to walk in
//! `backward()` and in the drop (half the heap bytes per node of the chain `y = y *
//! 1.0000001 + 0.5`, `docs/benchmarks.md`). The value and the gradients are the same,
//! bit for bit: the rule is the op's own rule with the constant in the operand's
//! place, and it adds only the `Value` parent's contribution.
//!
//! The engine shows such a node as Python's graph, with the leaf put back
//! (`src/engine/constant.rs`); this file makes the nodes and their rules, and the
//! operators with an `f64` (or `&f64`) on either side.

use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Sub, SubAssign};

use crate::engine::op::Op;
use crate::engine::parents::{Parents, Side};
use crate::engine::rules::NO_CONSTS;
use crate::engine::value::{BackwardFn, Node};
use crate::watch;
use crate::Value;

impl Value {
    /// `self op c` (or `c op self`, `side` saying where the constant goes) as one node
    /// holding the constant: the forward value and the derivatives of the two-operand
    /// op `op`, with `c` as one operand.
    /// (Always inlined, so that each operator's node gets the rule of its own op: see
    /// [`constant_rule`].)
    #[inline(always)]
    pub(crate) fn with_constant(&self, op: Op, c: f64, side: Side) -> Value {
        let (a, b) = side.operands(self.data(), c);
        let data = op.forward(a, b, NO_CONSTS);
        let parents = Parents::Constant([self.clone()], c, side);
        Value::from_op(data, op, parents, NO_CONSTS, constant_rule(op))
    }
}

/// The rule of a node with a constant operand, for the op `op` (one of `+ - * /`):
/// the two-parent rule's line for the `Value` parent, `x.grad += d out / d x *
/// out.grad` (the line for the constant, which no one reads, is `constant_grad` in `src/engine/constant.rs`,
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
    // (`x`'s data read in the borrow that adds to its grad: one borrow fewer; what
    // `data()` gives, a live `Training`'s number for a parameter it holds.)
    let address = x.address();
    let mut x = x.0.borrow_mut();
    let xd = watch::data_read(watch::trainings_live(), address, x.data);
    let (a, b) = side.operands(xd, *c);
    let (dx, _) = side.split(op.local_grads(a, b, out.data, NO_CONSTS));
    x.add_grad(dx * out.grad);
    out.constant_rule_ran.set(true);
}

/// Implements one binary operator with an `f64` or `&f64` on either side of a `Value`
/// or `&Value`, and its assigning forms, for the op `$code`.
macro_rules! constant_binop {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $code:expr) => {
        impl $Op<f64> for &Value {
            type Output = Value;
            fn $op(self, rhs: f64) -> Value {
                self.with_constant($code, rhs, Side::Right)
            }
        }
        impl $Op<f64> for Value {
            type Output = Value;
            fn $op(self, rhs: f64) -> Value {
                self.with_constant($code, rhs, Side::Right)
            }
        }
        impl $Op<&Value> for f64 {
            type Output = Value;
            fn $op(self, rhs: &Value) -> Value {
                rhs.with_constant($code, self, Side::Left)
            }
        }
        impl $Op<Value> for f64 {
            type Output = Value;
            fn $op(self, rhs: Value) -> Value {
                rhs.with_constant($code, self, Side::Left)
            }
        }
        // `&f64` on either side, as `zip`ping a slice of targets gives (`&yout - ygt`).
        impl $Op<&f64> for &Value {
            type Output = Value;
            fn $op(self, rhs: &f64) -> Value {
                self.with_constant($code, *rhs, Side::Right)
            }
        }
        impl $Op<&f64> for Value {
            type Output = Value;
            fn $op(self, rhs: &f64) -> Value {
                self.with_constant($code, *rhs, Side::Right)
            }
        }
        impl $Op<&Value> for &f64 {
            type Output = Value;
            fn $op(self, rhs: &Value) -> Value {
                rhs.with_constant($code, *self, Side::Left)
            }
        }
        impl $Op<Value> for &f64 {
            type Output = Value;
            fn $op(self, rhs: Value) -> Value {
                rhs.with_constant($code, *self, Side::Left)
            }
        }
        impl $OpAssign<&f64> for Value {
            fn $op_assign(&mut self, rhs: &f64) {
                *self = self.with_constant($code, *rhs, Side::Right);
            }
        }
        impl $OpAssign<f64> for Value {
            fn $op_assign(&mut self, rhs: f64) {
                *self = self.with_constant($code, rhs, Side::Right);
            }
        }
    };
}

constant_binop!(Add, add, AddAssign, add_assign, Op::Add);
constant_binop!(Sub, sub, SubAssign, sub_assign, Op::Sub);
constant_binop!(Mul, mul, MulAssign, mul_assign, Op::Mul);
constant_binop!(Div, div, DivAssign, div_assign, Op::Div);

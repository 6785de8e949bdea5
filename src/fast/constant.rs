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
//! This file makes the nodes and their rules, the operators with an `f64` (or `&f64`)
//! on either side, and Python's parents of such a node, with the leaf shown where the
//! graph is read (`ConstantRule::python_parents`; the leaf is kept beside the graph, in
//! `shown.rs`, and the node stays as it is).
//!
//! The operators with an `f64` on either side, and their assigning forms (which rebind
//! the handle to a new node, as Python's `a += b` rebinds the name):
//! ```
//! # use micrograd::Value;
//! let x = Value::new(4.0);
//! let f = 2.0 * &x + 1.0;   // 9
//! let g = 10.0 / &f - x.clone();
//! let mut h = g.clone();
//! h *= 3.0;
//! h += &x;
//! assert!((h.data() - ((10.0 / 9.0 - 4.0) * 3.0 + 4.0)).abs() < 1e-12);
//! ```
//! `&f64` too, as iterating over a slice of numbers hands them out:
//! ```
//! # use micrograd::Value;
//! // Python: loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
//! let ys = [1.0, -1.0];
//! let ypred = [Value::new(0.5), Value::new(-0.5)];
//! let loss: Value = ys.iter().zip(&ypred).map(|(ygt, yout)| (yout - ygt).powi(2)).sum();
//! assert_eq!(loss.data(), 0.5);
//! ```

use std::cell::Cell;
use std::marker::PhantomData;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Sub, SubAssign};

use super::shown;
use crate::engine::inspect::Reader;
use crate::engine::ops::Backward;
use crate::engine::parents::Parents;
use crate::engine::value::Node;
use crate::ops::composed::{Divide, Minus};
use crate::rules::arithmetic::{Plus, Times};
use crate::rules::Named;
use crate::rules::{Rule, Rule2};
use crate::watch;
use crate::Value;

impl Value {
    /// `self op c` (or `c op self`, with `FIRST` = [`LEFT`]: the constant is the first
    /// operand) as one node holding the constant: the forward value and the derivatives
    /// of the two-operand op `N` (one of `+ - * /`), with `c` as one operand.
    #[inline(always)]
    pub(crate) fn with_constant<N: Named + 'static, const FIRST: bool>(&self, c: f64) -> Value {
        let (a, b) = ConstantRule::<N, FIRST>::SIDE.operands(self.data(), c);
        let data = (rule_of::<N>().forward)(a, b);
        let parents = Parents::Constant([self.clone()], c, Cell::new(false));
        let rule = Box::new(ConstantRule::<N, FIRST>(PhantomData));
        Value::from_op(data, parents, rule)
    }
}

/// `FIRST` of [`Value::with_constant`] for `2.0 * &x`: the constant is the first operand.
const LEFT: bool = true;
/// `FIRST` of [`Value::with_constant`] for `&x * 2.0`: the constant is the second operand.
const RIGHT: bool = false;

/// Which operand of a constant node the constant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// `2.0 * &x`: the constant is the first operand.
    Left,
    /// `&x * 2.0`: the constant is the second operand.
    Right,
}

/// The rule of the two-parent op `N` (a constant: each node's closure has its op's
/// derivative compiled in, not looked up when it runs).
#[inline(always)]
fn rule_of<N: Named>() -> &'static Rule2 {
    match N::RULE {
        Rule::Two(rule) => rule,
        Rule::One(rule) => {
            unreachable!("an f64 operand is kept only by + - * /, not {}", rule.name)
        }
    }
}

/// The closure of a node of the op `N` with a constant operand (zero-sized): the
/// two-parent rule's line for the `Value` parent, `x.grad += d out / d x * out.grad`
/// (and, once the constant's leaf is shown, the line for the leaf; before, the leaf's
/// gradient is worked out when it is first shown, [`constant_grad`]). It also gives
/// Python's parents of the node. `FIRST` says on which side the constant is: the node
/// keeps only the number.
struct ConstantRule<N, const FIRST: bool>(PhantomData<N>);

impl<N, const FIRST: bool> ConstantRule<N, FIRST> {
    /// Which operand the constant is.
    const SIDE: Side = if FIRST { Side::Left } else { Side::Right };
}

impl<N: Named + 'static, const FIRST: bool> Backward for ConstantRule<N, FIRST> {
    #[inline]
    fn run(&self, out: &Node) {
        add_constant_rule(out, rule_of::<N>(), Self::SIDE);
    }
}

impl<N: Named + 'static, const FIRST: bool> Reader for ConstantRule<N, FIRST> {
    fn rule(&self) -> Option<Rule> {
        Some(N::RULE)
    }

    /// Python's parents of the node: `[x, leaf]` (or `[leaf, x]`), the leaf holding the
    /// number, with the gradient [`constant_grad`] gives it, made
    /// the first time it is shown and the same leaf at every read after (`shown.rs`).
    fn python_parents(&self, out: &Node) -> Option<Vec<Value>> {
        let Parents::Constant([x], c, _) = &*out.parents else {
            return None;
        };
        let leaf = shown::show(out, || {
            let leaf = Value::new(*c);
            leaf.set_grad(constant_grad(out, rule_of::<N>(), Self::SIDE));
            leaf
        });
        Some(match Self::SIDE {
            Side::Left => vec![leaf, x.clone()],
            Side::Right => vec![x.clone(), leaf],
        })
    }

    /// The number (its leaf's data, if a reader was shown the leaf) and its side:
    /// `try_backward` checks it where Python's walk meets the leaf, without showing the
    /// leaf.
    fn operand(&self, out: &Node) -> Option<(f64, bool)> {
        match *out.parents {
            Parents::Constant(_, c, _) => Some((shown::leaf(out).map_or(c, |l| l.data()), FIRST)),
            _ => None,
        }
    }

    fn shown_operand(&self, out: &Node) -> Option<Value> {
        shown::leaf(out)
    }

    /// Lets go of the leaf shown for the node, which is being freed.
    #[inline]
    fn freed(&self, out: &Node) {
        shown::forget(out);
    }
}

impl Value {
    /// `self op leaf` (or `leaf op self`, if `first`) as a node that keeps the leaf's
    /// number, as [`with_constant`](Value::with_constant) makes it, with `leaf` shown
    /// as that number's leaf from the start, for the op whose rule is `rule` (one of
    /// `+ - * /`; `None` for any other): the node with which a program's graph is
    /// rebuilt where the graph it was compiled from kept an `f64` operand, every node
    /// of it that reads that leaf reading `leaf`.
    pub(crate) fn with_operand_leaf(&self, rule: Rule, leaf: &Value, first: bool) -> Option<Value> {
        fn make<N: Named + 'static>(x: &Value, c: f64, first: bool) -> Value {
            match first {
                LEFT => x.with_constant::<N, LEFT>(c),
                RIGHT => x.with_constant::<N, RIGHT>(c),
            }
        }
        let c = leaf.data();
        let node = match rule {
            _ if rule == Plus::RULE => make::<Plus>(self, c, first),
            _ if rule == Minus::RULE => make::<Minus>(self, c, first),
            _ if rule == Times::RULE => make::<Times>(self, c, first),
            _ if rule == Divide::RULE => make::<Divide>(self, c, first),
            _ => return None,
        };
        let _ = shown::show(&node.node(), || leaf.clone());
        Some(node)
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

/// The gradient Python's leaf for the constant would have, for the node `out` of the
/// op `rule`: 0 until the node's rule runs, then `0 + d out / d c * out.grad` from the
/// node as it is now (after one `backward()`, Python's number; see
/// `docs/python-to-rust.md` for after two).
fn constant_grad(out: &Node, rule: &Rule2, side: Side) -> f64 {
    let Parents::Constant([x], c, ran) = &*out.parents else {
        unreachable!("a constant node keeps its constant")
    };
    if !ran.get() {
        return 0.0;
    }
    let (a, b) = side.operands(x.data(), *c);
    let (_, dc) = side.split((rule.local_grads)(a, b, out.data));
    0.0 + dc * out.grad
}

/// `x.grad += d out / d x * out.grad` for the node `out` of the op `rule` (its own),
/// and, if a reader was shown the constant's leaf, Python's line for that leaf
/// ([`add_rule_to_leaf`]).
#[inline(always)]
fn add_constant_rule(out: &Node, rule: &Rule2, side: Side) {
    match shown::any() {
        false => add_rule(out, rule, side, None),
        true => add_rule_to_leaf(out, rule, side),
    }
}

/// [`add_constant_rule`] when some leaf is shown on this thread: with the leaf shown for
/// `out`, if there is one. (Out of line, so that the common path, with none shown, is
/// the rule alone.)
#[cold]
#[inline(never)]
fn add_rule_to_leaf(out: &Node, rule: &Rule2, side: Side) {
    add_rule(out, rule, side, shown::leaf(out).as_ref());
}

/// The rule of the node `out`, with `leaf`, the leaf shown for its constant, if any:
/// the rule of Python's node, whose `other` it is, reads its data as the constant and
/// adds to its grad.
#[inline(always)]
fn add_rule(out: &Node, rule: &Rule2, side: Side, leaf: Option<&Value>) {
    let Parents::Constant([x], c, ran) = &*out.parents else {
        unreachable!("a constant node keeps its constant")
    };
    let c = leaf.map_or(*c, Value::data);
    // (`x`'s data read in the borrow that adds to its grad: one borrow fewer; what
    // `data()` gives, a live `Training`'s number for a parameter it holds.)
    let address = x.address();
    let mut x = x.0.borrow_mut();
    let xd = watch::data_read(watch::trainings_live(), address, x.data);
    let (a, b) = side.operands(xd, c);
    let (dx, dc) = side.split((rule.local_grads)(a, b, out.data));
    x.add_grad(dx * out.grad);
    if let Some(leaf) = leaf {
        leaf.add_grad(dc * out.grad);
    }
    ran.set(true);
}

/// Implements one binary operator with an `f64` or `&f64` on either side of a `Value`
/// or `&Value`, and its assigning forms, for the op `$N`.
macro_rules! constant_binop {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $N:ty) => {
        impl $Op<f64> for &Value {
            type Output = Value;
            fn $op(self, rhs: f64) -> Value {
                self.with_constant::<$N, RIGHT>(rhs)
            }
        }
        impl $Op<f64> for Value {
            type Output = Value;
            fn $op(self, rhs: f64) -> Value {
                self.with_constant::<$N, RIGHT>(rhs)
            }
        }
        impl $Op<&Value> for f64 {
            type Output = Value;
            fn $op(self, rhs: &Value) -> Value {
                rhs.with_constant::<$N, LEFT>(self)
            }
        }
        impl $Op<Value> for f64 {
            type Output = Value;
            fn $op(self, rhs: Value) -> Value {
                rhs.with_constant::<$N, LEFT>(self)
            }
        }
        // `&f64` on either side, as `zip`ping a slice of targets gives (`&yout - ygt`).
        impl $Op<&f64> for &Value {
            type Output = Value;
            fn $op(self, rhs: &f64) -> Value {
                self.with_constant::<$N, RIGHT>(*rhs)
            }
        }
        impl $Op<&f64> for Value {
            type Output = Value;
            fn $op(self, rhs: &f64) -> Value {
                self.with_constant::<$N, RIGHT>(*rhs)
            }
        }
        impl $Op<&Value> for &f64 {
            type Output = Value;
            fn $op(self, rhs: &Value) -> Value {
                rhs.with_constant::<$N, LEFT>(*self)
            }
        }
        impl $Op<Value> for &f64 {
            type Output = Value;
            fn $op(self, rhs: Value) -> Value {
                rhs.with_constant::<$N, LEFT>(*self)
            }
        }
        impl $OpAssign<&f64> for Value {
            fn $op_assign(&mut self, rhs: &f64) {
                *self = self.with_constant::<$N, RIGHT>(*rhs);
            }
        }
        impl $OpAssign<f64> for Value {
            fn $op_assign(&mut self, rhs: f64) {
                *self = self.with_constant::<$N, RIGHT>(rhs);
            }
        }
    };
}

constant_binop!(Add, add, AddAssign, add_assign, Plus);
constant_binop!(Sub, sub, SubAssign, sub_assign, Minus);
constant_binop!(Mul, mul, MulAssign, mul_assign, Times);
constant_binop!(Div, div, DivAssign, div_assign, Divide);

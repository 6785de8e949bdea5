//! What every op's method shares: making its node (`unary`, `binary`: Python's
//! `Value(data, children, op)`), finding the parents in its backward closure (`x`,
//! `a_b`: Python's `self` and `other`), and the n-ary `Sum` and `Product`.
//!
//! Each op's method (`arithmetic.rs`, `activations.rs`, `functions.rs`, `powers.rs`
//! here, and the further ops of `src/ops/`) computes `out` and, right under it, writes
//! its backward closure, `parent.grad += d out / d parent * out.grad`, as Python's
//! `_backward`. The closures capture nothing (they are given their node, and read the
//! op's constants from it), so boxing one allocates nothing. The op is named by a type
//! of its own (`struct Tanh;`, [`Named`]), which gives its rule; the node's closure
//! carries that type, so it costs nothing either, and the rule is found from the node
//! (`Node::rule`).

use std::any::Any;
use std::marker::PhantomData;

use super::op::Op;
use super::parents::Parents;
use super::rules::{Consts, Rule, NO_CONSTS};
use super::value::{BackwardFn, Node, Value};

/// A node's backward closure (Python's `_backward`): every `Fn(&Node)` closure is one.
/// The closure of an op also gives its op's rule; a floor above may wrap a node's
/// closure in a type of its own to mark the node (`Node::closure`).
pub(crate) trait Backward: Any {
    /// Adds `d out / d parent * out.grad` to each parent's grad.
    fn run(&self, out: &Node);

    /// The rule of the node's op (`None` for a sum, a custom op or a neuron node).
    fn rule(&self) -> Option<Rule> {
        None
    }

    /// For a node that keeps an `f64` operand in place of its leaf (`src/fast/`):
    /// Python's parents for it and the closure that goes with them (see
    /// `Value::expand`). `None` for every other node.
    fn python_graph(&self, _out: &Node) -> Option<(Parents, BackwardFn)> {
        None
    }
}

impl<F: Fn(&Node) + 'static> Backward for F {
    #[inline]
    fn run(&self, out: &Node) {
        self(out);
    }
}

/// An op, named by a type of its own (`struct Tanh;`) so that its node's closure can
/// carry its rule without storing it.
pub(crate) trait Named {
    /// The op's rule.
    const RULE: Rule;
}

/// An op's closure tagged with the op `N` (zero-sized, as the closure is).
struct Tagged<N, F>(F, PhantomData<N>);

impl<N: Named + 'static, F: Fn(&Node) + 'static> Backward for Tagged<N, F> {
    #[inline]
    fn run(&self, out: &Node) {
        (self.0)(out);
    }

    fn rule(&self) -> Option<Rule> {
        Some(N::RULE)
    }
}

impl Value {
    /// The node `out` of the one-parent op `N` on `self`, with its constants `c`
    /// ([`NO_CONSTS`] for ops without any) and its backward closure: Python's
    /// `out = Value(data, (self,), op)`, then `out._backward = _backward`.
    pub(crate) fn unary<N: Named + 'static>(
        &self,
        out: f64,
        c: Consts,
        backward: impl Fn(&Node) + 'static,
    ) -> Value {
        let backward = Box::new(Tagged::<N, _>(backward, PhantomData));
        Value::from_op(out, Op::Rule, Parents::One([self.clone()]), c, backward)
    }

    /// The node `out` of the two-parent op `N` on `self` and `other`, with its
    /// backward closure: Python's `out = Value(data, (self, other), op)`.
    pub(crate) fn binary<N: Named + 'static>(
        &self,
        other: &Value,
        out: f64,
        backward: impl Fn(&Node) + 'static,
    ) -> Value {
        let backward = Box::new(Tagged::<N, _>(backward, PhantomData));
        let parents = Parents::Two([self.clone(), other.clone()]);
        Value::from_op(out, Op::Rule, parents, NO_CONSTS, backward)
    }

    /// The n-ary sum behind [`std::iter::Sum`]: one node with every term as a parent,
    /// added left to right from 0 as Python's `sum()` does. d/dxᵢ = 1 for every term.
    fn sum_of(terms: Box<[Value]>) -> Value {
        let out = terms.iter().fold(0.0, |acc, t| acc + t.data());
        let backward = |out: &Node| {
            for t in out.parents() {
                t.add_grad(out.grad);
            }
        };
        let parents = Parents::Many(terms);
        Value::from_op(out, Op::Sum, parents, NO_CONSTS, Box::new(backward))
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

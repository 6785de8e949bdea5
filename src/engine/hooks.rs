//! What the floors above the engine build on: crate-internal, and not on the learner's
//! path. Each is a way to extend a node without a field or a variant for one floor:
//!
//! - an op defined above the engine (`src/ops/`) names itself with a zero-sized type
//!   ([`Named`]), whose rule its node's closure carries ([`Value::unary_op`],
//!   [`Value::binary_op`], [`Node::rule`]);
//! - a floor marks a node it made, for another floor ([`Value::mark`], [`Node::mark`]):
//!   a loss's constant target, a neuron's separate activation;
//! - a node that keeps an `f64` operand in place of Python's leaf (`src/fast/`) puts the
//!   leaf back where the graph is read ([`Value::expand`], `Backward::python_graph`);
//! - a tape's `Training` and the compact forms read a node's data as [`Value::data`]
//!   does with one look at [`watch`] for many reads ([`Value::data_if`]), or without
//!   it ([`Value::stored_data`]).

use std::any::Any;
use std::marker::PhantomData;

use super::op::Op;
use super::ops::Backward;
use super::parents::Parents;
use super::rules::{Consts, Rule};
use super::value::{BackwardFn, Node, Value};
use crate::watch;

/// An op defined above the engine, named by a type of its own (`struct Atan;`) so that
/// its closure can carry its rule without storing it.
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
    /// [`unary`](Value::unary) for the one-parent op `N` defined above the engine.
    pub(crate) fn unary_op<N: Named + 'static>(
        &self,
        out: f64,
        c: Consts,
        backward: impl Fn(&Node) + 'static,
    ) -> Value {
        let backward = Box::new(Tagged::<N, _>(backward, PhantomData));
        self.unary(out, Op::Rule, c, backward)
    }

    /// [`binary`](Value::binary) for the two-parent op `N` defined above the engine.
    pub(crate) fn binary_op<N: Named + 'static>(
        &self,
        other: &Value,
        out: f64,
        backward: impl Fn(&Node) + 'static,
    ) -> Value {
        let backward = Box::new(Tagged::<N, _>(backward, PhantomData));
        self.binary(other, out, Op::Rule, backward)
    }
}

/// A node's closure with a mark `M` of a floor above the engine (a loss's, `src/fast/`'s),
/// which the floor reads back from the node ([`Value::mark`], `Node::mark`). It runs the
/// closure, gives its rule, and keeps the mark on the node's Python graph.
struct Marked<M> {
    closure: BackwardFn,
    mark: M,
}

impl<M: Copy + 'static> Backward for Marked<M> {
    fn run(&self, out: &Node) {
        self.closure.run(out);
    }

    fn rule(&self) -> Option<Rule> {
        self.closure.rule()
    }

    fn python_graph(&self, out: &Node) -> Option<(Parents, BackwardFn)> {
        let (parents, closure) = self.closure.python_graph(out)?;
        Some((
            parents,
            Box::new(Marked {
                closure,
                mark: self.mark,
            }),
        ))
    }
}

impl Value {
    /// Marks this node with `mark` (a leaf, which has no closure, is left as it is): how a
    /// floor above the engine tells another of a node it made, without a field here.
    pub(crate) fn mark<M: Copy + 'static>(&self, mark: M) {
        let mut node = self.0.borrow_mut();
        node.backward = (node.backward.take())
            .map(|closure| -> BackwardFn { Box::new(Marked { closure, mark }) });
    }
}

impl Node {
    /// The mark of type `M` this node was given with [`Value::mark`], if any.
    pub(crate) fn mark<M: Copy + 'static>(&self) -> Option<M> {
        self.closure::<Marked<M>>().map(|marked| marked.mark)
    }

    /// The node's closure, if it is a `T` (a [`Value::custom`] op's, a marked node's).
    pub(crate) fn closure<T: Backward>(&self) -> Option<&T> {
        let closure: &dyn Any = self.backward.as_deref()?;
        closure.downcast_ref()
    }

    /// The rule of a one- or two-parent op: from the table of [`Op`] for the engine's
    /// own ops, from the closure for an op defined above the engine ([`Op::Rule`]).
    pub(crate) fn rule(&self) -> Option<Rule> {
        match self.op {
            Op::Rule => self.backward.as_ref().and_then(|b| b.rule()),
            op => op.rule(),
        }
    }
}

impl Value {
    /// The leaf the engine makes for an `f64` operand (Python's `other if
    /// isinstance(other, Value) else Value(other)`), marked as hidden: where the graph is
    /// shown or compiled (`src/fast/constant.rs` keeps the number in the node until then), and in
    /// the graph a tape rebuilds.
    pub(crate) fn hidden_constant(data: f64) -> Value {
        Value::leaf(data, true)
    }

    /// Puts Python's leaf back where this node keeps an `f64` operand in its place
    /// (`src/fast/constant.rs`): the node's closure knows how (`Backward::python_graph`).
    /// Every walk that shows or compiles the graph calls it on each node before reading
    /// its parents (`Value::topo`); `backward()` and the drop read the compact forms as
    /// they are. (A neuron node is left as it is: readers list its parents with
    /// `Node::parent_list`.)
    pub(crate) fn expand(&self) {
        let mut node = self.0.borrow_mut();
        let python = (node.backward.as_ref()).and_then(|rule| rule.python_graph(&node));
        if let Some((parents, backward)) = python {
            *node.parents = parents;
            node.backward = Some(backward);
        }
    }

    /// The data in the node itself, without asking whether a live `Training` holds a
    /// newer number for it (see [`watch`]): what a `Training` compares to see whether
    /// a node was written while it lived.
    #[inline]
    pub(crate) fn stored_data(&self) -> f64 {
        self.0.borrow().data
    }

    /// [`data`](Value::data) for a caller that looked at [`watch::trainings_live`] once
    /// for many reads (`live`): the node's own data when no training is live.
    #[inline]
    pub(crate) fn data_if(&self, live: bool) -> f64 {
        watch::data_read(live, self.address(), self.stored_data())
    }
}

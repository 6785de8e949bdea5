//! What the engine holds for the compact nodes of `src/fast/`, all in this one file:
//! the types of a neuron node's shared lists, the neuron's activation, the side of an
//! `f64` operand kept in its node, the walk over such parents, and `expand`, which shows
//! a node that keeps an `f64` operand as Python's nodes before a reader lists its
//! parents. The rest of the engine names these forms only where it must walk or free a
//! node's parents (`Parents`, `build_topo`, `Drop`).
//!
//! The nodes themselves, with their rules, are made in `src/fast/`: a neuron
//! `act(b + w0·x0 + w1·x1 + ...)` as one node (`src/fast/neuron.rs`), and `&x * 2.0`
//! as one node that keeps the `2.0` (`src/fast/constant.rs`). Each saves what the
//! numbers in `docs/benchmarks.md` show: the demo's step rebuilt every time, and heap
//! bytes per node on the chain.
//!
//! A neuron node does not copy its 2n + 1 handles: it holds two `Rc`s, one of the
//! neuron's parameters `[b, w0, w1, ...]` ([`NeuronParams`], made once per neuron and
//! shared by the node of every sample) and one of its inputs ([`NeuronInputs`], made
//! once per layer and sample, shared by the layer's neurons). Where the graph is shown
//! or compiled, the reader lists `[b, w0, x0, ...]` from them (`Node::parent_list`).

use std::rc::Rc;

use super::op::Op;
use super::parents::Parents;
use super::value::Value;

/// A neuron's parameters `[b, w0, w1, ...]`, shared by every node the neuron makes.
pub(crate) struct NeuronParams {
    /// `[b, w0, w1, ...]`.
    pub(crate) values: Box<[Value]>,
    /// Whether all of them are leaves (a leaf stays one): `backward()`'s `build_topo`
    /// then does not visit them (see [`Parents::walked`]).
    pub(crate) leaves: bool,
}

impl NeuronParams {
    /// The parameters `[bias, weights...]`.
    pub(crate) fn new(bias: &Value, weights: &[Value]) -> NeuronParams {
        let values: Box<[Value]> = std::iter::once(bias).chain(weights).cloned().collect();
        let leaves = values.iter().all(|v| v.node().op == Op::Leaf);
        NeuronParams { values, leaves }
    }

    /// The bias `b`.
    pub(crate) fn bias(&self) -> &Value {
        &self.values[0]
    }

    /// The weights `w0, w1, ...`.
    pub(crate) fn weights(&self) -> &[Value] {
        &self.values[1..]
    }
}

/// A layer's inputs for one sample, shared by the nodes of its neurons.
pub(crate) struct NeuronInputs {
    /// `[x0, x1, ...]`.
    pub(crate) values: Vec<Value>,
}

impl NeuronInputs {
    /// The list `values`, to share.
    pub(crate) fn new(values: Vec<Value>) -> Rc<NeuronInputs> {
        Rc::new(NeuronInputs { values })
    }
}

/// The activation a [`Op::Neuron`] node applies to its weighted sum: those whose
/// derivative is a function of the output alone, so the node need not keep the sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Act {
    /// The sum itself.
    Linear,
    /// `relu(sum)`.
    Relu,
    /// `tanh(sum)`.
    Tanh,
    /// `sigmoid(sum)`.
    Sigmoid,
}

impl Act {
    /// A neuron node's `_op` string: `"neuron"`, `"relu neuron"`, ...
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Act::Linear => "neuron",
            Act::Relu => "relu neuron",
            Act::Tanh => "tanh neuron",
            Act::Sigmoid => "sigmoid neuron",
        }
    }
}

/// Gives `each` the values of a neuron node's lists that this node holds alone (a list
/// shared with another node gives none): what freeing the node must open (`drop.rs`).
#[inline]
pub(super) fn unshared(
    params: Rc<NeuronParams>,
    inputs: Rc<NeuronInputs>,
    mut each: impl FnMut(Value),
) {
    if let Ok(params) = Rc::try_unwrap(params) {
        params.values.into_vec().into_iter().for_each(&mut each);
    }
    if let Ok(inputs) = Rc::try_unwrap(inputs) {
        inputs.values.into_iter().for_each(each);
    }
}

/// The parents of a node one by one (see [`Parents::all`]).
pub(crate) enum Walk<'a> {
    /// A list.
    Slice(std::slice::Iter<'a, Value>),
    /// A neuron's `b`, then `w0, x0, w1, x1, ...`.
    Terms {
        /// The bias, until it is given.
        first: Option<&'a Value>,
        /// The pairs `(wi, xi)`.
        terms: std::iter::Zip<std::slice::Iter<'a, Value>, std::slice::Iter<'a, Value>>,
        /// The input of the pair whose weight was given last.
        second: Option<&'a Value>,
    },
}

impl<'a> Iterator for Walk<'a> {
    type Item = &'a Value;

    #[inline]
    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Walk::Slice(values) => values.next(),
            Walk::Terms {
                first,
                terms,
                second,
            } => {
                if let Some(v) = first.take().or_else(|| second.take()) {
                    return Some(v);
                }
                let (w, x) = terms.next()?;
                *second = Some(x);
                Some(w)
            }
        }
    }
}

/// Which operand of a [`Parents::Constant`] node the constant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// `2.0 * &x`: the constant is the first operand.
    Left,
    /// `&x * 2.0`: the constant is the second operand.
    Right,
}

impl Parents {
    /// The parents `backward()`'s `build_topo` visits, in [`all`](Parents::all)'s
    /// order: all but a neuron's parameters when they are all leaves. A leaf has no
    /// rule to run, and leaving one out of `topo` moves no other node in it; a
    /// network's weights are then not touched until their rules add to their grads.
    #[inline]
    pub(crate) fn walked(&self) -> Walk<'_> {
        match self {
            Parents::Neuron(params, inputs) if params.leaves => Walk::Slice(inputs.values.iter()),
            _ => self.all(),
        }
    }

    /// The constant operand and its side, for a [`Parents::Constant`] node.
    #[inline]
    pub(crate) fn constant(&self) -> Option<(f64, Side)> {
        match *self {
            Parents::Constant(_, c, side, _) => Some((c, side)),
            _ => None,
        }
    }
}

impl Value {
    /// Puts Python's leaf back where this node keeps an `f64` operand in its place
    /// (`src/fast/constant.rs`): the node's closure knows how (`Backward::python_graph`).
    /// Every walk that shows or compiles the graph calls it on each node before reading
    /// its parents ([`Value::topo`]); `backward()` and the drop read the compact forms as
    /// they are.
    pub(crate) fn expand(&self) {
        let mut node = self.0.borrow_mut();
        let python = (node.backward.as_ref()).and_then(|rule| rule.python_graph(&node));
        if let Some((parents, backward)) = python {
            *node.parents = parents;
            node.backward = Some(backward);
        }
    }
}

//! The lists a neuron node shares ([`Parents::Neuron`]).
//!
//! The node itself, `act(b + w0·x0 + w1·x1 + ...)` as one node with its rule, is made
//! in `src/fast/neuron.rs`. It does not copy its 2n + 1 handles: it holds two `Rc`s,
//! one of the neuron's parameters `[b, w0, w1, ...]` ([`NeuronParams`], made once per
//! neuron and shared by the node of every sample) and one of its inputs
//! ([`NeuronInputs`], made once per layer and sample, shared by the layer's neurons).
//! Where the graph is shown or compiled, the reader lists `[b, w0, x0, ...]` from them
//! (`Node::parent_list`); the node keeps its two lists.

use std::rc::Rc;

use super::op::Op;
#[cfg(doc)]
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

//! The speed layer over the engine: two compact forms of micrograd's nodes, each giving
//! the engine's numbers bit for bit, each earning its lines by a number in
//! `docs/benchmarks.md`.
//!
//! | file | what it makes | Python's graph for it | what it saves |
//! |------|---------------|-----------------------|---------------|
//! | `constant.rs` | `&x * 2.0`: one node keeping the `2.0` | `x * Value(2.0)` | a node per `f64` operand: half the heap bytes of `y = y * 1.0000001 + 0.5` |
//! | `neuron.rs` | [`Value::neuron`](crate::Value::neuron): `act(b + Σ wᵢ·xᵢ)` as one node | 2n + 1 nodes | 2n nodes per neuron: the dynamic moons step |
//!
//! The engine keeps the `f64` operand as it keeps any one-constant op's number, beside the
//! parent (`Parents::Constant`, with a flag the operand's rule sets when it runs), and
//! walks it in `backward()` and the drop as it is; wherever a graph is read, the node's
//! closure lists Python's parents (`Reader::python_parents`), the operand's leaf among
//! them, kept beside the graph while the node lives (`shown.rs`), so that reading
//! leaves the node as it is and the leaf is the same at every read; `try_backward`
//! checks the number, not that leaf's gradient (`Reader::operand`). A neuron
//! node is made of what the engine has for every node: its two parents are nodes that
//! list the neuron's parameters and the layer's inputs, and its closure names it and
//! lists Python's parents for a reader (`Reader::name`, `Reader::python_parents`).
//! Both are built on what [`Value::custom`](crate::Value::custom) uses too: a node with
//! its own boxed backward closure.

use crate::watch;
use crate::Value;

mod constant;
mod neuron;
mod shown;

pub(crate) use neuron::{activation_rule, is_neuron_activation, neuron_act, sum_grad};
pub(crate) use neuron::{Act, NeuronInputs, NeuronParams};
#[cfg(test)]
mod tests;

impl Value {
    /// [`data`](Value::data) for a caller that looked at [`watch::trainings_live`] once
    /// for many reads (`live`): the node's own data when no training is live.
    #[inline]
    pub(crate) fn data_if(&self, live: bool) -> f64 {
        watch::data_read(live, self.address(), self.0.borrow().data)
    }
}

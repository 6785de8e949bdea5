//! The speed layer over the engine: two compact forms of micrograd's nodes, each giving
//! the engine's numbers bit for bit, each earning its lines by a number in
//! `docs/benchmarks.md`.
//!
//! | file | what it makes | Python's graph for it | what it saves |
//! |------|---------------|-----------------------|---------------|
//! | `constant.rs` | `&x * 2.0`: one node keeping the `2.0` | `x * Value(2.0)` | a node per `f64` operand: half the heap bytes of `y = y * 1.0000001 + 0.5` |
//! | `neuron.rs` | [`Value::neuron`](crate::Value::neuron): `act(b + Σ wᵢ·xᵢ)` as one node | 2n + 1 nodes | 2n nodes per neuron: the dynamic moons step |
//!
//! The engine knows the `f64` operand as a variant of a node's parents
//! (`Parents::Constant`: the one place where it is told of it) and walks it in
//! `backward()` and the drop as it is; wherever a graph is read, the node's closure
//! puts the operand's leaf back (`Node::expand`, `Reader::python_graph`). A neuron
//! node is made of what the engine has for every node: its two parents are nodes that
//! list the neuron's parameters and the layer's inputs, and its closure names it and
//! lists Python's parents for a reader (`Reader::name`, `Reader::python_parents`).
//! Both are built on what [`Value::custom`](crate::Value::custom) uses too: a node with
//! its own boxed backward closure.

use crate::engine::inspect::Reader;
use crate::engine::ops::Backward;
use crate::engine::parents::Parents;
use crate::engine::value::Node;
use crate::rules::{Consts, Rule};
use crate::watch;
use crate::Value;

mod constant;
mod neuron;

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

/// Making a node of an op known only at run time, as a graph rebuilt from a tape and the
/// compact forms' Python graphs do.
impl Rule {
    /// The node `x.op(c)` of this one-parent op (as `x.powf(c[0])` makes it).
    ///
    /// # Panics
    ///
    /// For a two-parent op.
    pub(crate) fn apply1(self, x: &Value, c: Consts) -> Value {
        match self {
            Rule::One(r) => x.unary_boxed((r.forward)(x.data(), c), c, Box::new(ByRule(self))),
            Rule::Two(r) => unreachable!("{} takes two parents", r.name),
        }
    }

    /// The node `a op b` of this two-parent op (as `a * b` makes it).
    ///
    /// # Panics
    ///
    /// For a one-parent op.
    pub(crate) fn apply2(self, a: &Value, b: &Value) -> Value {
        match self {
            Rule::Two(r) => {
                let parents = Parents::Two([a.clone(), b.clone()]);
                let out = (r.forward)(a.data(), b.data());
                Value::from_op(out, parents, Box::new(ByRule(self)))
            }
            Rule::One(r) => unreachable!("{} takes one parent", r.name),
        }
    }
}

/// The closure of a node made by [`Rule::apply1`] or [`Rule::apply2`]: the rule it
/// holds, run as the op's method's closure runs it (`x.grad += d out / d x *
/// out.grad`), so that the numbers are the method's. (It holds the rule, so boxing it
/// allocates, where a method's closure, which names its op by its type, does not.)
struct ByRule(Rule);

impl Backward for ByRule {
    fn run(&self, out: &Node) {
        match self.0 {
            Rule::One(r) => {
                let x = out.x();
                let dx = (r.local_grad)(x.data(), out.data, out.consts());
                x.add_grad(dx * out.grad);
            }
            Rule::Two(r) => {
                let (a, b) = out.a_b();
                let (da, db) = (r.local_grads)(a.data(), b.data(), out.data);
                a.add_grad(da * out.grad);
                b.add_grad(db * out.grad);
            }
        }
    }
}

impl Reader for ByRule {
    fn rule(&self) -> Option<Rule> {
        Some(self.0)
    }
}

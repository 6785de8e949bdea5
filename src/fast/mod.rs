//! The speed layer over the engine: two compact forms of micrograd's nodes, each giving
//! the engine's numbers bit for bit, each earning its lines by a number in
//! `docs/benchmarks.md`.
//!
//! | file | what it makes | Python's graph for it | what it saves |
//! |------|---------------|-----------------------|---------------|
//! | `constant.rs` | `&x * 2.0`: one node keeping the `2.0` | `x * Value(2.0)` | a node per `f64` operand: half the heap bytes of `y = y * 1.0000001 + 0.5` |
//! | `neuron.rs` | [`Value::neuron`](crate::Value::neuron): `act(b + Σ wᵢ·xᵢ)` as one node | 2n + 1 nodes | 2n nodes per neuron: the dynamic moons step |
//!
//! The engine knows each form only as a variant of a node's parents
//! (`Parents::Constant`, `Parents::Neuron`: the one place where it is told of them),
//! walks them in `backward()` and the drop as they are, and asks the node's closure for
//! Python's graph wherever a graph is read (`Value::expand`, `Backward::python_graph`). Both are built on what
//! [`Value::custom`](crate::Value::custom) uses too: a node with its own boxed backward closure.

mod constant;
mod neuron;
#[cfg(test)]
mod tests;

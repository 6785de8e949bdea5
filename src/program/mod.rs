//! A graph compiled to flat instructions that any thread may run: the [`Program`].
//!
//! A [`Program`] is what [`Tape::compile`](crate::tape::Tape::compile) makes of a graph:
//! op codes, node indices, constants, the terms of the sums, the layer plans, the
//! closures of custom ops, labels. It holds no [`Value`](crate::Value), no `Rc` and no
//! `RefCell`, so it is `Send + Sync`: one program, shared by reference, runs on many
//! threads at once, each thread with its own buffers (`Buffers`: the numbers of one run: values,
//! gradients, room for custom ops and the layers' weights).
//!
//! The runners sit on top: [`Tape`](crate::tape::Tape) runs a program on one thread with
//! one set of buffers and keeps the leaf `Value`s at its edge (reading their data in,
//! handing gradients back); its batch methods run one program on several threads (see
//! `docs/tape.md`, "Threads"). Nothing here reaches up into a runner.
//!
//! | file | what it holds |
//! |------|---------------|
//! | `mod.rs` | the [`Program`] and its arrays (`Step`, `Run`) |
//! | `buffers.rs` | `Buffers`: the per-worker numbers of a run |
//! | `compile.rs` | compiling: the graph's backward order, flattening, fusing |
//! | `layer.rs` | layers: sums that share their inputs, added up together |
//! | `forward.rs` | the forward loop |
//! | `backward.rs` | the backward loop |
//! | `defer.rs` | a batch's layer weight gradients, added once per chunk of samples |
//! | `private.rs` | the blocks a zero gradient lets the backward pass jump over |
//! | `graph.rs` | the program as a dynamic graph again, to name the culprit of a NaN |
//! | `by_rule.rs` | a node of the rebuilt graph, made from its op's rule |
//!
//! ```
//! use micrograd::{tape::Tape, Value};
//! let x = Value::new(2.0);
//! let tape = Tape::compile(&(&x * &x + 1.0))?;
//! let program = tape.program();
//! // `&Program` crosses threads (a `Tape`, which holds `Value`s, cannot).
//! let nodes = std::thread::scope(|s| s.spawn(|| program.node_count()).join());
//! assert_eq!(nodes.ok(), Some(tape.node_count()));
//! # Ok::<(), micrograd::Error>(())
//! ```

mod backward;
mod buffers;
mod by_rule;
pub(crate) mod code;
mod compile;
mod defer;
mod forward;
mod graph;
pub(crate) mod layer;
mod private;
mod rule;
mod target;

pub(crate) use buffers::Buffers;

/// How many samples a chunk of a batch has ([`tape::CHUNK`](crate::tape::CHUNK), where
/// the tape's threads are): the most samples a program adds up at once.
pub(crate) const CHUNK: usize = 8;
pub(crate) use compile::Compiled;
pub(crate) use defer::Lanes;
pub(crate) use forward::disagreement;
pub(crate) use layer::{Layer, NeuronTerms};
pub(crate) use target::{ConstantTarget, TargetIn};

use crate::engine::custom::Custom;
use crate::rules::{Consts, Rule};
use code::Code;

/// A graph compiled once into flat arrays, run many times: `Send + Sync`.
///
/// Node `k` is described by entry `k` of each array (struct of arrays). The leaves come
/// first (nodes `0..leaves`), then the inner nodes in topological order (every node
/// after its parents), the root last. Node indices are `u32`.
///
/// | `steps[k]` | `args[k]` |
/// |------------|-----------|
/// | `Unary(op)`, `UnaryRule(r)` (an op of `src/ops/`, its rule `rules[r]`) | `[parent, index into consts]` |
/// | `Binary(op)`, `BinaryRule(r)` | `[a, b]` |
/// | `Dot` (every `sum` and linear neuron), `DotThen(op)` (`op` of a fused `sum`, or a neuron with activation `op`) | `[start, end]`: the sum's terms are `runs[start..end]` |
/// | `Custom(c)` ([`Value::custom`](crate::Value::custom), closures `customs[c]`) | `[start, end]`: its parents are `custom_parents[start..end]` |
///
/// `consts[0]` is `[0.0, 0.0]`, the constants of every unary op without any; `powf`,
/// `powi`, `leaky_relu` and `clamp` nodes point at their own entry.
///
/// A `sum` is stored as a dot product: each of its terms is a pair `[x, y]` of node
/// indices and adds `data[x] * data[y]`. A term that is a product `a * b` used by
/// nothing else is *fused* in as the pair `[a, b]` (the `*` node is not in the program);
/// any other term `t` becomes `[t, one]`, where node `one` (the last entry of the data,
/// after the root) holds 1.0, and `t * 1.0` is `t` exactly. So a neuron
/// `sum(b, w0*x0, w1*x1, ..)` is one instruction, with the same value, bit for bit;
/// with its activation, `relu(sum(..))`, it still is one (`DotThen`).
///
/// Consecutive pairs `[x, y], [x + 1, y + 1], ..` are stored as one `Run`, so that the
/// loops over them read contiguous slices (which the compiler vectorises where it
/// may). The leaves are in the order the `sum`s read them (a neuron's weights next to
/// each other, then its inputs). The inner nodes are in the reverse of the order in
/// which [`Value::backward`](crate::Value::backward) runs their rules, so that the
/// backward pass adds each node's gradient contributions in the graph's order, bit for
/// bit the same sums (`compile.rs`); in a network that puts a layer's outputs for one
/// sample next to each other.
///
/// Get one from a [`Tape`](crate::tape::Tape) with
/// [`Tape::program`](crate::tape::Tape::program).
pub struct Program {
    /// What each node computes (`Leaf` for the leaves).
    pub(crate) steps: Vec<Step>,
    /// The two operands of each node (see the table above); `[0, 0]` for leaves.
    pub(crate) args: Vec<[u32; 2]>,
    /// The constants of `powf`, `powi`, `leaky_relu`, `clamp`, after the `[0.0, 0.0]`
    /// shared by all other ops.
    pub(crate) consts: Vec<Consts>,
    /// The terms of all `sum` nodes, back to back, as runs of pairs to multiply.
    pub(crate) runs: Vec<Run>,
    /// The labels of the labelled nodes, sorted by node index (for error messages).
    pub(crate) labels: Vec<(u32, Box<str>)>,
    /// The nodes that are one [`Value::neuron`](crate::Value::neuron) node in the graph
    /// (rather than a `sum`), in order (so that the rebuilt graph has the same nodes).
    pub(crate) neurons: Vec<u32>,
    /// The activations that a [`Value::neuron`](crate::Value::neuron) call put on a
    /// node of their own because its sum was not finite when the graph was built, in
    /// order: the rebuilt graph makes them with the same call, which on finite data
    /// makes one node, as the user's program would.
    pub(crate) neuron_activations: Vec<u32>,
    /// The rules of the ops defined above the engine (`src/ops/`), each once.
    pub(crate) rules: Vec<Rule>,
    /// The closures of the custom ops, in the order of their nodes.
    pub(crate) customs: Vec<Custom>,
    /// The parents of all custom nodes, back to back.
    pub(crate) custom_parents: Vec<u32>,
    /// The first nodes of groups of four `sum`s that the forward pass computes side by
    /// side (see `dot4` in `forward.rs`), in order.
    pub(crate) side_by_side: Vec<u32>,
    /// The groups of sums that the forward pass computes as one layer (see `layer.rs`),
    /// in order.
    pub(crate) layers: Vec<Layer>,
    /// The neurons of the layers of [`neurons`](Layer::neurons), layer after layer
    /// (each layer's from its [`terms`](Layer::terms)), as their backward pass takes them.
    pub(crate) neuron_terms: Vec<NeuronTerms>,
    /// The layers' weights, term by term (see [`Layer`]): for each entry of a worker's
    /// panels, the node it is copied from.
    pub(crate) gather: Vec<u32>,
    /// The node indices of the outputs asked for by
    /// [`compile_with_outputs`](crate::tape::Tape::compile_with_outputs).
    pub(crate) outputs: Vec<u32>,
    /// `(loss, form to use)` if a loss in the graph took its target as a number (or
    /// picked a logit by a class index): the program is right only for the sample it
    /// was compiled from, and a tape refuses to run it over others
    /// (`Tape::check_per_sample`).
    pub(crate) constant_target: Option<(&'static str, &'static str)>,
    /// The node indices of the target leaves of a loss's `_targets` form, which a batch
    /// must feed (`Tape::check_targets_fed`), in order, each once.
    pub(crate) targets: Vec<u32>,
    /// How many leaves: nodes `0..leaves`.
    pub(crate) leaves: usize,
    /// For each leaf, whether it stands for an `f64` operand (the leaf shown for the
    /// `2.0` of `&x * 2.0`, also where other nodes read it): as in
    /// [`Value::try_backward`](crate::Value::try_backward), which does not check it, a
    /// non-finite gradient there alone is no error.
    pub(crate) hidden: Vec<bool>,
    /// The nodes that keep an `f64` operand in the graph compiled (`&x * 2.0`), each
    /// with whether the operand is the first (`2.0 * &x`), in order: the graph rebuilt
    /// from the program makes them so again, showing the program's leaf for the number.
    pub(crate) operand_nodes: Vec<(u32, bool)>,
    /// The leaves whose gradient the dynamic graph never touches, in order: those made
    /// with [`Value::no_grad`](crate::Value::no_grad), and constants the engine made
    /// whose consumers need no gradient (and those marked after compiling, which a
    /// [`Tape`](crate::tape::Tape) adds before its next backward pass: `Program::freeze`).
    /// The backward pass leaves their entries at 0 and hands nothing to their `Value`s.
    pub(crate) frozen: Vec<u32>,
    /// The frozen leaves a backward pass writes into anyway (the parent of a one- or
    /// two-parent op or of a custom op, or a factor in a run whose other factors need
    /// their gradients): the pass sets their entries back to 0. MNIST's 784 pixels are
    /// frozen and not among them (only its `1 / batch size` is).
    pub(crate) frozen_written: Vec<u32>,
    /// The frozen leaves that were marked after compiling, in order: the nodes computed
    /// from them still need their gradients in the user's graph (they were built when
    /// the leaf needed one), so the rebuilt graph marks them last (`graph.rs`).
    pub(crate) frozen_late: Vec<u32>,
    /// For each entry of `runs`, which of its factors' gradients anyone needs: bit 1
    /// for the first factors (`x`), bit 2 for the second ones (`y`). A half whose nodes
    /// all need none (frozen leaves, such as inputs made with `no_grad`, and the
    /// constant 1 after the root) is skipped by the backward pass: MNIST's 784 pixels.
    pub(crate) run_grads: Vec<u8>,
    /// For each node whose local derivatives are finite on finite values, the first
    /// node of its private block (see `private.rs`): with a zero gradient, the backward
    /// pass jumps over the node and the block at once. `u32::MAX` for the others (a
    /// layer's entry is at its last node).
    pub(crate) private: Vec<u32>,
    /// The room a custom node needs for its parents' data and its local derivatives
    /// (twice the most parents a custom node has).
    pub(crate) scratch: usize,
}

/// What the program computes at one node (see the table at [`Program`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A leaf: its value is set from outside (by the runner, from its `Value`).
    Leaf,
    /// An op with one parent.
    Unary(Code),
    /// An op with two parents.
    Binary(Code),
    /// An op with one parent defined above the engine (`src/ops/`): index into
    /// `Program::rules`.
    UnaryRule(u32),
    /// An op with two parents defined above the engine: index into `Program::rules`.
    BinaryRule(u32),
    /// A `sum`, stored as a dot product.
    Dot,
    /// An activation (`relu`, `tanh`, `sigmoid`, `exp`) of a `sum` used by nothing else:
    /// the sum is fused in and not kept (its gradient is `local * out.grad`, and the
    /// local derivative of these ops needs only their output).
    DotThen(Code),
    /// A [`Value::custom`](crate::Value::custom) op: index into `Program::customs`.
    Custom(u32),
}

/// The terms `data[x + i] * data[y + i]` for `i` in `0..len` of a `sum` (see [`Program`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    /// The first factor of the first term.
    pub(crate) x: u32,
    /// The second factor of the first term.
    pub(crate) y: u32,
    /// How many terms.
    pub(crate) len: u32,
}

impl Run {
    /// The indices of the first factors.
    pub(crate) fn xs(self) -> std::ops::Range<usize> {
        self.x as usize..(self.x + self.len) as usize
    }

    /// The indices of the second factors.
    pub(crate) fn ys(self) -> std::ops::Range<usize> {
        self.y as usize..(self.y + self.len) as usize
    }
}

impl Program {
    /// How many nodes the program holds, leaves included (see
    /// [`Tape::node_count`](crate::tape::Tape::node_count)).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * &x))?;
    /// assert_eq!(tape.program().node_count(), 2);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn node_count(&self) -> usize {
        self.steps.len()
    }

    /// How many of its nodes are leaves (inputs, parameters, constants): nodes
    /// `0..leaf_count()`, in the order of [`Tape::leaves`](crate::tape::Tape::leaves).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * 3.0))?;  // leaves: x and the constant 3
    /// assert_eq!(tape.program().leaf_count(), 2);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn leaf_count(&self) -> usize {
        self.leaves
    }

    /// A measure of one run's work: a unit per node and per term of its sums (a
    /// multiply-add), what the forward and backward passes each go through once.
    pub(crate) fn work(&self) -> usize {
        self.steps.len() + self.runs.iter().map(|r| r.len as usize).sum::<usize>()
    }

    /// The index of the root: the last node.
    pub(crate) fn root(&self) -> usize {
        self.steps.len() - 1
    }

    /// The index of the constant 1.0 that unfused `sum` terms are multiplied by.
    pub(crate) fn one(&self) -> usize {
        self.steps.len()
    }

    /// Makes the leaves' labels `labels` (leaf `i`'s is `labels[i]`), for error
    /// messages: a runner that holds the leaves reads them again when they change.
    pub(crate) fn relabel_leaves(&mut self, labels: impl Iterator<Item = Option<String>>) {
        let leaves = self.leaves as u32;
        let inner = self.labels.partition_point(|(k, _)| *k < leaves);
        let mut relabelled: Vec<(u32, Box<str>)> = (0u32..)
            .zip(labels)
            .filter_map(|(k, label)| Some((k, label?.into_boxed_str())))
            .collect();
        relabelled.extend(self.labels.drain(inner..));
        self.labels = relabelled;
    }

    /// The label of node `k`, if it has one (for error messages).
    pub(crate) fn label_of(&self, k: usize) -> Option<String> {
        let i = self.labels.binary_search_by_key(&k, |(j, _)| *j as usize);
        i.ok().map(|i| self.labels[i].1.to_string())
    }
}

impl std::fmt::Debug for Program {
    /// A summary: `Program { nodes: 5, leaves: 2 }`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Program")
            .field("nodes", &self.node_count())
            .field("leaves", &self.leaves)
            .finish()
    }
}

/// Whether every number is finite: `x * 0.0` is 0 for a finite `x` and NaN for any
/// other, and a NaN stays in a sum. Added up in lanes without early exit, which the
/// compiler turns into vector instructions (fewer than for a fold of `is_finite`).
/// Sixteen lanes rather than four: each lane's sum waits for its last addition, so
/// with four a long slice takes about three cycles per four numbers; sixteen keep eight
/// vector additions under way.
pub(crate) fn all_finite(xs: &[f64]) -> bool {
    const LANES: usize = 16;
    let (chunks, rest) = xs.as_chunks::<LANES>();
    let mut lanes = [0.0; LANES];
    for chunk in chunks {
        lanes = std::array::from_fn(|i| lanes[i] + chunk[i] * 0.0);
    }
    let rest = rest.iter().fold(0.0, |sum, x| sum + x * 0.0);
    lanes.iter().fold(rest, |sum, lane| sum + lane) == 0.0
}

/// Whether every number is 0 (either sign): the bits of all of them but the sign, or-ed
/// together (which the compiler turns into vector instructions; a NaN or any other
/// number has a bit set there). Cheaper than a loop with an early exit over a layer's
/// 16 gradients.
pub(crate) fn all_zero(xs: &[f64]) -> bool {
    xs.iter().fold(0, |bits, x| bits | x.to_bits() << 1) == 0
}

// What lets one program run on many threads, checked at compile time: a program is
// shared (`Sync`) and may move (`Send`); each worker's buffers move to their thread.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    const fn send<T: Send>() {}
    send_sync::<Program>();
    send::<Buffers>();
};

#[cfg(test)]
mod tests {
    use super::{all_finite, all_zero};

    #[test]
    fn all_zero_finds_a_number_that_is_not_zero_at_any_place() {
        for len in 0..10 {
            let xs: Vec<f64> = (0..len).map(|i| [0.0, -0.0][i % 2]).collect();
            assert!(all_zero(&xs), "{xs:?}");
            for at in 0..len {
                let bad = [f64::NAN, f64::INFINITY, -f64::MAX, 5e-324, -5e-324, 1.0];
                for bad in bad {
                    let mut ys = xs.clone();
                    ys[at] = bad;
                    assert!(!all_zero(&ys), "{ys:?}");
                }
            }
        }
    }

    #[test]
    fn all_finite_finds_a_nan_or_infinity_at_any_place() {
        // (Past two turns of its sixteen lanes, and every remainder.)
        for len in 0..40 {
            let xs: Vec<f64> = (0..len).map(|i| [1e308, -0.0, -1e308][i % 3]).collect();
            assert!(all_finite(&xs), "{xs:?}");
            for at in 0..len {
                for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                    let mut ys = xs.clone();
                    ys[at] = bad;
                    assert!(!all_finite(&ys), "{ys:?}");
                }
            }
        }
    }
}

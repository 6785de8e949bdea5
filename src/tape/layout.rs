//! The [`Tape`] itself: a graph flattened into arrays, and what can be read from it.

use std::cell::RefCell;
use std::fmt;

use super::layer::Layer;
use crate::engine::address::AddressMap;
use crate::engine::custom::Custom;
use crate::engine::op::Op;
use crate::engine::rules::Consts;
use crate::engine::Value;
use crate::error::Error;

/// A graph of [`Value`]s compiled once into flat arrays, then run many times.
///
/// Node `k` of the tape is described by entry `k` of each array (struct of arrays). The
/// leaves come first (nodes `0..leaves.len()`, node `i` is `leaves[i]`), then the inner
/// nodes in topological order (every node after its parents), the root last. Node
/// indices are `u32`.
///
/// | `steps[k]` | `args[k]` |
/// |------------|-----------|
/// | `Unary(op)` | `[parent, index into consts]` |
/// | `Binary(op)` | `[a, b]` |
/// | `Dot` (every `sum` and linear neuron), `DotThen(op)` (`op` of a fused `sum`, or a neuron with activation `op`) | `[start, end]`: the sum's terms are `runs[start..end]` |
/// | `Custom(c)` ([`Value::custom`], closures `customs[c]`) | `[start, end]`: its parents are `custom_parents[start..end]` |
///
/// `consts[0]` is `[0.0, 0.0]`, the constants of every unary op without any; `powf`,
/// `powi`, `leaky_relu` and `clamp` nodes point at their own entry.
///
/// A `sum` is stored as a dot product: each of its terms is a pair `[x, y]` of node
/// indices and adds `data[x] * data[y]`. A term that is a product `a * b` used by
/// nothing else is *fused* in as the pair `[a, b]` (the `*` node is not on the tape);
/// any other term `t` becomes `[t, one]`, where node `one` (the last entry of `data`,
/// after the root) holds 1.0, and `t * 1.0` is `t` exactly. So a neuron
/// `sum(b, w0*x0, w1*x1, ..)` is one instruction, with the same value, bit for bit;
/// with its activation, `relu(sum(..))`, it still is one (`DotThen`).
///
/// Consecutive pairs `[x, y], [x + 1, y + 1], ..` are stored as one `Run`, so that the
/// loops over them read contiguous slices (which the compiler vectorises where it
/// may). The leaves are in the order the `sum`s read them (a neuron's weights next to
/// each other, then its inputs). The inner nodes are in the reverse of the order in
/// which [`Value::backward`] runs their rules, so that the backward pass adds each
/// node's gradient contributions in the graph's order, bit for bit the same sums
/// (`compile.rs`); in a network that puts a layer's outputs for one sample next to
/// each other.
///
/// See the [module docs](crate::tape) for how to use it.
pub struct Tape {
    /// A number no other tape of this process has (so [`Inputs`](super::Inputs) know
    /// their tape).
    pub(super) id: u64,
    /// The leaves, as handles: node `i < leaves.len()` is `leaves[i]`.
    pub(super) leaves: Vec<Value>,
    /// A leaf's node address → its index, for [`grad_of`](Tape::grad_of).
    pub(super) leaf_index: AddressMap<u32>,
    /// What each node computes (`Leaf` for the leaves).
    pub(super) steps: Vec<Step>,
    /// The two operands of each node (see the table above); `[0, 0]` for leaves.
    pub(super) args: Vec<[u32; 2]>,
    /// The constants of `powf`, `powi`, `leaky_relu`, `clamp`, after the `[0.0, 0.0]`
    /// shared by all other ops.
    pub(super) consts: Vec<Consts>,
    /// The terms of all `sum` nodes, back to back, as runs of pairs to multiply.
    pub(super) runs: Vec<Run>,
    /// Each node's value from the last forward pass (or from the graph, before one),
    /// then the constant 1.0 of the unfused `sum` terms.
    pub(super) data: Vec<f64>,
    /// Each node's gradient from the last backward pass (0 before one); for the leaves,
    /// the sum over the runs since the last flush (see [`Tape::accumulate`]). The last
    /// entry, for the constant 1.0, collects products no one reads.
    pub(super) grad: Vec<f64>,
    /// The labels of the labelled nodes, sorted by node index (for error messages).
    pub(super) labels: Vec<(u32, Box<str>)>,
    /// The nodes that are one [`Value::neuron`] node in the graph (rather than a `sum`),
    /// in order (so that the rebuilt graph has the same nodes).
    pub(super) neurons: Vec<u32>,
    /// The closures of the custom ops, in the order of their nodes.
    pub(super) customs: Vec<Custom>,
    /// The parents of all custom nodes, back to back.
    pub(super) custom_parents: Vec<u32>,
    /// Room for a custom node's parents' data and its local derivatives (twice the
    /// most parents a custom node has), so that no run allocates.
    pub(super) scratch: Vec<f64>,
    /// Whether every value of the last forward pass was finite, those of fused nodes
    /// included.
    pub(super) data_finite: bool,
    /// The first nodes of groups of four `sum`s that `forward` computes side by side
    /// (see `dot4` in `forward.rs`), in order.
    pub(super) side_by_side: Vec<u32>,
    /// The groups of sums that `forward` computes as one layer (see `layer.rs`), in
    /// order.
    pub(super) layers: Vec<Layer>,
    /// The layers' weights, term by term (see [`Layer`]), copied from `data`.
    pub(super) panels: Vec<f64>,
    /// For each entry of `panels`, the node it is copied from.
    pub(super) gather: Vec<u32>,
    /// Whether leaves were written since `panels` were last filled.
    pub(super) panels_stale: bool,
    /// The count of data writes on this thread ([`data_writes`](crate::engine::data_writes))
    /// when the tape last read its leaves' data: a run that sees another count reads
    /// them again, so that no change made through a `Value` is missed.
    pub(super) leaves_read_at: u64,
    /// For each leaf, whether [`set_inputs`](Tape::set_inputs) wrote it since the last
    /// [`read_leaves`](Tape::read_leaves): such a leaf takes the sample's number, not its
    /// `Value`'s data, until then.
    pub(super) fed: Vec<bool>,
    /// Whether the leaves' entries of `data` are finite (kept up to date by whatever
    /// writes them, so that a run need not look at every leaf).
    pub(super) leaves_finite: bool,
    /// The node indices of the outputs asked for by
    /// [`compile_with_outputs`](Tape::compile_with_outputs).
    pub(super) outputs: Vec<u32>,
    /// Whether the leaves' entries of `grad` hold more than the last
    /// [`backward`](Tape::backward) alone (it started from the leaves' grads, which
    /// were not all 0), so that [`grad_of`](Tape::grad_of) must look in `alone`.
    pub(super) alone_elsewhere: bool,
    /// The gradients of the last `backward` alone, when `alone_elsewhere`: computed by
    /// the first `grad_of` that asks (empty until then).
    pub(super) alone: RefCell<Vec<f64>>,
    /// Whether the leaves' entries of `grad` are sums of [`Tape::accumulate`] runs not
    /// yet handed to the `Value`s (rather than the gradient of the last `backward`).
    pub(super) unflushed: bool,
}

impl Tape {
    /// The root's value from the last [`forward`](Tape::forward) (right after
    /// [`compile`](Tape::compile), the root's `data()` at that time).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(3.0);
    /// let mut tape = Tape::compile(&(&x * &x))?;
    /// assert_eq!(tape.value(), 9.0);
    /// x.set_data(4.0);
    /// assert_eq!(tape.value(), 9.0);     // not recomputed yet
    /// assert_eq!(tape.forward()?, 16.0);
    /// assert_eq!(tape.value(), 16.0);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn value(&self) -> f64 {
        self.data[self.root()]
    }

    /// The values of the outputs named at
    /// [`compile_with_outputs`](Tape::compile_with_outputs), in that order, from the last
    /// forward (or from the graph, before one).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(3.0);
    /// let y = &x * &x;
    /// let tape = Tape::compile_with_outputs(&(&y + 1.0), &[y.clone(), x.clone()])?;
    /// assert_eq!(tape.outputs().collect::<Vec<_>>(), [9.0, 3.0]);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn outputs(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        self.outputs.iter().map(|&k| self.data[k as usize])
    }

    /// d root / d `leaf` from the last [`backward`](Tape::backward) of this tape alone
    /// (unlike `leaf.grad()`, which adds up every backward pass since the last
    /// `zero_grad`); 0 before the first backward. After [`accumulate`](Tape::accumulate)
    /// it is the sum over the runs since the last [`flush_grads`](Tape::flush_grads).
    ///
    /// # Errors
    ///
    /// [`Error::NotOnTape`] if `leaf` is not one of [`leaves`](Tape::leaves): a value of
    /// another graph, or an inner node (the tape keeps no handles to those).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(3.0);
    /// let y = &x * &x;
    /// let mut tape = Tape::compile(&y)?;
    /// tape.backward()?;
    /// assert_eq!(tape.grad_of(&x)?, 6.0);
    /// assert!(matches!(tape.grad_of(&y), Err(Error::NotOnTape { .. })));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn grad_of(&self, leaf: &Value) -> Result<f64, Error> {
        match self.leaf_index.get(&leaf.address()) {
            Some(&i) => Ok(self.pass_alone(i as usize)),
            None => Err(Error::NotOnTape {
                label: leaf.label(),
            }),
        }
    }

    /// The leaves of the graph (its inputs, parameters and constants), each once, in the
    /// order the tape stores them: handles to the same nodes as the user's values.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * &x + 1.0))?;   // leaves: x and the constant 1
    /// assert_eq!(tape.leaves().len(), 2);
    /// assert!(tape.leaves().iter().any(|l| Value::ptr_eq(l, &x)));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn leaves(&self) -> &[Value] {
        &self.leaves
    }

    /// How many nodes the tape holds, leaves included (each shared node once). Products
    /// fused into the `sum` that uses them (see [`Tape`]) are not nodes of the tape.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let y = &x * &x;                       // nodes: x, y
    /// assert_eq!(Tape::compile(&(&y + &y))?.node_count(), 3);
    /// let (w, b) = (Value::new(0.5), Value::new(1.0));
    /// let z: Value = [b, &w * &x].into_iter().sum(); // w * x is fused into the sum
    /// assert_eq!(Tape::compile(&z)?.node_count(), 4); // w, x, b, sum
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn node_count(&self) -> usize {
        self.steps.len()
    }

    /// The index of the root: the last node.
    pub(super) fn root(&self) -> usize {
        self.steps.len() - 1
    }

    /// The index of the constant 1.0 that unfused `sum` terms are multiplied by.
    pub(super) fn one(&self) -> usize {
        self.steps.len()
    }

    /// The label of node `k`, if it has one (for error messages).
    pub(super) fn label_of(&self, k: usize) -> Option<String> {
        let i = self.labels.binary_search_by_key(&k, |(j, _)| *j as usize);
        i.ok().map(|i| self.labels[i].1.to_string())
    }
}

impl fmt::Debug for Tape {
    /// A summary: `Tape { nodes: 5, leaves: 2, value: 9.0 }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tape")
            .field("nodes", &self.node_count())
            .field("leaves", &self.leaves.len())
            .field("value", &self.value())
            .finish()
    }
}

/// The terms `data[x + i] * data[y + i]` for `i` in `0..len` of a `sum` (see [`Tape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Run {
    /// The first factor of the first term.
    pub(super) x: u32,
    /// The second factor of the first term.
    pub(super) y: u32,
    /// How many terms.
    pub(super) len: u32,
}

impl Run {
    /// The indices of the first factors.
    pub(super) fn xs(self) -> std::ops::Range<usize> {
        self.x as usize..(self.x + self.len) as usize
    }

    /// The indices of the second factors.
    pub(super) fn ys(self) -> std::ops::Range<usize> {
        self.y as usize..(self.y + self.len) as usize
    }
}

/// What the tape computes at one node (see the table at [`Tape`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// A leaf: its value is read from its `Value`.
    Leaf,
    /// An op with one parent.
    Unary(Op),
    /// An op with two parents.
    Binary(Op),
    /// A `sum`, stored as a dot product.
    Dot,
    /// An activation (`relu`, `tanh`, `sigmoid`, `exp`) of a `sum` used by nothing else:
    /// the sum is fused in and not kept (its gradient is `local * out.grad`, and the
    /// local derivative of these ops needs only their output).
    DotThen(Op),
    /// A [`Value::custom`] op: index into `Tape::customs`.
    Custom(u32),
}

/// Whether every number is finite. Written as a fold without early exit so that the
/// compiler turns it into vector instructions.
pub(super) fn all_finite(xs: &[f64]) -> bool {
    xs.iter().fold(true, |ok, x| ok & x.is_finite())
}

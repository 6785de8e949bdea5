//! Compiling: flattening the graph under a root into a [`Tape`], without recursion.
//!
//! Python's `backward` orders the graph with a recursive depth-first search
//! (`build_topo`). Here the same depth-first search keeps its own stack, so a chain of
//! millions of nodes compiles at a constant call depth. Its post-order (each node after
//! all of its parents) is the topological order; the leaves are then moved to the front
//! and every node gets its index in the arrays.

use super::address::{AddressMap, AddressSet};
use super::layout::all_finite;
use super::Tape;
use crate::engine::op::Op;
use crate::engine::rules::Arity;
use crate::engine::Value;
use crate::error::Error;

impl Tape {
    /// Compiles the graph under `root` once, so that [`forward`](Tape::forward) and
    /// [`backward`](Tape::backward) can run it many times.
    ///
    /// Every value that `root` was computed from becomes a node of the tape, each shared
    /// node once. Leaves (inputs, parameters, and the constants that `&x * 2.0` wraps in
    /// a leaf, as Python does) stay [`Value`]s the tape holds handles to; the inner
    /// nodes are copied into flat arrays and the tape keeps no handle to them. The tape
    /// starts out holding the graph's current values, so [`value`](Tape::value) is
    /// `root.data()` and `backward` can run right away.
    ///
    /// Time and memory are linear in the size of the graph.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `root` is a leaf (there is nothing to compile) or if
    /// the graph has more than `u32::MAX` nodes.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * 3.0))?;
    /// assert_eq!((tape.value(), tape.node_count()), (6.0, 3));
    /// assert!(matches!(Tape::compile(&x), Err(Error::InvalidInput(_))));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn compile(root: &Value) -> Result<Tape, Error> {
        if root.node().op == Op::Leaf {
            return Err(Error::InvalidInput(format!(
                "cannot compile a tape from a leaf value{}: it was not computed from \
                 anything; compile the expression that uses it instead",
                root.label()
                    .map_or_else(String::new, |l| format!(" (label {l:?})"))
            )));
        }
        let order = topological_order(root);
        if u32::try_from(order.len()).is_err() {
            return Err(Error::InvalidInput(format!(
                "the graph has {} nodes; a tape holds at most {} (u32 indices)",
                order.len(),
                u32::MAX
            )));
        }
        let (leaves, inner): (Vec<Value>, Vec<Value>) =
            order.into_iter().partition(|v| v.node().op == Op::Leaf);

        // Node index of every value: leaves first, then the inner nodes in order.
        let index: AddressMap<u32> = leaves
            .iter()
            .chain(&inner)
            .zip(0u32..)
            .map(|(v, i)| (v.address(), i))
            .collect();
        let idx = |v: &Value| index[&v.address()];

        let n = leaves.len() + inner.len();
        let mut tape = Tape {
            leaf_index: AddressMap::default(),
            ops: Vec::with_capacity(n),
            args: Vec::with_capacity(n),
            consts: vec![0.0],
            terms: Vec::new(),
            data: Vec::with_capacity(n),
            grad: vec![0.0; n],
            labels: Vec::new(),
            data_finite: true,
            leaves: Vec::new(),
        };
        for (v, k) in leaves.iter().chain(&inner).zip(0u32..) {
            let node = v.node();
            let parents = node.parents();
            let args = match node.op.arity() {
                Arity::Zero => [0, 0],
                Arity::One if node.param() == 0.0 => [idx(&parents[0]), 0],
                Arity::One => {
                    tape.consts.push(node.param());
                    [idx(&parents[0]), (tape.consts.len() - 1) as u32]
                }
                Arity::Two => [idx(&parents[0]), idx(&parents[1])],
                Arity::Many => {
                    let start = tape.terms.len();
                    tape.terms.extend(parents.iter().map(idx));
                    [start as u32, tape.terms.len() as u32]
                }
            };
            tape.ops.push(node.op);
            tape.args.push(args);
            tape.data.push(node.data);
            if let Some(label) = node.label() {
                tape.labels.push((k, label.into()));
            }
        }
        tape.leaf_index = leaves.iter().map(|v| (v.address(), idx(v))).collect();
        tape.leaves = leaves;
        tape.data_finite = all_finite(&tape.data);
        Ok(tape)
    }
}

/// Every value `root` was computed from, each once, every node after its parents and
/// `root` last: the post-order of a depth-first search, run with an explicit stack.
fn topological_order(root: &Value) -> Vec<Value> {
    let mut order = Vec::new();
    let mut seen = AddressSet::default();
    seen.insert(root.address());
    // Each entry: a node whose parents are being visited, and how many have been.
    let mut stack = vec![(root.clone(), 0)];
    while let Some((value, visited)) = stack.last_mut() {
        let next = value.node().parents().get(*visited).cloned();
        *visited += 1;
        match next {
            Some(parent) => {
                if seen.insert(parent.address()) {
                    stack.push((parent, 0));
                }
            }
            // All parents are placed: the node goes next.
            None => order.extend(stack.pop().map(|(value, _)| value)),
        }
    }
    order
}

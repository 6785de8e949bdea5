//! Compiling: flattening the graph under a root into a [`Tape`], without recursion.
//!
//! Python's `backward` orders the graph with a recursive depth-first search
//! (`build_topo`). Here the same depth-first search keeps its own stack, so a chain of
//! millions of nodes compiles at a constant call depth. Its post-order (each node after
//! all of its parents) is the topological order; the leaves are then moved to the front
//! and every node gets its index in the arrays.

use std::sync::atomic::{AtomicU64, Ordering};

use super::layer::WIDTH;
use super::layout::all_finite;
use super::layout::{Run, Step};
use super::Tape;
use crate::engine::address::{AddressMap, AddressSet};
use crate::engine::op::Op;
use crate::engine::rules::Arity;
use crate::engine::value::Node;
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
        Tape::compile_with_outputs(root, &[])
    }

    /// [`compile`](Tape::compile), keeping the values of `outputs` (nodes of the graph
    /// other than the root, such as a network's scores when the root is the loss) so
    /// that [`outputs`](Tape::outputs) reads them after each forward.
    ///
    /// # Errors
    ///
    /// As [`compile`](Tape::compile), and [`Error::NotOnTape`] if one of `outputs` is
    /// not a node of the graph under `root`.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let score = x.tanh();
    /// let loss = (&score - 1.0).powf(2.0);
    /// let mut tape = Tape::compile_with_outputs(&loss, &[score.clone()])?;
    /// x.set_data(0.5);
    /// tape.forward()?;
    /// assert_eq!(tape.outputs().collect::<Vec<_>>(), [0.5f64.tanh()]);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn compile_with_outputs(root: &Value, outputs: &[Value]) -> Result<Tape, Error> {
        if root.node().op == Op::Leaf {
            return Err(Error::InvalidInput(format!(
                "cannot compile a tape from a leaf value{}: it was not computed from \
                 anything; compile the expression that uses it instead",
                root.label()
                    .map_or_else(String::new, |l| format!(" (label {l:?})"))
            )));
        }
        let order = root.topo();
        // One index more for the constant 1.0 after the root.
        if order.len() >= u32::MAX as usize {
            return Err(Error::InvalidInput(format!(
                "the graph has {} nodes; a tape holds fewer than {} (u32 indices)",
                order.len(),
                u32::MAX
            )));
        }
        let mut fused = fused_nodes(&order);
        for output in outputs {
            fused.remove(&output.address());
        }
        let inner: Vec<Value> = order
            .iter()
            .filter(|v| v.node().op != Op::Leaf && !fused.contains(&v.address()))
            .cloned()
            .collect();
        let (inner, depths) = by_depth(inner, &fused);
        let leaves = leaves_by_first_use(&inner, &fused);

        // Node index of every value: leaves first, then the inner nodes in order.
        let index: AddressMap<u32> = leaves
            .iter()
            .chain(&inner)
            .zip(0u32..)
            .map(|(v, i)| (v.address(), i))
            .collect();
        let idx = |v: &Value| index[&v.address()];

        let n = leaves.len() + inner.len();
        let one = n as u32;
        static TAPES: AtomicU64 = AtomicU64::new(0);
        let mut tape = Tape {
            id: TAPES.fetch_add(1, Ordering::Relaxed),
            leaf_index: AddressMap::default(),
            steps: Vec::with_capacity(n),
            args: Vec::with_capacity(n),
            consts: vec![0.0],
            runs: Vec::new(),
            data: Vec::with_capacity(n + 1),
            grad: vec![0.0; n + 1],
            labels: Vec::new(),
            customs: Vec::new(),
            custom_parents: Vec::new(),
            scratch: Vec::new(),
            data_finite: true,
            leaves_finite: true,
            side_by_side: Vec::new(),
            layers: Vec::new(),
            panels: Vec::new(),
            gather: Vec::new(),
            panels_stale: false,
            unflushed: false,
            outputs: Vec::new(),
            leaves: Vec::new(),
        };
        for (v, k) in leaves.iter().chain(&inner).zip(0u32..) {
            let node = v.node();
            let parents = node.parents();
            let (step, args) = match (sum_of(v, &fused), node.op.arity()) {
                (Some(sum), _) => {
                    let start = tape.runs.len();
                    for (x, y) in terms(&sum, &fused) {
                        let y = y.as_ref().map_or(one, idx);
                        tape.push_term(start, idx(&x), y);
                    }
                    let step = match node.op {
                        Op::Sum => Step::Dot,
                        activation => Step::DotThen(activation),
                    };
                    (step, [start as u32, tape.runs.len() as u32])
                }
                (None, Arity::Zero) => (Step::Leaf, [0, 0]),
                (None, Arity::One) if node.param() == 0.0 => {
                    (Step::Unary(node.op), [idx(&parents[0]), 0])
                }
                (None, Arity::One) => {
                    tape.consts.push(node.param());
                    let c = (tape.consts.len() - 1) as u32;
                    (Step::Unary(node.op), [idx(&parents[0]), c])
                }
                (None, Arity::Two) => (Step::Binary(node.op), [idx(&parents[0]), idx(&parents[1])]),
                // (Every sum has its terms: the others are custom ops.)
                (None, Arity::Many) => tape.push_custom(&node, idx),
            };
            tape.steps.push(step);
            tape.args.push(args);
            tape.data.push(node.data);
            if let Some(label) = node.label() {
                tape.labels.push((k, label.into()));
            }
        }
        tape.data.push(1.0);
        tape.group_layers(leaves.len(), &depths);
        tape.group_side_by_side(leaves.len(), &depths);
        tape.outputs = outputs
            .iter()
            .map(|v| match index.get(&v.address()) {
                Some(&k) => Ok(k),
                None => Err(Error::NotOnTape { label: v.label() }),
            })
            .collect::<Result<_, _>>()?;
        tape.leaf_index = leaves.iter().map(|v| (v.address(), idx(v))).collect();
        tape.leaves = leaves;
        tape.data_finite = all_finite(&tape.data);
        tape.leaves_finite = all_finite(&tape.data[..tape.leaves.len()]);
        Ok(tape)
    }
}

/// The nodes that are computed inside the one node that uses them (see [`Tape`]): the
/// unlabelled `*` nodes whose one and only use is as a term of a `sum`, and the
/// unlabelled `sum` nodes whose one and only use is an activation ([`activation`]). No
/// one can ask the tape about them, and the node that takes them in computes them with
/// the same arithmetic.
fn fused_nodes(order: &[Value]) -> AddressSet {
    let mut uses: AddressMap<u32> = AddressMap::default();
    for v in order {
        for p in v.node().parents() {
            *uses.entry(p.address()).or_insert(0) += 1;
        }
    }
    let used_once_unlabelled = |v: &Value, op: Op| {
        let node = v.node();
        node.op == op && node.label().is_none() && uses[&v.address()] == 1
    };
    let mut fused = AddressSet::default();
    for v in order {
        let node = v.node();
        if node.op == Op::Sum {
            let products = node
                .parents()
                .iter()
                .filter(|t| used_once_unlabelled(t, Op::Mul));
            fused.extend(products.map(Value::address));
        } else if activation(node.op) && used_once_unlabelled(&node.parents()[0], Op::Sum) {
            fused.insert(node.parents()[0].address());
        }
    }
    fused
}

/// Whether a `sum` can be fused into this op: a one-parent op whose derivative is a
/// function of its output alone (so the sum's value need not be kept).
fn activation(op: Op) -> bool {
    matches!(op, Op::Relu | Op::Tanh | Op::Sigmoid | Op::Exp)
}

/// The `sum` whose terms the inner node `v` computes: `v` itself, or the fused sum under
/// an activation.
fn sum_of(v: &Value, fused: &AddressSet) -> Option<Value> {
    let node = v.node();
    match node.op {
        Op::Sum => Some(v.clone()),
        op if activation(op) && fused.contains(&node.parents()[0].address()) => {
            Some(node.parents()[0].clone())
        }
        _ => None,
    }
}

/// The fewest terms a `sum` needs to be computed side by side with three others.
/// Measured on `benches/moons_step.rs` (callgrind instructions per forward, criterion
/// time per step): side by side from 64 terms (only MNIST's 785-term neurons) 583k and
/// 54 µs; from 16 (also the 17-term hidden neurons) 557k and 45 µs; from 3 (also the
/// 3-term first layer) 500k and 44 µs (before `dot4` had its one-term shortcut).
const SIDE_BY_SIDE_MIN_TERMS: u32 = 3;

impl Tape {
    /// Finds the groups of four consecutive `sum`s (with or without an activation) that
    /// `forward` can compute side by side: the same depth (so none reads another), runs
    /// of the same lengths, and enough terms to pay for the bookkeeping.
    /// `depths[i]` is the depth of node `first + i`.
    fn group_side_by_side(&mut self, first: usize, depths: &[u32]) {
        let is_sum = |step| matches!(step, Step::Dot | Step::DotThen(_));
        let shape = |k: usize| {
            let [a, b] = self.args[k].map(|i| i as usize);
            self.runs[a..b].iter().map(|r| r.len)
        };
        let long = |k: usize| shape(k).sum::<u32>() >= SIDE_BY_SIDE_MIN_TERMS;
        let mut layers = self.layers.iter().map(|l| l.first as usize).peekable();
        let mut k = first;
        while k + 4 <= self.steps.len() {
            if layers.next_if_eq(&k).is_some() {
                k += WIDTH;
                continue;
            }
            let side_by_side = (k..k + 4).all(|j| {
                is_sum(self.steps[j])
                    && long(j)
                    && depths[j - first] == depths[k - first]
                    && shape(j).eq(shape(k))
            });
            if side_by_side {
                self.side_by_side.push(k as u32);
                k += 4;
            } else {
                k += 1;
            }
        }
    }

    /// Appends the closures and parents of the custom node `node`; returns its step and
    /// args.
    fn push_custom(&mut self, node: &Node, idx: impl Fn(&Value) -> u32) -> (Step, [u32; 2]) {
        let custom = node.custom().expect("a custom node has its closures");
        self.customs.push(custom.clone());
        let start = self.custom_parents.len() as u32;
        self.custom_parents.extend(node.parents().iter().map(idx));
        let n = node.parents().len();
        if self.scratch.len() < 2 * n {
            self.scratch.resize(2 * n, 0.0);
        }
        let c = (self.customs.len() - 1) as u32;
        (Step::Custom(c), [start, self.custom_parents.len() as u32])
    }

    /// Appends the term `data[x] * data[y]` to the runs of the `sum` whose runs start
    /// at `start`: it extends the last run if both indices follow on from it.
    fn push_term(&mut self, start: usize, x: u32, y: u32) {
        match self.runs[start..].last_mut() {
            Some(run) if run.x + run.len == x && run.y + run.len == y => run.len += 1,
            _ => self.runs.push(Run { x, y, len: 1 }),
        }
    }
}

/// The terms of the `sum` node `sum` as the two factors the tape multiplies: `(a,
/// Some(b))` for a fused product `a * b`, `(t, None)` for any other term `t` (`None`
/// standing for the constant 1).
fn terms(sum: &Value, fused: &AddressSet) -> Vec<(Value, Option<Value>)> {
    let node = sum.node();
    node.parents()
        .iter()
        .map(|term| {
            if fused.contains(&term.address()) {
                // (A fused product's parents are `[a, b]`; `a * a` has `a` twice.)
                let factors = term.node().parents().to_vec();
                (factors[0].clone(), Some(factors[1].clone()))
            } else {
                (term.clone(), None)
            }
        })
        .collect()
}

/// The operands the tape reads for an inner node: its parents, or for a `sum` (or an
/// activation of a fused one) the factors of its terms (the first factors of all
/// terms, then the second ones).
fn operands(v: &Value, fused: &AddressSet) -> Vec<Value> {
    let Some(sum) = sum_of(v, fused) else {
        return v.node().parents().to_vec();
    };
    let terms = terms(&sum, fused);
    let firsts = terms.iter().map(|(x, _)| x.clone());
    let seconds = terms.iter().filter_map(|(_, y)| y.clone());
    firsts.chain(seconds).collect()
}

/// The inner nodes sorted (stably) by depth: a leaf has depth 0, an inner node one more
/// than its deepest operand. This is still a topological order, and it puts the outputs
/// of one layer of a network (the same op at the same depth, one neuron after the other)
/// next to each other, so that the next layer's `sum`s read them as contiguous runs.
///
/// Returns the sorted nodes and their depths.
fn by_depth(mut inner: Vec<Value>, fused: &AddressSet) -> (Vec<Value>, Vec<u32>) {
    let mut depth: AddressMap<u32> = AddressMap::default();
    for v in &inner {
        let deepest = operands(v, fused)
            .iter()
            .map(|p| depth.get(&p.address()).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        depth.insert(v.address(), deepest + 1);
    }
    inner.sort_by_key(|v| depth[&v.address()]);
    let depths = inner.iter().map(|v| depth[&v.address()]).collect();
    (inner, depths)
}

/// The leaves in the order the inner nodes first read them, a `sum` reading the first
/// factors of its terms before the second ones. A neuron `sum(b, w0*x0, w1*x1, ..)` thus
/// places `b, w0, w1, ..` next to each other, then its inputs `x0, x1, ..`: its terms
/// become contiguous runs.
fn leaves_by_first_use(inner: &[Value], fused: &AddressSet) -> Vec<Value> {
    let mut seen = AddressSet::default();
    let mut leaves = Vec::new();
    for v in inner {
        for p in operands(v, fused) {
            if p.node().op == Op::Leaf && seen.insert(p.address()) {
                leaves.push(p);
            }
        }
    }
    leaves
}

//! Compiling: flattening the graph under a root into a [`Program`], without recursion.
//!
//! The graph's nodes are listed by [`Value::topo`] (Python's `build_topo`, with its own
//! stack, so a chain of millions of nodes compiles at a constant call depth), and
//! [`Value::backward`] runs their rules in the reverse of that order ([`backward_ranks`]).
//! The inner nodes are placed in that order, after the leaves: the program's backward
//! loop, last node first, then adds each node's gradient contributions in the graph's
//! order, which float addition needs for the same bits.
//! [`Program::same_order_as_graph`] verifies that fusing kept it so; if not, the graph is
//! compiled again without fusing.

use super::code::{Arity, Code};
use super::{ConstantTarget, Program, Run, Step, TargetIn};
use crate::address::{AddressMap, AddressSet};
use crate::engine::value::Node;
use crate::engine::Value;
use crate::error::Error;
use crate::fast::is_neuron_activation;
use crate::fast::{neuron_act, Act};
use crate::ops::is_sum;
use crate::rules::{no_consts, Rule, NO_CONSTS};

/// What compiling a graph makes: the [`Program`], and what a runner needs at its edge.
pub(crate) struct Compiled {
    /// The instructions.
    pub(crate) program: Program,
    /// The leaves, as handles: node `i < leaves.len()` is `leaves[i]`.
    pub(crate) leaves: Vec<Value>,
    /// The graph's values, node by node, then the constant 1.0 (see [`Program`]).
    pub(crate) data: Vec<f64>,
    /// Whether every value of the graph was finite, those of fused nodes included.
    pub(crate) data_finite: bool,
}

impl Program {
    /// Compiles the graph under `root` (which is not a leaf), keeping the values of
    /// `outputs` (see [`Tape::compile_with_outputs`](crate::tape::Tape::compile_with_outputs),
    /// which documents the errors).
    pub(crate) fn compile(root: &Value, outputs: &[Value]) -> Result<Compiled, Error> {
        if root.node().is_leaf() {
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
        let uses = use_counts(&order);
        let operands = operand_leaves(&order, &uses)?;
        let ranks = backward_ranks(&order);
        let mut fused = fused_nodes(&order, &uses);
        for output in outputs {
            fused.remove(&output.address());
        }
        let (compiled, order_ranks) =
            Program::flatten(&order, &ranks, &fused, &operands, true, outputs)?;
        if compiled.program.same_order_as_graph(&order_ranks) {
            return Ok(compiled);
        }
        // Every node on its own and every term in a run of its own, in the order
        // `Value::backward` runs them: each node's contributions come in the graph's order
        // by construction.
        let no_fusing = AddressSet::default();
        let (compiled, _) =
            Program::flatten(&order, &ranks, &no_fusing, &operands, false, outputs)?;
        Ok(compiled)
    }

    /// The program of the graph `order` (a topological order, root last) with the nodes
    /// `fused` computed inside their consumers (and, if `merge`, consecutive terms of a
    /// sum or neuron stored as one run), its inner nodes in the reverse of the
    /// order in which [`Value::backward`] runs their rules (`ranks`); and, for
    /// [`same_order_as_graph`](Program::same_order_as_graph), the rank of the rule behind
    /// each gradient contribution the program's backward pass makes.
    fn flatten(
        order: &[Value],
        ranks: &AddressMap<u32>,
        fused: &AddressSet,
        operands: &AddressSet,
        merge: bool,
        outputs: &[Value],
    ) -> Result<(Compiled, Ranks), Error> {
        let rank = |v: &Value| ranks[&v.address()];
        let mut inner: Vec<Value> = order
            .iter()
            .filter(|v| !v.node().is_leaf() && !fused.contains(&v.address()))
            .cloned()
            .collect();
        inner.sort_by_key(|v| std::cmp::Reverse(rank(v)));
        let depths = depths(&inner, fused);
        let leaves = leaves_by_first_use(&inner, fused);
        let mut order_ranks = Ranks::default();

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
        let mut program = Program {
            steps: Vec::with_capacity(n),
            args: Vec::with_capacity(n),
            consts: vec![NO_CONSTS],
            runs: Vec::new(),
            labels: Vec::new(),
            neurons: Vec::new(),
            neuron_activations: Vec::new(),
            rules: Vec::new(),
            customs: Vec::new(),
            custom_parents: Vec::new(),
            side_by_side: Vec::new(),
            layers: Vec::new(),
            neuron_terms: Vec::new(),
            gather: Vec::new(),
            outputs: Vec::new(),
            // (Fused nodes too: every node of the graph is looked at.)
            constant_target: order.iter().find_map(|v| ConstantTarget::of(&v.node())),
            targets: {
                let targets = order.iter().filter_map(|v| TargetIn::leaf(&v.node()));
                let mut targets: Vec<u32> = targets.map(|t| idx(&t)).collect();
                targets.sort_unstable();
                targets.dedup();
                targets
            },
            leaves: leaves.len(),
            operand_nodes: Vec::new(),
            hidden: leaves
                .iter()
                .map(|v| operands.contains(&v.address()))
                .collect(),
            frozen: frozen(order, &leaves),
            frozen_written: Vec::new(),
            frozen_late: Vec::new(),
            run_grads: Vec::new(),
            private: Vec::new(),
            scratch: 0,
        };
        let mut data = Vec::with_capacity(n + 1);
        for (v, k) in leaves.iter().chain(&inner).zip(0u32..) {
            let node = v.node();
            order_ranks.nodes.push(Rank::of(rank(v), 0));
            let arity = Arity::of(&node);
            let (step, args) = match (dot_terms(v, fused), arity) {
                (Some(terms), _) => {
                    let start = program.runs.len();
                    for (j, term) in (0u32..).zip(terms) {
                        order_ranks.terms.push(term.made_at(rank, j));
                        let y = term.y.as_ref().map_or(one, idx);
                        program.push_term(start, idx(&term.x), y, merge);
                    }
                    let neuron = neuron_act(&node);
                    let step = match (is_sum(&node), neuron, activation(&node)) {
                        (true, ..) | (_, Some(Act::Linear), _) => Step::Dot,
                        (_, Some(act), _) => Step::DotThen(neuron_code(act)),
                        (.., Some(code)) => Step::DotThen(code),
                        _ => unreachable!("only a sum, a neuron or an activation is a dot"),
                    };
                    if neuron.is_some() {
                        program.neurons.push(k);
                    }
                    (step, [start as u32, program.runs.len() as u32])
                }
                (None, Arity::Zero) => (Step::Leaf, [0, 0]),
                (None, Arity::One) if no_consts(node.consts()) => {
                    if is_neuron_activation(&node) {
                        program.neuron_activations.push(k);
                    }
                    (program.op_step(&node), [idx(&node.parents()[0]), 0])
                }
                (None, Arity::One) => {
                    program.consts.push(node.consts());
                    let c = (program.consts.len() - 1) as u32;
                    (program.op_step(&node), [idx(&node.parents()[0]), c])
                }
                (None, Arity::Two) => {
                    // (Python's two parents: an `f64` operand's leaf among them.)
                    if let Some((_, first)) = node.operand() {
                        program.operand_nodes.push((k, first));
                    }
                    let parents = node.parent_list();
                    (program.op_step(&node), [idx(&parents[0]), idx(&parents[1])])
                }
                // (Every sum has its terms: the others are custom ops.)
                (None, Arity::Many) => program.push_custom(&node, idx),
            };
            program.steps.push(step);
            program.args.push(args);
            data.push(node.data);
            if let Some(label) = node.label() {
                program.labels.push((k, label.into()));
            }
        }
        data.push(1.0);
        let written = program.plan_run_grads();
        program.group_layers(leaves.len(), &depths);
        program.plan_deferred(&written);
        program.plan_private();
        program.group_side_by_side(leaves.len(), &depths);
        program.outputs = (outputs.iter().enumerate())
            .map(|(i, v)| match index.get(&v.address()) {
                Some(&k) => Ok(k),
                None => Err(Error::NotInGraph {
                    index: i,
                    label: v.label(),
                }),
            })
            .collect::<Result<_, _>>()?;
        let compiled = Compiled {
            program,
            leaves,
            data,
            // (Also the values of fused nodes, which the program does not keep.)
            data_finite: order.iter().all(|v| v.data().is_finite()),
        };
        Ok((compiled, order_ranks))
    }

    /// Whether the backward pass adds every node's gradient contributions in the order
    /// [`Value::backward`] adds them, as float addition needs for the same bits (with
    /// three or more, `(a + b) + c` and `(a + c) + b` may differ). The pass goes from
    /// the last node to the first; a `sum` adds its terms run by run, the first
    /// factors of a run before the second ones, and a fused product's contributions
    /// come at its sum's turn, not its own. `ranks` says when the graph makes each
    /// contribution; each node must receive them in increasing rank. Linear time.
    fn same_order_as_graph(&self, ranks: &Ranks) -> bool {
        let mut last = vec![Rank(0); self.steps.len() + 1];
        let mut in_order = true;
        let mut arrives = |node: usize, rank: Rank| {
            in_order &= rank >= last[node];
            last[node] = rank;
        };
        // The index of the first term of each run.
        let firsts: Vec<usize> = self
            .runs
            .iter()
            .scan(0, |t, r| Some(std::mem::replace(t, *t + r.len as usize)))
            .collect();
        for k in (self.leaves..self.steps.len()).rev() {
            let [a, b] = self.args[k].map(|i| i as usize);
            match self.steps[k] {
                Step::Dot | Step::DotThen(_) => {
                    for (run, &t) in self.runs[a..b].iter().zip(&firsts[a..b]) {
                        let terms = &ranks.terms[t..t + run.len as usize];
                        for (x, &rank) in run.xs().zip(terms) {
                            arrives(x, rank);
                        }
                        for (y, &rank) in run.ys().zip(terms) {
                            arrives(y, rank);
                        }
                    }
                }
                Step::Binary(_) | Step::BinaryRule(_) => {
                    arrives(a, ranks.nodes[k]);
                    arrives(b, ranks.nodes[k]);
                }
                Step::Unary(_) | Step::UnaryRule(_) => arrives(a, ranks.nodes[k]),
                Step::Custom(_) => {
                    for &p in &self.custom_parents[a..b] {
                        arrives(p as usize, ranks.nodes[k]);
                    }
                }
                Step::Leaf => {}
            }
        }
        in_order
    }
}

/// When [`Value::backward`] makes each gradient contribution of a program (see
/// [`Program::same_order_as_graph`]): per node (for its parents), and per `sum` or
/// neuron term (for a term's factors).
#[derive(Default)]
struct Ranks {
    nodes: Vec<Rank>,
    terms: Vec<Rank>,
}

/// When a contribution is made: the position of its rule in `backward()`'s order, then
/// its position inside that rule (a neuron's rule adds its terms' contributions one
/// term after the other).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rank(u64);

impl Rank {
    fn of(rule: u32, within: u32) -> Rank {
        Rank((u64::from(rule) << 32) | u64::from(within))
    }
}

/// The positions in `leaves` of those whose gradient `backward()` never touches (see
/// [`Program::frozen`]): a leaf gets a gradient only if it needs one and so does one of
/// its consumers in the graph `order`.
fn frozen(order: &[Value], leaves: &[Value]) -> Vec<u32> {
    let mut fed = AddressSet::default();
    for v in order {
        let node = v.node();
        if !node.is_leaf() && node.requires_grad {
            fed.extend(node.parent_list().iter().map(Value::address));
        }
    }
    let gets_grad = |v: &Value| v.node().requires_grad && fed.contains(&v.address());
    (0u32..)
        .zip(leaves)
        .filter(|(_, v)| !gets_grad(v))
        .map(|(i, _)| i)
        .collect()
}

/// The leaves of the graph `order` that stand for an `f64` operand: the leaf shown for
/// the number a node keeps (the `2.0` of `&x * 2.0`, `src/fast/constant.rs`), also where
/// other nodes read it too ([`Program::hidden`]).
///
/// An error if such a node needs no gradient (its `Value` operand needs none) while its
/// leaf does, read by other nodes too: in the graph that node's rule never runs, so it
/// adds nothing to the leaf's gradient, where the tape, which runs every node's rule,
/// would add its share.
fn operand_leaves(order: &[Value], uses: &AddressMap<u32>) -> Result<AddressSet, Error> {
    let mut operands = AddressSet::default();
    for v in order {
        let node = v.node();
        let Some(leaf) = node.shown_operand() else {
            continue;
        };
        if !node.requires_grad && leaf.requires_grad() && uses[&leaf.address()] > 1 {
            return Err(Error::InvalidInput(format!(
                "the leaf Value({}) of the `{}` node{} is read by other nodes too, but that \
                 node needs no gradient (its other operand needs none), so the graph adds \
                 nothing to the leaf's gradient from it, which a tape cannot do: build \
                 those other nodes on a value of your own, Value::new({})",
                leaf.data(),
                node.op_name(),
                node.label().map_or_else(String::new, |l| format!(" {l:?}")),
                leaf.data(),
            )));
        }
        operands.insert(leaf.address());
    }
    Ok(operands)
}

/// How many times each node is a parent in the graph (twice for `a` in `a * a`).
fn use_counts(order: &[Value]) -> AddressMap<u32> {
    let mut uses: AddressMap<u32> = AddressMap::default();
    for v in order {
        for p in v.node().parent_list().iter() {
            *uses.entry(p.address()).or_insert(0) += 1;
        }
    }
    uses
}

/// The position of each node's rule in [`Value::backward`]'s loop over the graph's
/// topological order `order`: Python's `for v in reversed(topo)`.
fn backward_ranks(order: &[Value]) -> AddressMap<u32> {
    order
        .iter()
        .rev()
        .zip(0u32..)
        .map(|(v, i)| (v.address(), i))
        .collect()
}

/// The nodes that are computed inside the one node that uses them (see [`Program`]): the
/// unlabelled `*` nodes whose one and only use is as a term of a `sum`, and the
/// unlabelled `sum` nodes whose one and only use is an activation ([`activation`]). No
/// one can ask the tape about them, and the node that takes them in computes them with
/// the same arithmetic.
fn fused_nodes(order: &[Value], uses: &AddressMap<u32>) -> AddressSet {
    let used_once_unlabelled = |v: &Value, is: fn(&Node) -> bool| {
        let node = v.node();
        is(&node) && node.label().is_none() && uses[&v.address()] == 1
    };
    let mut fused = AddressSet::default();
    for v in order {
        let node = v.node();
        if is_sum(&node) {
            let products = node
                .parents()
                .iter()
                // (Not a product that keeps an `f64` operand: the graph rebuilt from the
                // program makes it again, `Program::operand_nodes`.)
                .filter(|t| {
                    used_once_unlabelled(t, |n| code(n) == Some(Code::Mul) && n.operand().is_none())
                });
            fused.extend(products.map(Value::address));
        } else if activation(&node).is_some() && used_once_unlabelled(&node.parents()[0], is_sum) {
            fused.insert(node.parents()[0].address());
        }
    }
    fused
}

/// The code of a neuron's activation (not `Linear`).
fn neuron_code(act: Act) -> Code {
    crate::fast::activation_rule(act)
        .and_then(Code::of)
        .expect("an activation is one of the engine's ops")
}

/// The code of the engine's op that made `node`, if one did.
pub(crate) fn code(node: &Node) -> Option<Code> {
    node.rule().and_then(Code::of)
}

/// The op of `node`, if a `sum` can be fused into it: a one-parent op whose derivative
/// is a function of its output alone (so the sum's value need not be kept).
fn activation(node: &Node) -> Option<Code> {
    code(node).filter(|c| matches!(c, Code::Relu | Code::Tanh | Code::Sigmoid | Code::Exp))
}

/// The `sum` whose terms the inner node `v` computes: `v` itself, or the fused sum under
/// an activation.
fn sum_of(v: &Value, fused: &AddressSet) -> Option<Value> {
    let node = v.node();
    match is_sum(&node) {
        true => Some(v.clone()),
        _ if activation(&node).is_some() && fused.contains(&node.parents()[0].address()) => {
            Some(node.parents()[0].clone())
        }
        _ => None,
    }
}

/// The fewest terms a `sum` needs to be computed side by side with three others. Three
/// takes in the moons network's 3-term first layer as well as its 17-term hidden
/// neurons: fewer instructions per forward pass than a threshold of 16 or 64
/// (`benches/moons_step.rs`).
const SIDE_BY_SIDE_MIN_TERMS: u32 = 3;

impl Program {
    /// Freezes the leaves `late` too (marked [`Value::no_grad`] after compiling): the
    /// backward pass still computes their gradients where it did (the runs and layers
    /// are planned), then sets their entries to 0 with the other frozen leaves that it
    /// writes, and the runners hand them nothing. A layer whose weights a batch defers
    /// (`defer.rs`) is deferred no more if one of them is in `late`: returns whether
    /// one was (the runners' [`Lanes`](super::Lanes) must then be made again).
    pub(crate) fn freeze(&mut self, late: &[u32]) -> bool {
        for list in [
            &mut self.frozen,
            &mut self.frozen_written,
            &mut self.frozen_late,
        ] {
            list.extend_from_slice(late);
            list.sort_unstable();
            list.dedup();
        }
        self.undefer(late)
    }

    /// Fills [`Program::run_grads`]: a run's half needs its gradients if one of its
    /// nodes is neither a frozen leaf nor the constant 1 after the root; and
    /// [`Program::frozen_written`]. Returns how many gradient contributions each node
    /// gets in a backward pass (see [`gradient_writes`](Program::gradient_writes)).
    fn plan_run_grads(&mut self) -> Vec<u32> {
        let mut needs = vec![true; self.steps.len() + 1];
        for &i in &self.frozen {
            needs[i as usize] = false;
        }
        needs[self.steps.len()] = false;
        let any = |r: std::ops::Range<usize>| needs[r].iter().any(|&n| n);
        self.run_grads = (self.runs.iter())
            .map(|r| u8::from(any(r.xs())) | (u8::from(any(r.ys())) << 1))
            .collect();
        let written = self.gradient_writes();
        self.frozen_written = (self.frozen.iter())
            .copied()
            .filter(|&i| written[i as usize] > 0)
            .collect();
        written
    }

    /// How many contributions each node's gradient gets in a backward pass: one from
    /// every half of a run the pass computes ([`Program::run_grads`]) that holds it, one
    /// for each time it is a parent of a one- or two-parent op or of a custom op.
    fn gradient_writes(&self) -> Vec<u32> {
        let mut written = vec![0u32; self.steps.len() + 1];
        for (run, &need) in self.runs.iter().zip(&self.run_grads) {
            for (bit, half) in [(1, run.xs()), (2, run.ys())] {
                if need & bit != 0 {
                    written[half].iter_mut().for_each(|w| *w += 1);
                }
            }
        }
        for (step, &[a, b]) in self.steps.iter().zip(&self.args) {
            let parents: &[u32] = match step {
                Step::Binary(_) | Step::BinaryRule(_) => &[a, b],
                Step::Unary(_) | Step::UnaryRule(_) => &[a],
                Step::Custom(_) => &self.custom_parents[a as usize..b as usize],
                Step::Leaf | Step::Dot | Step::DotThen(_) => &[],
            };
            for &p in parents {
                written[p as usize] += 1;
            }
        }
        written
    }

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
        let mut layers = self.layers.iter().peekable();
        let mut k = first;
        while k + 4 <= self.steps.len() {
            if let Some(layer) = layers.next_if(|l| l.first as usize == k) {
                k = layer.nodes().end;
                continue;
            }
            // (Four sums before the next layer.)
            let before_layer = layers.peek().is_none_or(|l| k + 4 <= l.first as usize);
            let side_by_side = before_layer
                && (k..k + 4).all(|j| {
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

    /// The step of the one- or two-parent node `node`: its op's code for the engine's
    /// own ops; for an op defined above the engine, the index of its rule in `rules`
    /// (added the first time).
    fn op_step(&mut self, node: &Node) -> Step {
        let rule = node.rule().expect("a one- or two-parent node has its rule");
        let one = matches!(rule, Rule::One(_));
        if let Some(code) = Code::of(rule) {
            return if one {
                Step::Unary(code)
            } else {
                Step::Binary(code)
            };
        }
        let r = match self.rules.iter().position(|&known| known == rule) {
            Some(r) => r,
            None => {
                self.rules.push(rule);
                self.rules.len() - 1
            }
        } as u32;
        if one {
            Step::UnaryRule(r)
        } else {
            Step::BinaryRule(r)
        }
    }

    /// Appends the closures and parents of the custom node `node`; returns its step and
    /// args.
    fn push_custom(&mut self, node: &Node, idx: impl Fn(&Value) -> u32) -> (Step, [u32; 2]) {
        let custom = node.custom().expect("a custom node has its closures");
        self.customs.push(custom.clone());
        let start = self.custom_parents.len() as u32;
        self.custom_parents.extend(node.parents().iter().map(idx));
        self.scratch = self.scratch.max(2 * node.parents().len());
        let c = (self.customs.len() - 1) as u32;
        (Step::Custom(c), [start, self.custom_parents.len() as u32])
    }

    /// Appends the term `data[x] * data[y]` to the runs of the `sum` whose runs start
    /// at `start`: if `merge`, it extends the last run when both indices follow on from
    /// it.
    fn push_term(&mut self, start: usize, x: u32, y: u32, merge: bool) {
        match self.runs[start..].last_mut() {
            Some(run) if merge && run.x + run.len == x && run.y + run.len == y => run.len += 1,
            _ => self.runs.push(Run { x, y, len: 1 }),
        }
    }
}

/// One term of a dot product: the program adds `data[x] * data[y]` (`y` `None`
/// standing for the constant 1).
struct Term {
    x: Value,
    y: Option<Value>,
    /// The node whose rule makes the term's gradient contributions in the graph.
    rule: Value,
    /// Whether `rule` makes the contributions of other terms too, one term after the
    /// other (a neuron's rule), rather than only this term's.
    shared: bool,
}

impl Term {
    /// When the graph makes this term's contributions, `j` being its position.
    fn made_at(&self, rank: impl Fn(&Value) -> u32, j: u32) -> Rank {
        Rank::of(rank(&self.rule), if self.shared { j } else { 0 })
    }
}

/// The terms the inner node `v` computes as a dot product, if it is one:
/// - a neuron ([`Value::neuron`], its parents `[b, w0, x0, ..]`): `[b, 1]`, then
///   `[wi, xi]`, all contributed by its own rule;
/// - a `sum` (or an activation of a fused one): `[a, b]` for a fused product `a * b`
///   (contributed by the product's rule), `[t, 1]` for any other term `t` (by the
///   sum's).
fn dot_terms(v: &Value, fused: &AddressSet) -> Option<Vec<Term>> {
    let node = v.node();
    if neuron_act(&node).is_some() {
        let parents = node.parent_list();
        let [b, wx @ ..] = &*parents else {
            unreachable!("a neuron node has its bias")
        };
        let term = |x: &Value, y: Option<&Value>| Term {
            x: x.clone(),
            y: y.cloned(),
            rule: v.clone(),
            shared: true,
        };
        let products = wx.chunks_exact(2).map(|p| term(&p[0], Some(&p[1])));
        return Some(std::iter::once(term(b, None)).chain(products).collect());
    }
    drop(node);
    let sum = sum_of(v, fused)?;
    let node = sum.node();
    let terms = node.parents().iter().map(|t| {
        if fused.contains(&t.address()) {
            // (A fused product's parents are `[a, b]`; `a * a` has `a` twice.)
            let factors = t.node().parent_list().into_owned();
            Term {
                x: factors[0].clone(),
                y: Some(factors[1].clone()),
                rule: t.clone(),
                shared: false,
            }
        } else {
            Term {
                x: t.clone(),
                y: None,
                rule: sum.clone(),
                shared: false,
            }
        }
    });
    Some(terms.collect())
}

/// The operands the program reads for an inner node: its parents, or for a dot
/// product (a neuron, a `sum` or an activation of a fused one) the factors of its
/// terms: the first factors of its products, then its other terms, then the products'
/// second factors (the order [`leaves_by_first_use`] stores leaves in).
fn operands(v: &Value, fused: &AddressSet) -> Vec<Value> {
    let Some(terms) = dot_terms(v, fused) else {
        return v.node().parent_list().into_owned();
    };
    let products = terms.iter().filter(|t| t.y.is_some());
    let others = terms.iter().filter(|t| t.y.is_none());
    let firsts = products.clone().chain(others).map(|t| t.x.clone());
    firsts.chain(products.filter_map(|t| t.y.clone())).collect()
}

/// The depth of each of the inner nodes `inner` (in a topological order): a leaf has
/// depth 0, an inner node one more than its deepest operand. Sums of the same depth
/// next to each other (one layer of a network) can be computed together.
fn depths(inner: &[Value], fused: &AddressSet) -> Vec<u32> {
    let mut depth: AddressMap<u32> = AddressMap::default();
    for v in inner {
        let deepest = operands(v, fused)
            .iter()
            .map(|p| depth.get(&p.address()).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        depth.insert(v.address(), deepest + 1);
    }
    inner.iter().map(|v| depth[&v.address()]).collect()
}

/// The leaves in the order the inner nodes first read them, a `sum` reading the first
/// factors of its products, then its other terms, then the products' second factors. A
/// neuron `sum(b, w0*x0, w1*x1, ..)` thus places `w0, w1, .., b` next to each other, then
/// its inputs `x0, x1, ..`: its terms become contiguous runs, and its parameters are
/// leaves in the order of `Neuron.parameters()` (`self.w + [self.b]`), so that an
/// optimiser's step moves a layer's numbers to and from the tape as one slice.
fn leaves_by_first_use(inner: &[Value], fused: &AddressSet) -> Vec<Value> {
    let mut seen = AddressSet::default();
    let mut leaves = Vec::new();
    for v in inner {
        for p in operands(v, fused) {
            if p.node().is_leaf() && seen.insert(p.address()) {
                leaves.push(p);
            }
        }
    }
    leaves
}

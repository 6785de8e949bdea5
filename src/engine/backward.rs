//! `backward()`: reverse-mode differentiation over the graph, without recursion.
//!
//! Python's `backward` builds a topological order with a recursive DFS (`build_topo`),
//! then runs `_backward` on each node in reverse. Recursion dies at depth ~1000 in
//! Python, and an explicit list of all nodes costs 8 bytes a node plus the DFS stack.
//! Here two sweeps with an explicit stack do the same job:
//!
//! 1. a depth-first sweep from the root counts, for each node, how many consumers it has
//!    inside this graph (`pending`);
//! 2. a second sweep seeds `root.grad = 1` and runs a node's backward rule only once all
//!    of its consumers have run theirs (their `pending` count reached 0), which is
//!    exactly reverse topological order (Kahn's algorithm).
//!
//! Both sweeps are linear in the size of the graph, and the stacks only ever hold the
//! frontier of the walk, so a chain of millions of nodes needs almost no extra memory.
//!
//! The first sweep is only needed for a node with more than one consumer. A node held
//! by nothing but the one node that has it as a parent (`Rc::strong_count` 1) would get
//! the count 1, and is ready as soon as that consumer has run. So `backward()` starts
//! with the second sweep alone, and counts (sweep 1, over what is still to run) only
//! when it meets a node with more handles than that: a chain or a tree, such as
//! `y = y * 1.0` a million times, runs in one sweep, in the same order. (`try_backward`
//! always counts first: it checks every forward value before any rule runs.)

use std::rc::Rc;

use super::neuron::NeuronInputs;
use super::op::Op;
use super::value::{Node, Parents, Side, Value, Walk};
use crate::error::{Error, Pass};

impl Value {
    /// Computes the gradient of this value with respect to every value it was computed
    /// from: Python's `backward()`.
    ///
    /// Sets this value's grad to 1, then runs each node's backward rule once, in reverse
    /// topological order, *adding* into each grad (`grad += ...`), as micrograd does.
    ///
    /// **A second call** on the same graph adds again, and the inner nodes also kept
    /// their grads from the first call, so the leaves get more than twice the first
    /// gradient. For graphs of `+`, `*`, `powf` (Python's `**`) and `relu` the numbers
    /// are Python's: `y = (x * 2) * 5` gives x.grad 10 after one call and 30 after two
    /// in both. For `-` and `/` they are not: Python builds `a - b` as `a + (b * -1)` and
    /// `a / b` as `a * b**-1`, and those hidden nodes keep their grads too, while here
    /// each is one node. With a = 3, b = 2, two `backward()` calls give
    ///
    /// | expression | Python micrograd 0.1.0 (a.grad, b.grad) | here |
    /// |------------|-----------------------------------------|------|
    /// | `a - b` | 2, -3 | 2, -2 |
    /// | `a / b` | 1.0, -2.25 | 1.0, -1.5 |
    ///
    /// (Python's numbers: `scripts/ci/python_reference.py`, lines `twice_sub` and
    /// `twice_div` of `scripts/ci/python_reference.out`; after one call both agree:
    /// 1, -1 and 0.5, -0.75.) A second `backward()` without a reset is rarely what you
    /// want: to reuse a graph, reset it first with
    /// [`zero_grad_graph`](Value::zero_grad_graph); in training, build a new graph each
    /// step and zero the parameters' grads (`Module::zero_grad`), as micrograd's demo does.
    ///
    /// ```
    /// use micrograd::Value;
    /// let (a, b) = (Value::new(3.0), Value::new(2.0));
    /// let y = &a - &b;
    /// y.backward();
    /// y.backward();
    /// assert_eq!((a.grad(), b.grad()), (2.0, -2.0));   // Python: 2, -3
    /// let (a, b) = (Value::new(3.0), Value::new(2.0));
    /// let y = &a / &b;
    /// y.backward();
    /// y.backward();
    /// assert_eq!((a.grad(), b.grad()), (1.0, -1.5));   // Python: 1.0, -2.25
    /// ```
    ///
    /// NaN and infinities spread silently, as with `f64`; use
    /// [`try_backward`](Value::try_backward) to have them reported.
    ///
    /// ```
    /// use micrograd::Value;
    /// let x = Value::new(-4.0);
    /// let y = (&x * 2.0 + 2.0 + &x).relu();   // unused in the gradient: relu'(<0) = 0
    /// let z = &x * &x + &y;                   // dz/dx = 2x = -8
    /// z.backward();
    /// assert_eq!(x.grad(), -8.0);
    /// z.zero_grad_graph();
    /// z.backward();                           // same result again after a reset
    /// assert_eq!(x.grad(), -8.0);
    /// ```
    pub fn backward(&self) {
        // Without checking, no error can arise.
        let _ = self.run_backward(false);
    }

    /// [`backward`](Value::backward) with anomaly detection: stops at the first NaN or
    /// infinity and returns [`Error::NonFinite`] naming the op and label that produced it.
    ///
    /// It reports what reaches a value you hold. The constants the engine makes for `f64`
    /// operands (the `0.0` in `0.0 * &big`) are leaves no one else holds, so their
    /// gradients are computed (as in Python) but not checked: with `big = 1e150`,
    /// `(0.0 * &big) * &big * &big` leaves `∞` on that `0.0` and finite gradients on
    /// `big` and every node you can reach, and is no error. A non-finite gradient on
    /// any other node always spreads to the leaves under it (`∞ · 0` is NaN), so
    /// nothing else is skipped.
    ///
    /// Before any gradient is touched, the forward values are checked: a non-finite value
    /// computed from finite parents (or a non-finite leaf) is reported as made in the
    /// forward pass, and no backward rule runs. During the backward pass, the first rule
    /// that leaves a non-finite grad on a parent is reported and no further rule runs.
    ///
    /// ```
    /// use micrograd::{Error, Value};
    /// let x = Value::new(-1.0).with_label("x");
    /// let y = x.ln().with_label("y");          // ln(-1) = NaN
    /// let err = (&y * 2.0).try_backward().unwrap_err();
    /// assert!(matches!(err, Error::NonFinite { op: "ln", .. }));
    /// assert!(err.to_string().contains("`ln`"));
    /// assert_eq!(x.grad(), 0.0);               // nothing was spread
    /// ```
    pub fn try_backward(&self) -> Result<(), Error> {
        self.run_backward(true)
    }

    fn run_backward(&self, check: bool) -> Result<(), Error> {
        // (Declared first, so dropped last: after the sweeps' borrows are released.)
        let _counts = ResetOnUnwind(self);
        // Python's `self.grad = 1`, then `for v in reversed(topo): v._backward()`.
        self.0.borrow_mut().grad = 1.0;
        let mut stack = vec![self.clone()];
        let mut error = None;
        if check {
            // (Every forward value is checked before any rule runs.)
            error = count_consumers(stack.clone(), None, true);
        } else if let Some((value, i)) = run_tree(&mut stack) {
            // A value with more than one consumer: from here on, the rules wait for
            // their counts (the rest of the graph is under the values still to run).
            let node = value.node();
            let rest = Rest::after(&node, i);
            let _ = count_consumers(stack.clone(), Some(rest), false);
            rest.release(&mut stack);
        } else {
            return Ok(());
        }
        run_counted(&mut stack, check, &mut error);
        error.map_or(Ok(()), Err)
    }

    /// Runs this node's own backward rule once, and nothing else: adds
    /// `d self / d parent * self.grad` to each parent's grad (Python's `o._backward()`).
    /// A leaf has no rule: nothing happens.
    ///
    /// With [`set_grad`](Value::set_grad) and [`topo`](Value::topo), this is
    /// backpropagation by hand, as in the lecture: seed the output's grad with 1, then
    /// call `backward_step` on each node from the output down. [`backward`](Value::backward)
    /// does exactly that (`self.grad = 1; for v in reversed(topo): v._backward()`).
    ///
    /// ```
    /// use micrograd::Value;
    /// // Python: a = Value(2.0); b = Value(-3.0); c = Value(10.0); e = a*b; d = e + c
    /// let (a, b, c) = (Value::new(2.0), Value::new(-3.0), Value::new(10.0));
    /// let e = &a * &b;
    /// let d = &e + &c;
    /// d.set_grad(1.0);          // d.grad = 1.0
    /// d.backward_step();        // d._backward(): e.grad += 1.0, c.grad += 1.0
    /// assert_eq!((e.grad(), c.grad(), a.grad()), (1.0, 1.0, 0.0));
    /// e.backward_step();        // e._backward(): a.grad += b.data * e.grad, ...
    /// assert_eq!((a.grad(), b.grad()), (-3.0, 2.0));
    /// ```
    pub fn backward_step(&self) {
        run_rule(&self.node());
    }

    /// Sets the grad of this value and of every value it was computed from to 0, so
    /// that the same graph can be differentiated again.
    ///
    /// ```
    /// use micrograd::Value;
    /// let x = Value::new(3.0);
    /// let y = &x * &x;
    /// y.backward();
    /// y.zero_grad_graph();
    /// assert_eq!((x.grad(), y.grad()), (0.0, 0.0));
    /// ```
    pub fn zero_grad_graph(&self) {
        super::walk::for_each_node(self, |v| v.zero_grad());
    }
}

/// Puts every consumer count under its root back to 0 if a rule panics (a
/// [`Value::custom`] op's `local_grads`, say) and the caller catches the panic: the sweeps
/// leave a count at 0 only when they finish, and a count left half-way would make the
/// node wait, in every later pass, for a consumer that already ran, so that its rule and
/// everything under it would never run again. Gradients added before the panic stay, as
/// after any interrupted pass; call [`Value::zero_grad_graph`] to start again.
struct ResetOnUnwind<'a>(&'a Value);

impl Drop for ResetOnUnwind<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            reset_counts(self.0);
        }
    }
}

/// Sets the count of every node under `root` (and of every shared list of inputs) to 0,
/// reading each node's parents as `backward()` does. A node still borrowed is skipped
/// (a panic while unwinding would abort): none is, once the sweeps have unwound.
fn reset_counts(root: &Value) {
    let mut seen = super::address::AddressSet::default();
    let mut stack = vec![root.clone()];
    while let Some(value) = stack.pop() {
        let Ok(mut node) = value.0.try_borrow_mut() else {
            continue;
        };
        node.pending = 0;
        if let Parents::Neuron(_, inputs) = &*node.parents {
            inputs.pending.set(0);
        }
        let unseen = node.parents.all().filter(|p| seen.insert(p.address()));
        stack.extend(unseen.cloned());
    }
}

/// Runs the rule of each value on `stack` and of everything under it, in Kahn's order,
/// while every value reached has one consumer and no other handle (`Rc::strong_count`
/// is 1, and the node holding it does not share the list it is in: that node is its only
/// consumer, so its count in the first sweep would be 1, and it is ready as soon as that
/// consumer has run). No count
/// is needed, so no first sweep: a chain or a tree runs in one. Leaves need nothing
/// (one held only here is pushed and does nothing when popped). Returns the node whose
/// parent `i` is the first value with more than one handle, after its own rule and its
/// parents before `i` were handled; `None` once everything ran.
fn run_tree(stack: &mut Vec<Value>) -> Option<(Value, usize)> {
    let mut next = stack.pop();
    while let Some(value) = next {
        let node = value.node();
        run_rule(&node);
        let mut carried = None;
        let shared = match &*node.parents {
            // (A chain's link: its parent is carried to the next turn, not pushed.)
            Parents::One([parent]) | Parents::Constant([parent], _, _) => {
                if Rc::strong_count(&parent.0) == 1 {
                    carried = Some(parent.clone());
                    None
                } else {
                    (parent.node().op != Op::Leaf).then_some(0)
                }
            }
            // (A list of parents shared with other nodes, a layer's inputs, gives each
            // of its values one consumer per node holding it: those are counted.)
            Parents::Neuron(..) => {
                let own = !node.parents.shares_walked_lists();
                push_single(node.parents.walked(), own, stack)
            }
            // (The plain list, without the neuron's iterator: fewer instructions a
            // link on a chain.)
            parents => push_single(parents.as_slice().iter(), true, stack),
        };
        if let Some(i) = shared {
            drop(node);
            return Some((value, i));
        }
        next = carried.or_else(|| stack.pop());
    }
    None
}

/// Pushes each of `parents` held only here (if the list is the node's `own`), until one
/// that is not a leaf and may have other consumers: returns its position then.
#[inline]
fn push_single<'a>(
    parents: impl Iterator<Item = &'a Value>,
    own: bool,
    stack: &mut Vec<Value>,
) -> Option<usize> {
    for (i, parent) in parents.enumerate() {
        if own && Rc::strong_count(&parent.0) == 1 {
            stack.push(parent.clone());
        } else if parent.node().op != Op::Leaf {
            return Some(i);
        }
    }
    None
}

/// The parents of a node whose counts its rule lowers (or, for the node where
/// [`run_tree`] stopped, has yet to lower).
#[derive(Clone, Copy)]
enum Rest<'a> {
    /// Its parents one by one, from the `i`-th of [`Parents::walked`] on (of
    /// [`Parents::all`] with `check`).
    Edges(&'a Parents, usize, bool),
    /// A neuron's inputs, a list that counts as one consumer of each value in it,
    /// however many nodes share it (a layer's neurons): the nodes holding it lower the
    /// list's own count, and the last of them its values' (see [`NeuronInputs`]).
    List(&'a NeuronInputs),
}

impl<'a> Rest<'a> {
    /// All of `node`'s parents the sweeps visit: a neuron whose parameters are all
    /// leaves has only its inputs list (not in `check`'s sweeps, which visit everything).
    fn all(node: &'a Node, check: bool) -> Rest<'a> {
        match &*node.parents {
            Parents::Neuron(params, inputs) if params.leaves && !check => Rest::List(inputs),
            parents => Rest::Edges(parents, 0, check),
        }
    }

    /// The parents of `node` from the `i`-th of [`Parents::walked`] on, where
    /// [`run_tree`] stopped: the inputs list if it is shared (the values before `i`
    /// are leaves then, which no one waits for), else the values one by one.
    fn after(node: &'a Node, i: usize) -> Rest<'a> {
        match &*node.parents {
            Parents::Neuron(params, inputs) if params.leaves && Rc::strong_count(inputs) > 1 => {
                Rest::List(inputs)
            }
            parents => Rest::Edges(parents, i, false),
        }
    }

    /// Counts one more consumer of each of these parents (`count` for each value).
    fn count(self, count: impl FnMut(&'a Value)) {
        match self {
            Rest::Edges(parents, i, check) => swept(parents, check).skip(i).for_each(count),
            Rest::List(list) => {
                list.pending.set(list.pending.get() + 1);
                if list.pending.get() == 1 {
                    list.values.iter().for_each(count);
                }
            }
        }
    }

    /// One consumer of each of these parents has run: lowers their counts, and pushes
    /// those whose last consumer that was.
    fn release(self, stack: &mut Vec<Value>) {
        match self {
            Rest::Edges(parents, i, check) => release(swept(parents, check).skip(i), stack),
            Rest::List(list) => {
                list.pending.set(list.pending.get() - 1);
                if list.pending.get() == 0 {
                    release(list.values.iter(), stack);
                }
            }
        }
    }
}

/// Sweep 1: counts each node's consumers (`pending`) among the values on `stack`, the
/// values under them, and `rest` (the parents of a node whose counts its rule has yet
/// to lower). A node is expanded the first time it is reached (its count goes from 0
/// to 1). With `check`, returns the first forward value that is not finite although
/// its parents are (see [`Value::try_backward`]).
fn count_consumers(mut stack: Vec<Value>, rest: Option<Rest<'_>>, check: bool) -> Option<Error> {
    let mut error = None;
    let count = |parent: &Value, stack: &mut Vec<Value>, error: &mut Option<Error>| {
        let mut p = parent.0.borrow_mut();
        p.pending += 1;
        if p.pending == 1 {
            if p.op != Op::Leaf {
                stack.push(parent.clone());
            } else if check && error.is_none() {
                // (A leaf has nothing to visit: checked here, not pushed.)
                *error = forward_anomaly(&p);
            }
        }
    };
    if let Some(rest) = rest {
        rest.count(|parent| count(parent, &mut stack, &mut error));
    }
    while let Some(value) = stack.pop() {
        let node = value.node();
        if check && error.is_none() {
            error = forward_anomaly(&node);
            // (A constant operand is checked where Python's leaf for it would be.)
            if let (None, Some((c, Side::Left))) = (&error, node.parents.constant()) {
                error = constant_anomaly(c);
            }
        }
        Rest::all(&node, check).count(|parent| count(parent, &mut stack, &mut error));
        if let (true, None, Some((c, Side::Right))) = (check, &error, node.parents.constant()) {
            error = constant_anomaly(c);
        }
    }
    error
}

/// Sweep 2 (Kahn's algorithm): runs the rule of each value on `stack`, a node's once its
/// last consumer has run (its count reached 0). After an error the sweep still finishes
/// (without running rules) so that every count is back to 0; with `check`, the first
/// rule that leaves a non-finite gradient is the error.
fn run_counted(stack: &mut Vec<Value>, check: bool, error: &mut Option<Error>) {
    while let Some(value) = stack.pop() {
        let node = value.node();
        if error.is_none() {
            run_rule(&node);
            if check {
                *error = backward_anomaly(&node);
            }
        }
        Rest::all(&node, check).release(stack);
    }
}

/// The parents the sweeps visit: [`Parents::walked`](super::value::Parents::walked), or
/// with `check` every parent (each leaf is checked at its place in Python's order).
fn swept(parents: &Parents, check: bool) -> Walk<'_> {
    match check {
        true => parents.all(),
        false => parents.walked(),
    }
}

/// One consumer of each of `parents` has run: lowers their counts, and pushes those
/// whose last consumer that was. (A leaf has no rule and no parents: nothing to run.)
fn release<'a>(parents: impl Iterator<Item = &'a Value>, stack: &mut Vec<Value>) {
    for parent in parents {
        let mut p = parent.0.borrow_mut();
        p.pending -= 1;
        if p.pending == 0 && p.op != Op::Leaf {
            stack.push(parent.clone());
        }
    }
}

/// Runs a node's rule (Python's `_backward()`), unless it needs no gradient (then it
/// has nothing to pass on) or is a leaf.
#[inline]
fn run_rule(node: &Node) {
    if let (Some(rule), true) = (&node.backward, node.requires_grad) {
        rule(node);
    }
}

/// The error for a node whose forward value is not finite although its parents are.
fn forward_anomaly(node: &Node) -> Option<Error> {
    let made_here = !node.data.is_finite()
        && node.parents.all().all(|p| p.stored_data().is_finite())
        && node.parents.constant().is_none_or(|(c, _)| c.is_finite());
    made_here.then(|| Error::NonFinite {
        pass: Pass::Forward,
        op: node.op_name(),
        label: node.label().map(str::to_owned),
        value: node.data,
    })
}

/// The error for a constant operand (`&x * f64::NAN`) that is not finite: what
/// [`forward_anomaly`] reports for Python's leaf holding it.
fn constant_anomaly(c: f64) -> Option<Error> {
    (!c.is_finite()).then_some(Error::NonFinite {
        pass: Pass::Forward,
        op: Op::Leaf.symbol(),
        label: None,
        value: c,
    })
}

/// The error for a backward rule that just left a non-finite grad on a parent, unless
/// that parent is a hidden constant (see [`try_backward`](Value::try_backward)).
fn backward_anomaly(node: &Node) -> Option<Error> {
    let bad = node
        .parents
        .all()
        .filter(|p| !p.node().hidden)
        .map(Value::grad)
        .find(|g| !g.is_finite())?;
    Some(Error::NonFinite {
        pass: Pass::Backward,
        op: node.op_name(),
        label: node.label().map(str::to_owned),
        value: bad,
    })
}

#[cfg(test)]
mod tests {
    use std::cell::RefCell;

    use std::rc::Rc;

    use crate::engine::address::AddressMap;
    use crate::engine::neuron::{NeuronInputs, NeuronParams};
    use crate::engine::op::{Act, Op};
    use crate::engine::walk::backward_order;
    use crate::Value;

    thread_local! {
        /// The ids of the nodes whose rules ran, in order.
        static RAN: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    }

    /// A node that notes its id when its rule runs.
    fn noted(id: usize, parents: &[&Value]) -> Value {
        let forward = |p: &[f64]| p.iter().sum();
        let rule = move |_: &[f64], _: f64, d: &mut [f64]| {
            d.fill(1.0 + 0.1 * id as f64);
            RAN.with(|r| r.borrow_mut().push(id));
        };
        Value::custom("noted", parents, forward, rule)
    }

    /// A xorshift generator.
    struct Xorshift(u64);

    impl Xorshift {
        /// A number in `0..n`.
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    /// A random graph: "noted" nodes (ids 0, 1, ...) over leaves and earlier nodes,
    /// now and then a layer of neurons sharing one list of inputs, a few handles kept
    /// (as a user's variables). The same `seed` builds the same graph.
    struct Graph {
        root: Value,
        leaves: Vec<Value>,
        kept: Vec<Value>,
        ids: AddressMap<usize>,
        /// Whether every inner node reached has one consumer: noted nodes only, no
        /// handle kept, each used once.
        tree: bool,
    }

    fn random_graph(seed: u64) -> Graph {
        let mut rng = Xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut next = |n: usize| rng.below(n);
        let mut leaves: Vec<Value> = (0..1 + next(3)).map(|_| Value::new(1.0)).collect();
        let mut nodes = leaves.clone();
        let mut ids: AddressMap<usize> = AddressMap::default();
        let mut uses = Vec::new(); // (node, parent) positions in `nodes` of the edges
        let mut layers = false;
        for id in 0..1 + next(30) {
            // Mostly the last node or the one before (chains), else any.
            let pick = |nodes: &[Value], next: &mut dyn FnMut(usize) -> usize| {
                let last = nodes.len() - 1;
                [last, last, next(nodes.len()), last.saturating_sub(1)][next(4)]
            };
            if next(20) == 0 {
                // A layer: 1 to 3 neurons on one shared list of 1 to 3 inputs, their
                // weights new leaves (or now and then a node of the graph).
                layers = true;
                let inputs: Vec<Value> = (0..1 + next(3))
                    .map(|_| nodes[pick(&nodes, &mut next)].clone())
                    .collect();
                let inputs = NeuronInputs::new(inputs);
                for k in 0..1 + next(3) {
                    let b = Value::new(0.25 * k as f64);
                    let w: Vec<Value> = (0..inputs.values.len())
                        .map(|j| match next(4) {
                            0 => nodes[pick(&nodes, &mut next)].clone(),
                            _ => Value::new(0.5 - 0.375 * j as f64),
                        })
                        .collect();
                    leaves.push(b.clone());
                    leaves.extend(w.iter().filter(|v| v.node().op == Op::Leaf).cloned());
                    let params = Rc::new(NeuronParams::new(&b, &w));
                    let neuron = Value::neuron_node(&params, &inputs, Act::Linear);
                    nodes.push(neuron.expect("as many weights as inputs"));
                }
            }
            let mut parents = Vec::new();
            for _ in 0..1 + next(3) {
                let p = pick(&nodes, &mut next);
                parents.push(nodes[p].clone());
                uses.push((nodes.len(), p));
            }
            let node = noted(id, &parents.iter().collect::<Vec<_>>());
            ids.insert(node.address(), id);
            nodes.push(node);
        }
        let root = nodes.pop().expect("a node");
        let n = nodes.len();
        let once = |i: usize| uses.iter().filter(|&&(_, p)| p == i).count() == 1;
        let keep = next(2) == 0;
        let kept: Vec<Value> = nodes.into_iter().filter(|_| keep && next(8) == 0).collect();
        // (Over all nodes made; one that nothing uses is dropped, not reached.)
        let unused = |i: usize| uses.iter().all(|&(_, p)| p != i);
        let reached_once = (leaves.len()..n).all(|i| once(i) || unused(i));
        let tree = !layers && kept.is_empty() && reached_once;
        Graph {
            root,
            leaves,
            kept,
            ids,
            tree,
        }
    }

    // for v in reversed(topo): v._backward()   -- backward() runs the rules in the one
    // order the tape and the stepper follow (`backward_order`), whether it needs to
    // count consumers or not: chains, trees, shared nodes, a parent twice, handles
    // kept, layers sharing their inputs; and so gives try_backward's gradients
    #[test]
    fn backward_runs_the_rules_in_backward_order_with_or_without_counting() {
        let (mut trees, mut others) = (0, 0);
        let ran = || RAN.with(|r| r.borrow_mut().split_off(0));
        let grads = |g: &Graph| {
            g.leaves
                .iter()
                .map(|l| l.grad().to_bits())
                .collect::<Vec<_>>()
        };
        for seed in 0..400 {
            // The order and gradients with counting first, on Python's graph (expanded).
            let counted = random_graph(seed);
            let expected: Vec<usize> = (backward_order(&counted.root).iter())
                .filter_map(|v| counted.ids.get(&v.address()).copied())
                .collect();
            let _ = ran();
            counted.root.try_backward().expect("finite");
            assert_eq!(ran(), expected, "seed {seed}: try_backward");
            // The same graph built again, its compact nodes as they are.
            let fresh = random_graph(seed);
            fresh.root.backward();
            assert_eq!(ran(), expected, "seed {seed}: backward");
            assert_eq!(grads(&fresh), grads(&counted), "seed {seed}: grads");
            (trees, others) = (
                trees + usize::from(fresh.tree),
                others + usize::from(!fresh.tree),
            );
            drop((counted.kept, fresh.kept));
        }
        assert!(
            trees >= 10 && others >= 100,
            "{trees} trees, {others} others"
        );
    }
}

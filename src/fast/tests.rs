//! The compact forms against Python's order: `backward()` over graphs holding neuron
//! nodes (their parameters and inputs in lists shared with other nodes) runs the same
//! rules in the same order as over Python's graph.

use std::cell::RefCell;

use std::rc::Rc;

use crate::address::AddressMap;
use crate::engine::parents::Parents;
use crate::fast::Act;
use crate::fast::{NeuronInputs, NeuronParams};
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
}

fn random_graph(seed: u64) -> Graph {
    let mut rng = Xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let mut next = |n: usize| rng.below(n);
    let mut leaves: Vec<Value> = (0..1 + next(3)).map(|_| Value::new(1.0)).collect();
    let mut nodes = leaves.clone();
    let mut ids: AddressMap<usize> = AddressMap::default();
    for id in 0..1 + next(30) {
        // Mostly the last node or the one before (chains), else any.
        let pick = |nodes: &[Value], next: &mut dyn FnMut(usize) -> usize| {
            let last = nodes.len() - 1;
            [last, last, next(nodes.len()), last.saturating_sub(1)][next(4)]
        };
        if next(20) == 0 {
            // A layer: 1 to 3 neurons on one shared list of 1 to 3 inputs, their
            // weights new leaves (or now and then a node of the graph).
            let inputs: Vec<Value> = (0..1 + next(3))
                .map(|_| nodes[pick(&nodes, &mut next)].clone())
                .collect();
            let inputs = NeuronInputs::new(inputs);
            for k in 0..1 + next(3) {
                let b = Value::new(0.25 * k as f64);
                let w: Vec<Value> = (0..inputs.values().len())
                    .map(|j| match next(4) {
                        0 => nodes[pick(&nodes, &mut next)].clone(),
                        _ => Value::new(0.5 - 0.375 * j as f64),
                    })
                    .collect();
                leaves.push(b.clone());
                leaves.extend(w.iter().filter(|v| v.node().is_leaf()).cloned());
                let params = Rc::new(NeuronParams::new(&b, &w));
                let neuron = Value::neuron_node(&params, &inputs, Act::Linear);
                nodes.push(neuron.expect("as many weights as inputs"));
            }
        }
        let mut parents = Vec::new();
        for _ in 0..1 + next(3) {
            let p = pick(&nodes, &mut next);
            parents.push(nodes[p].clone());
        }
        let node = noted(id, &parents.iter().collect::<Vec<_>>());
        ids.insert(node.address(), id);
        nodes.push(node);
    }
    let root = nodes.pop().expect("a node");
    let keep = next(2) == 0;
    let kept: Vec<Value> = nodes.into_iter().filter(|_| keep && next(8) == 0).collect();
    Graph {
        root,
        leaves,
        kept,
        ids,
    }
}

// self.grad = 1; for v in reversed(topo): v._backward()   -- on chains, shared
// nodes, a parent twice, handles kept, layers sharing their inputs; and try_backward
// runs the same rules in the same order, so gives the same gradients
#[test]
fn backward_runs_the_rules_in_reversed_topo_order() {
    let ran = || RAN.with(|r| r.borrow_mut().split_off(0));
    let grads = |g: &Graph| {
        g.leaves
            .iter()
            .map(|l| l.grad().to_bits())
            .collect::<Vec<_>>()
    };
    for seed in 0..400 {
        // Python's order, from `topo()` on Python's graph.
        let checked = random_graph(seed);
        let expected: Vec<usize> = (checked.root.topo().iter().rev())
            .filter_map(|v| checked.ids.get(&v.address()).copied())
            .collect();
        let _ = ran();
        checked.root.try_backward().expect("finite");
        assert_eq!(ran(), expected, "seed {seed}: try_backward");
        // The same graph built again, its compact nodes as they are.
        let fresh = random_graph(seed);
        fresh.root.backward();
        assert_eq!(ran(), expected, "seed {seed}: backward");
        assert_eq!(grads(&fresh), grads(&checked), "seed {seed}: grads");
        // A second pass finds every node unmarked: the same order again.
        fresh.root.backward();
        assert_eq!(ran(), expected, "seed {seed}: a second backward");
        drop((checked.kept, fresh.kept));
    }
}

/// Reading a graph leaves a neuron node as it is: its parents, listed for the reader as
/// Python's `[b, w0, x0, w1, x1]`, stay the two shared lists in the node.
#[test]
fn reading_a_graph_leaves_a_neuron_node_as_it_is() {
    let (b, w, x) = (
        Value::new(0.5),
        [Value::new(2.0), Value::new(-1.0)],
        [Value::new(3.0), Value::new(4.0)],
    );
    let params = Rc::new(NeuronParams::new(&b, &w));
    let y = Value::neuron_node(&params, &NeuronInputs::new(x.to_vec()), Act::Tanh).unwrap();
    let listed = [&b, &w[0], &x[0], &w[1], &x[1]];
    let is_python_order = |p: Vec<Value>| p.iter().zip(listed).all(|(p, q)| Value::ptr_eq(p, q));
    assert!(is_python_order(y.parents()));
    let _ = (
        y.topo(),
        y.to_dot(),
        crate::tape::Tape::compile(&y).unwrap(),
    );
    assert!(is_python_order(y.parents()));
    // (Its own parents are still the two lists, of the parameters and of the inputs.)
    assert_eq!(y.node().parents().len(), 2);
    assert_eq!(crate::fast::neuron_act(&y.node()), Some(Act::Tanh));
}

/// Reading a graph leaves a node that keeps an `f64` operand as it is (one parent, the
/// number kept), and shows the same leaf for the number at every read, kept beside the
/// graph until the node is freed.
#[test]
fn reading_a_graph_leaves_a_constant_node_as_it_is() {
    let x = Value::new(3.0);
    let y = &x * 2.0;
    let compact = |v: &Value| matches!(*v.node().parents, Parents::Constant(..));
    assert!(y.try_backward().is_ok());
    let two = y.parents()[1].clone();
    let _ = (
        y.topo(),
        y.to_dot(),
        crate::tape::Tape::compile(&y).unwrap(),
    );
    assert!(compact(&y) && y.node().parents().len() == 1);
    assert!(Value::ptr_eq(&two, &y.parents()[1]) && Value::ptr_eq(&two, &y.topo()[1]));
    assert_eq!(super::shown::count(), 1);
    // (Freeing the node frees what was kept for it: the reader's handle is the last.)
    drop(y);
    assert_eq!(super::shown::count(), 0);
    assert_eq!(Rc::strong_count(&two.0), 1);
}

/// `try_backward` checks an `f64` operand where Python's walk meets its leaf, and shows
/// no leaf for it.
#[test]
fn try_backward_shows_no_leaf() {
    let x = Value::new(3.0);
    let y = 2.0 * &x + 1.0;
    assert!(y.try_backward().is_ok());
    assert_eq!(x.grad(), 2.0);
    assert_eq!(super::shown::count(), 0);
}

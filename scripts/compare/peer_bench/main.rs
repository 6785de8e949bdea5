//! micrograd (this crate) side by side with the index-arena peer
//! `mickvangelderen/micrograd-rs`, in one process, the runs interleaved.
//!
//! Built and run by `scripts/compare/peer.sh PEER_CHECKOUT`, which makes a throwaway
//! cargo project depending on both crates by path. The peer's side is written here
//! with the peer's public API (`Operations`, `Values`, `Gradients`); none of its code
//! is copied.
//!
//! 1. micrograd's demo step (moons100, MLP 2-16-16-1, SVM hinge loss + 1e-4 L2, SGD with
//!    the notebook's learning rate `1.0 - 0.9 k / 100`), each engine training its own
//!    copy of the same model (`random.seed(1337)`), step by step in turn:
//!    - the peer, its graph built every step and dropped at the end of the step;
//!    - this crate's dynamic graph, built every step and dropped at the end of the step;
//!    - the peer, its graph built once, then forward + backward + update per step;
//!    - this crate's tape, compiled once, then forward + backward + update per step.
//!
//!    The losses are checked to agree at every step (this crate's two engines bit for
//!    bit; the peer to 1e-9 relative, and the program says how many steps were equal
//!    bit for bit).
//! 2. The chain `y = y * 1.0` of N links: build, backward, drop, per link; the peer, this
//!    crate, and the floor under any engine of this crate's design (`floor_chain`).
//!
//! Usage: peer_bench [STEPS (100)] [CHAIN_LINKS (1000000)] [CHAIN_ROUNDS (5)]

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use micrograd::data::{moons100, Dataset};
use micrograd::loss::{l2, svm_hinge};
use micrograd::optim::Schedule;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;
use micrograd_rs::engine::{Gradients, NodeId, Operations, Values};

const ALPHA: f64 = 1e-4;
const WIDTHS: [usize; 4] = [2, 16, 16, 1];

fn model() -> MLP {
    MLP::new(2, &WIDTHS[1..], &mut PythonRandom::seed(1337))
}

/// The notebook's loss in this crate: `svm_hinge(model(X)) + l2(params, 1e-4)`.
fn notebook_loss(model: &MLP, data: &Dataset) -> Value {
    let scores: Vec<Value> = data
        .inputs
        .iter()
        .map(|x| model.forward_f64(x).expect("2 inputs").remove(0))
        .collect();
    svm_hinge(&scores, &data.labels).expect("labels -1, 1") + l2(&model.parameters(), ALPHA)
}

/// The notebook's loss as a graph of the peer: the same operations in the same order
/// (each neuron `b + w0*x0 + w1*x1 + ..` left to right, then its ReLU; per point
/// `relu(score * (-y) + 1)`; their sum times `1/n`; plus `(sum of p*p) * alpha`).
/// The peer has no constants: each number is a variable whose value is set before the
/// forward pass.
struct PeerGraph {
    ops: Operations,
    /// The parameters' variables, in `MLP::parameters()` order.
    params: Vec<NodeId>,
    /// Every other variable and its value (inputs and constants).
    fixed: Vec<(NodeId, f64)>,
    loss: NodeId,
}

impl PeerGraph {
    fn build(data: &Dataset) -> PeerGraph {
        let mut ops = Operations::default();
        let nparams: usize = WIDTHS.windows(2).map(|w| w[1] * (w[0] + 1)).sum();
        let params = ops.vars_vec(nparams);
        let mut fixed = Vec::new();
        let mut constant = |ops: &mut Operations, v: f64| {
            let id = ops.var();
            fixed.push((id, v));
            id
        };
        let (one, scale) = (
            constant(&mut ops, 1.0),
            constant(&mut ops, 1.0 / data.len() as f64),
        );
        let alpha = constant(&mut ops, ALPHA);
        let mut losses = Vec::with_capacity(data.len());
        for (x, &y) in data.inputs.iter().zip(&data.labels) {
            let mut acts: Vec<NodeId> = x.iter().map(|&xi| constant(&mut ops, xi)).collect();
            let mut p = params.iter().copied();
            for (l, w) in WIDTHS.windows(2).enumerate() {
                acts = (0..w[1])
                    .map(|_| {
                        let weights: Vec<NodeId> = p.by_ref().take(w[0]).collect();
                        let bias = p.next().expect("a bias");
                        let sum = weights
                            .iter()
                            .zip(&acts)
                            .fold(bias, |sum, (&wi, &xi)| ops.insert(sum + wi * xi));
                        if l + 2 < WIDTHS.len() {
                            ops.insert(sum.relu())
                        } else {
                            sum
                        }
                    })
                    .collect();
            }
            let minus_y = constant(&mut ops, -y);
            losses.push(ops.insert((acts[0] * minus_y + one).relu()));
        }
        let data_sum = losses[1..]
            .iter()
            .fold(losses[0], |s, &l| ops.insert(s + l));
        let data_loss = ops.insert(data_sum * scale);
        let squares = params[1..]
            .iter()
            .fold(ops.insert(params[0] * params[0]), |s, &p| {
                ops.insert(s + p * p)
            });
        let reg = ops.insert(squares * alpha);
        let loss = ops.insert(data_loss + reg);
        PeerGraph {
            ops,
            params,
            fixed,
            loss,
        }
    }

    /// Forward, backward, and `p -= lr * grad` on `params`; returns the loss.
    fn step(&self, values: &mut Values, grads: &mut Gradients, params: &mut [f64], lr: f64) -> f64 {
        for (&id, &v) in self.params.iter().zip(params.iter()) {
            values[id] = v;
        }
        for &(id, v) in &self.fixed {
            values[id] = v;
        }
        self.ops.forward(values);
        self.ops.backward(values, grads, self.loss, 1.0);
        for (&id, p) in self.params.iter().zip(params.iter_mut()) {
            *p -= lr * grads[id];
        }
        values[self.loss]
    }
}

/// The four ways of taking a step, each with its own model.
struct Engines {
    data: Dataset,
    schedule: Schedule,
    peer_params: Vec<f64>,
    dynamic: (MLP, Sgd),
    peer_once: (PeerGraph, Values, Gradients, Vec<f64>),
    tape: (Tape, Sgd),
}

const NAMES: [&str; 4] = [
    "peer, graph built every step (incl. drop)",
    "micrograd dynamic graph, built every step (incl. drop)",
    "peer, graph built once",
    "micrograd tape, compiled once",
];

impl Engines {
    fn new() -> Engines {
        let data = moons100();
        let params: Vec<f64> = model().parameters().iter().map(Value::data).collect();
        let dynamic = model();
        let sgd = Sgd::new(dynamic.parameters(), 1.0).expect("lr");
        let graph = PeerGraph::build(&data);
        let (values, grads) = (
            Values::new(graph.ops.len()),
            Gradients::new(graph.ops.len()),
        );
        let taped = model();
        let tape = Tape::compile(&notebook_loss(&taped, &data)).expect("a graph");
        let tape_sgd = Sgd::new(taped.parameters(), 1.0).expect("lr");
        Engines {
            schedule: Schedule::linear(1.0, 0.1, 100).expect("a schedule"),
            peer_params: params.clone(),
            dynamic: (dynamic, sgd),
            peer_once: (graph, values, grads, params),
            tape: (tape, tape_sgd),
            data,
        }
    }

    /// Step `k` of engine `e` (see [`NAMES`]): its loss, and its time in seconds.
    fn step(&mut self, e: usize, k: usize) -> (f64, f64) {
        let lr = self.schedule.lr_at(k);
        let start = Instant::now();
        let loss = match e {
            0 => {
                let graph = PeerGraph::build(&self.data);
                let mut values = Values::new(graph.ops.len());
                let mut grads = Gradients::new(graph.ops.len());
                graph.step(&mut values, &mut grads, &mut self.peer_params, lr)
                // (graph, values and grads dropped here)
            }
            1 => {
                let (model, sgd) = &mut self.dynamic;
                let loss = notebook_loss(model, &self.data);
                sgd.zero_grad();
                loss.backward();
                self.schedule.apply(sgd, k).expect("lr");
                sgd.step().expect("finite");
                loss.data()
                // (the graph dropped here)
            }
            2 => {
                let (graph, values, grads, params) = &mut self.peer_once;
                graph.step(values, grads, params, lr)
            }
            _ => {
                let (tape, sgd) = &mut self.tape;
                let loss = tape.forward().expect("finite");
                sgd.zero_grad();
                tape.backward().expect("finite");
                self.schedule.apply(sgd, k).expect("lr");
                sgd.step().expect("finite");
                loss
            }
        };
        (loss, start.elapsed().as_secs_f64())
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// The peer's chain `y = y * one` of `n` links: build, forward, backward, drop; returns
/// d y / d x (1) and the seconds.
fn peer_chain(n: usize) -> (f64, f64) {
    let start = Instant::now();
    let mut ops = Operations::default();
    let [x, one] = ops.vars();
    let mut y = x;
    for _ in 0..n {
        y = ops.insert(y * one);
    }
    let mut values = Values::new(ops.len());
    values[x] = 1.0;
    values[one] = 1.0;
    ops.forward(&mut values);
    let mut grads = Gradients::new(ops.len());
    ops.backward(&values, &mut grads, y, 1.0);
    let dx = grads[x];
    drop((ops, values, grads));
    (dx, start.elapsed().as_secs_f64())
}

/// This crate's chain `y = &y * 1.0` of `n` links: build, backward, drop.
fn our_chain(n: usize) -> (f64, f64) {
    let start = Instant::now();
    let x = Value::new(1.0);
    let mut y = x.clone();
    for _ in 0..n {
        y = &y * 1.0;
    }
    y.backward();
    drop(y);
    (x.grad(), start.elapsed().as_secs_f64())
}

/// A chain of `n` links run once: returns d y / d x (1) and the seconds.
type Chain = fn(usize) -> (f64, f64);

/// The floor under any chain of this crate's design (one `Rc<RefCell<Node>>` a node): per link one
/// `Rc<RefCell<_>>` allocation of this crate's node size (96 bytes) holding its parent,
/// one walk down the chain adding the gradient (`backward()`'s loop, without its
/// `build_topo`), then an iterative drop, and the heap tidied after it (a 4 KiB request,
/// which makes glibc merge the freed nodes, so that no round is laid out in another's
/// freed order). No op,
/// no rule, no check: what any engine of that design pays before its own work.
fn floor_chain(n: usize) -> (f64, f64) {
    struct Node {
        parent: Option<Rc<RefCell<Node>>>,
        data: f64,
        grad: f64,
        _rest: [u64; 6],
    }
    assert_eq!(std::mem::size_of::<RefCell<Node>>() + 16, 96);
    let start = Instant::now();
    let node = |parent, data| {
        let (grad, _rest) = (0.0, [0; 6]);
        Rc::new(RefCell::new(Node {
            parent,
            data,
            grad,
            _rest,
        }))
    };
    let x = node(None, 1.0);
    let mut y = Rc::clone(&x);
    for _ in 0..n {
        let data = y.borrow().data * 1.0;
        y = node(Some(y), data);
    }
    y.borrow_mut().grad = 1.0;
    let mut at = Some(Rc::clone(&y));
    while let Some(v) = at {
        let (g, parent) = {
            let v = v.borrow();
            (v.grad, v.parent.clone())
        };
        if let Some(p) = &parent {
            p.borrow_mut().grad += 1.0 * g;
        }
        at = parent;
    }
    let mut next = Some(y);
    while let Some(v) = next {
        next = Rc::try_unwrap(v)
            .ok()
            .and_then(|cell| cell.into_inner().parent);
    }
    if n >= 1 << 17 {
        drop(std::hint::black_box(Vec::<u8>::with_capacity(4096)));
    }
    let dx = x.borrow().grad;
    (dx, start.elapsed().as_secs_f64())
}

fn main() {
    let arg = |i: usize, default: usize| {
        std::env::args()
            .nth(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let (steps, links, rounds) = (arg(1, 100), arg(2, 1_000_000), arg(3, 5));

    let mut engines = Engines::new();
    let mut times = vec![Vec::new(); 4];
    let mut losses = vec![Vec::new(); 4];
    for k in 0..steps {
        // Each step, the engines take their turn in a rotated order.
        for i in 0..4 {
            let e = (i + k) % 4;
            let (loss, t) = engines.step(e, k);
            losses[e].push(loss);
            times[e].push(t);
        }
    }
    let bits = |e: usize, f: usize| losses[e].iter().zip(&losses[f]).all(|(a, b)| a == b);
    assert!(
        bits(1, 3),
        "the dynamic graph and the tape disagree: {:?} {:?}",
        losses[1],
        losses[3]
    );
    let close = |e: usize| {
        let rel = losses[e]
            .iter()
            .zip(&losses[1])
            .map(|(a, b)| ((a - b) / b).abs());
        rel.fold(0.0, f64::max)
    };
    let equal = |e: usize| {
        losses[e]
            .iter()
            .zip(&losses[1])
            .filter(|(a, b)| a == b)
            .count()
    };
    for e in [0, 2] {
        assert!(
            close(e) <= 1e-9,
            "the peer's losses differ from micrograd's by {:e}",
            close(e)
        );
    }
    println!(
        "moons demo step, {steps} steps each, interleaved; losses: micrograd's two engines \
         equal bit for bit, the peer's equal at {}/{steps} steps (max relative difference {:e}); \
         last loss {}",
        equal(0).min(equal(2)),
        close(0).max(close(2)),
        losses[1][steps - 1]
    );
    let med: Vec<f64> = times.into_iter().map(|t| median(t) * 1e6).collect();
    println!("{:56} {:>12} {:>10}", "median per step", "µs", "vs peer");
    for (e, name) in NAMES.iter().enumerate() {
        let peer = med[e / 2 * 2];
        println!("{name:56} {:12.1} {:9.2}x", med[e], med[e] / peer);
    }
    println!(
        "RESULT moons_rebuild peer_us={:.1} dynamic_us={:.1}",
        med[0], med[1]
    );
    println!(
        "RESULT moons_once peer_us={:.1} tape_us={:.1}",
        med[2], med[3]
    );

    let (mut peer, mut ours, mut floor) = (Vec::new(), Vec::new(), Vec::new());
    for r in 0..rounds {
        // The three take turns, in a rotated order.
        for i in 0..3 {
            let (chain, times): (Chain, _) = match (i + r) % 3 {
                0 => (peer_chain, &mut peer),
                1 => (our_chain, &mut ours),
                _ => (floor_chain, &mut floor),
            };
            let (d, t) = chain(links);
            assert_eq!(d, 1.0);
            times.push(t);
        }
    }
    // Each round too: ours moves from round to round with where `malloc` puts the nodes
    // (see docs/benchmarks.md, "The chain").
    let per_link = |times: &[f64]| -> Vec<String> {
        let ns = times.iter().map(|t| t / links as f64 * 1e9);
        ns.map(|ns| format!("{ns:.1}")).collect()
    };
    println!(
        "chain rounds, ns per link: peer {}; ours {}; floor {}",
        per_link(&peer).join(" "),
        per_link(&ours).join(" "),
        per_link(&floor).join(" ")
    );
    let (peer, ours, floor) = (
        median(peer) / links as f64 * 1e9,
        median(ours) / links as f64 * 1e9,
        median(floor) / links as f64 * 1e9,
    );
    println!(
        "chain y = y * 1.0, {links} links, build + backward + drop, median of {rounds} rounds:"
    );
    println!("{:56} {:>12} {:>10}", "per link", "ns", "vs peer");
    println!("{:56} {peer:12.1} {:9.2}x", "peer", 1.0);
    println!(
        "{:56} {ours:12.1} {:9.2}x",
        "micrograd dynamic graph",
        ours / peer
    );
    println!(
        "{:56} {floor:12.1} {:9.2}x",
        "the floor: an Rc<RefCell> chain, no more",
        floor / peer
    );
    println!("RESULT chain peer_ns={peer:.1} ours_ns={ours:.1} floor_ns={floor:.1}");
}

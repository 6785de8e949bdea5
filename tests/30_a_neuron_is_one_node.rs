//! Lesson 30: a neuron as one node. Python's `Neuron.__call__` builds a `*` node per
//! input, a `+` node per term and a node for the activation; `Value::neuron` (which
//! `nn::Neuron` uses) is ONE node with the same value and the same gradients, bit for
//! bit. These tests build both and compare them; they also show how to draw Python's
//! graph again, and that deep graphs of neurons still need no deep stack.

use micrograd::nn::{Activation, Module, MLP};
use micrograd::random::PythonRandom;
use micrograd::Value;

/// A small, fixed-seed random number generator (xorshift64*): no dependency needed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// A float in `[-1, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    fn values(&mut self, n: usize) -> Vec<Value> {
        (0..n).map(|_| Value::new(2.0 * self.unit())).collect()
    }
}

/// Python's neuron: `sum((wi*xi for wi,xi in zip(w, x)), b)`, then the activation, as
/// separate `*` and `sum` nodes.
fn python_neuron(b: &Value, w: &[Value], x: &[Value], f: Activation) -> Value {
    let products = w.iter().zip(x).map(|(wi, xi)| wi * xi);
    let sum: Value = std::iter::once(b.clone()).chain(products).sum();
    f.apply(&sum)
}

const ACTIVATIONS: [Activation; 5] = [
    Activation::Relu,
    Activation::Tanh,
    Activation::Sigmoid,
    Activation::Linear,
    Activation::LeakyRelu(0.01),
];

// act = sum((wi*xi for wi,xi in zip(self.w, x)), self.b)
#[test]
fn a_neuron_has_the_value_of_pythons_products_and_sums_bit_for_bit() {
    let mut rng = Rng(7);
    for n in 0..40 {
        let (b, w, x) = (rng.values(1).remove(0), rng.values(n), rng.values(n));
        for f in ACTIVATIONS {
            let one = Value::neuron(&b, &w, &x, f).unwrap();
            let python = python_neuron(&b, &w, &x, f);
            assert_eq!(
                one.data().to_bits(),
                python.data().to_bits(),
                "{n} inputs, {f}"
            );
        }
    }
}

/// How a test builds a neuron: [`one_node`] or [`python_neuron`].
type NeuronFn = fn(&Value, &[Value], &[Value], Activation) -> Value;

/// A random layered network on `inputs` (each layer's neurons all read the whole
/// previous layer), built with `neuron`; returns the sum of its outputs.
fn network(rng: &mut Rng, inputs: &[Value], params: &mut Vec<Value>, neuron: NeuronFn) -> Value {
    let mut h = inputs.to_vec();
    for layer in 0..3 {
        let width = 1 + (rng.next() % 6) as usize;
        let f = ACTIVATIONS[(rng.next() % 5) as usize];
        h = (0..width)
            .map(|_| {
                let (b, w) = (rng.values(1).remove(0), rng.values(h.len()));
                params.push(b.clone());
                params.extend(w.iter().cloned());
                neuron(&b, &w, &h, if layer == 2 { Activation::Linear } else { f })
            })
            .collect();
    }
    h.iter().sum()
}

fn one_node(b: &Value, w: &[Value], x: &[Value], f: Activation) -> Value {
    Value::neuron(b, w, x, f).unwrap()
}

// total_loss.backward()   -- every p.grad as Python's graph of * and + nodes gives it
#[test]
fn backward_gives_the_gradients_of_pythons_graph_bit_for_bit() {
    for seed in 1..200u64 {
        let build = |neuron: NeuronFn| {
            let mut rng = Rng(seed);
            let inputs = rng.values(1 + (seed % 4) as usize);
            let mut params = Vec::new();
            let root = network(&mut rng, &inputs, &mut params, neuron);
            root.backward();
            let leaves = inputs.iter().chain(&params);
            leaves.map(|v| v.grad().to_bits()).collect::<Vec<_>>()
        };
        assert_eq!(build(one_node), build(python_neuron), "seed {seed}");
    }
}

// model = MLP(2, [16, 16, 1]); model(x)   -- Python: 1,123 nodes; here 34
#[test]
fn an_mlp_is_one_node_per_neuron() {
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let x = [Value::new(1.0), Value::new(-1.0)];
    let y = model.forward(&x).unwrap().remove(0);
    let nodes = y.topo().len();
    let leaves = model.num_parameters() + x.len();
    assert_eq!(nodes - leaves, 16 + 16 + 1);
    assert_eq!(y.op(), "neuron");
}

// w = [a * -1.95, a * -1.1]; n(x)   -- computed weights: Python's graph itself, its rules
// in Python's order (a node walking all its weights before its inputs would run a's
// consumers' rules in another order: here a's gradient differs in the last digit)
#[test]
fn a_neuron_with_a_computed_weight_is_pythons_graph() {
    let a = Value::new(-0.25);
    let w = [&a * -1.95, &a * -1.1];
    let x = [(&a * 1.82).tanh(), &a + -1.07];
    let b = (&a * 0.49).relu();
    let y = Value::neuron(&b, &w, &x, Activation::Tanh).unwrap();
    assert_eq!(y.op(), "tanh"); // over the `+` of the sum, not a "tanh neuron"
    let python = python_neuron(&b, &w, &x, Activation::Tanh);
    assert_eq!(y.data().to_bits(), python.data().to_bits());
    y.backward();
    let one = a.grad();
    a.zero_grad();
    python.zero_grad_graph();
    python.backward();
    assert_eq!(one.to_bits(), a.grad().to_bits());
}

// Python: RecursionError somewhere near 1,000 layers
#[test]
fn a_chain_of_a_million_neurons_needs_no_deep_stack() {
    let run = || {
        let (w, b) = (Value::new(1.0), Value::new(0.0));
        let x = Value::new(0.5);
        let mut y = x.clone();
        for _ in 0..1_000_000 {
            y = Value::neuron(&b, std::slice::from_ref(&w), &[y], Activation::Relu).unwrap();
        }
        y.backward();
        assert_eq!((y.data(), x.grad(), b.grad()), (0.5, 1.0, 1_000_000.0));
        drop(y);
    };
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}

// PyTorch: x = torch.tensor(3.0)  (requires_grad=False by default); y = w * x; y.backward()
#[test]
fn a_leaf_that_needs_no_gradient_keeps_grad_zero() {
    let x = [Value::new(3.0).no_grad()];
    let w = [Value::new(2.0)];
    let y = Value::neuron(&Value::new(0.0), &w, &x, Activation::Relu).unwrap();
    y.backward();
    assert_eq!((w[0].grad(), x[0].grad()), (3.0, 0.0));
    assert!(!x[0].requires_grad() && w[0].requires_grad() && y.requires_grad());
}

// The same on a tape: the pass gives such a leaf nothing (its grad, whatever it holds,
// is left alone), however the tape lays out the leaves it does not write
#[test]
fn on_a_tape_a_leaf_that_needs_no_gradient_gets_none_from_a_pass() {
    let x = Value::new(3.0);
    x.add_grad(7.0); // (a grad from before it was marked)
    let x = [x.no_grad()];
    let w = [Value::new(2.0)];
    let y = Value::neuron(&Value::new(0.0), &w, &x, Activation::Relu).unwrap();
    let mut tape = micrograd::tape::Tape::compile(&y).unwrap();
    tape.backward().unwrap();
    assert_eq!((w[0].grad(), x[0].grad()), (3.0, 7.0));
    let pass = |v: &Value| tape.grad_of(v).unwrap();
    assert_eq!((pass(&w[0]), pass(&x[0])), (3.0, 0.0));
    let at = |v: &Value| {
        tape.leaves()
            .iter()
            .position(|l| Value::ptr_eq(l, v))
            .unwrap()
    };
    assert_eq!(tape.leaf_grads()[at(&x[0])], 0.0);
}

// y = w * (x * 2.0): Python computes the gradient of x * 2.0 and of its 2.0; with x
// needing none, nothing here does
#[test]
fn the_rule_of_a_value_computed_from_no_grad_values_alone_is_skipped() {
    let x = Value::new(3.0).no_grad();
    let doubled = &x * 2.0;
    let w = Value::new(5.0);
    let y = &w * &doubled;
    y.backward();
    assert!(!doubled.requires_grad());
    assert_eq!((w.grad(), doubled.grad()), (6.0, 0.0));
    assert_eq!(
        doubled.parents()[1].grad(),
        0.0,
        "the 2.0's rule did not run"
    );
}

// total_loss.backward()   -- the parameters' gradients do not depend on the inputs' flag
#[test]
fn inputs_without_gradients_leave_every_other_gradient_bit_for_bit() {
    for seed in 1..50u64 {
        let build = |frozen: bool| {
            let mut rng = Rng(seed);
            let inputs: Vec<Value> = rng
                .values(3)
                .into_iter()
                .map(|x| match frozen {
                    true => x.no_grad(),
                    false => x,
                })
                .collect();
            let mut params = Vec::new();
            network(&mut rng, &inputs, &mut params, one_node).backward();
            let grads: Vec<u64> = params.iter().map(|p| p.grad().to_bits()).collect();
            (grads, inputs.iter().map(Value::grad).collect::<Vec<_>>())
        };
        let ((with, _), (without, input_grads)) = (build(false), build(true));
        assert_eq!(with, without, "seed {seed}");
        assert!(input_grads.iter().all(|&g| g == 0.0));
    }
}

// model(list(map(Value, xrow)))   -- the inputs forward_f64 makes need no gradient
#[test]
fn forward_f64_makes_inputs_that_need_no_gradient() {
    let model = MLP::new(2, &[4, 1], &mut PythonRandom::seed(1337));
    let y = model.forward_f64(&[1.0, -1.0]).unwrap().remove(0);
    let first_neuron = &y.parents()[2];
    let input = &first_neuron.parents()[2];
    assert_eq!((input.data(), input.requires_grad()), (1.0, false));
}

// (The whole sentence, so that a string broken over two lines without a `\`, which
// would put a run of spaces in its middle, is caught.)
#[test]
#[should_panic(expected = "only a leaf (Value::new) can be marked; a computed value needs")]
fn only_a_leaf_can_be_marked_as_needing_no_gradient() {
    let _ = Value::new(1.0).relu().no_grad();
}

// dot = draw_dot(n(x))   -- the lecture's neuron: b + w0*x0, + w1*x1, then tanh
#[test]
fn to_dot_can_draw_a_neuron_as_pythons_products_and_sums() {
    use micrograd::view::{DotOptions, RankDir};
    let b = Value::new(0.25).with_label("b");
    let w = [Value::new(0.5), Value::new(-1.0)];
    let x = [Value::new(1.0), Value::new(-2.0)];
    let y = Value::neuron(&b, &w, &x, Activation::Tanh).unwrap();
    y.backward();
    // Python's graph, node for node: ((b + w0*x0) + w1*x1).tanh()
    let python = ((&b + &w[0] * &x[0]) + &w[1] * &x[1]).tanh();
    python.backward();
    // Every record (label, data, grad) and op, whatever the nodes' numbering.
    let labels = |dot: String| {
        let mut l: Vec<String> = dot
            .lines()
            .filter_map(|l| l.split_once("label=").map(|(_, t)| t.to_owned()))
            .collect();
        l.sort();
        l
    };
    let drawn = y.to_dot_with(DotOptions::new().as_python());
    assert_eq!(labels(drawn), labels(python.to_dot()));
    assert_eq!(y.to_dot().matches("op [label=").count(), 1, "one node here");
    assert_eq!(
        y.to_dot_with(RankDir::LR),
        y.to_dot(),
        "RankDir callers unchanged"
    );
}

// the lecture's lol(): every leaf's gradient against (f(x + h) - f(x - h)) / 2h
#[test]
fn a_neurons_gradients_match_finite_differences() {
    use micrograd::engine::check_gradients;
    let mut rng = Rng(11);
    let (b, w, x) = (rng.values(1).remove(0), rng.values(3), rng.values(3));
    let leaves: Vec<&Value> = std::iter::once(&b).chain(&w).chain(&x).collect();
    for f in [Activation::Tanh, Activation::Sigmoid, Activation::Linear] {
        let check = check_gradients(&leaves, 1e-6, || Value::neuron(&b, &w, &x, f).unwrap());
        let check = check.unwrap();
        assert!(check.max_error() < 1e-8, "{f}: {check}");
    }
}

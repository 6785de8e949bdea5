//! Lesson 28: the tape's shortcuts keep the graph's numbers. To be fast the tape adds
//! up sixteen sums of a layer together, skips a neuron whose gradient is zero, fuses a
//! neuron's sum with its activation and checks for NaN and infinity once per pass
//! instead of per node. Each test here is the smallest program where such a shortcut
//! could change a number or an error: the tape must give the dynamic graph's bits, or
//! the error the graph gives, or refuse with an error saying what to do.
//!
//! Python has no tape; the dynamic graph each test compares against is micrograd's.

use micrograd::loss;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;

/// Sixteen sums that share their second factor `w` become one layer of the tape; their
/// first factors `e_j = x_j.exp()` are inner nodes, computed in the same forward pass
/// (and used once more, by a sum the backward pass reaches last, so that the tape
/// computes all of them before the sixteen sums).
fn sixteen_sums_of_inner_first_factors(x: &[Value], w: &Value) -> Value {
    let e: Vec<Value> = x.iter().map(Value::exp).collect();
    let sums: Value = e.iter().map(|e| [e * w].into_iter().sum::<Value>()).sum();
    e.iter().sum::<Value>() + sums
}

// e = [x.exp() for x in xs]; root = sum(e) + sum(sum([e_j * w]) for e_j in e), with
// every x changed after compiling
#[test]
fn a_layer_whose_first_factors_are_inner_nodes_uses_this_runs_values() {
    let w = Value::new(2.0);
    let x: Vec<Value> = (0..16).map(|j| Value::new(0.1 * j as f64)).collect();
    let mut tape = Tape::compile(&sixteen_sums_of_inner_first_factors(&x, &w)).unwrap();
    for x in &x {
        x.set_data(x.data() + 1.0);
    }
    let graph = sixteen_sums_of_inner_first_factors(&x, &w);
    assert_eq!(tape.forward().unwrap().to_bits(), graph.data().to_bits());
}

// for sample in batch: loss.backward()   -- then backward() before the sums are handed over
#[test]
fn backward_between_accumulate_and_flush_is_refused_and_keeps_the_sums() {
    let w = Value::new(3.0);
    let mut tape = Tape::compile(&(&w * &w)).unwrap();
    tape.accumulate().unwrap();
    tape.accumulate().unwrap();
    let err = tape.backward().unwrap_err();
    assert!(err.to_string().contains("flush_grads"), "{err}");
    tape.flush_grads();
    assert_eq!(w.grad(), 12.0); // two runs of d (w w) / dw = 2 w, none lost
    tape.backward().unwrap();
    assert_eq!(w.grad(), 18.0);
}

// for p in model.parameters(): p.data -= lr * p.grad   -- the next batch sees the new p
#[test]
fn accumulate_reads_the_parameters_the_optimiser_changed_without_being_told() {
    let (w, x) = (Value::new(2.0), Value::new(0.0));
    let loss = |w: &Value, x: &Value| (w * x).powf(2.0);
    let mut tape = Tape::compile(&loss(&w, &x)).unwrap();
    let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
    let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
    for step in 0..3 {
        tape.set_inputs(&input, &[1.5]).unwrap();
        let tape_loss = tape.accumulate().unwrap();
        let graph_loss = loss(&Value::new(w.data()), &Value::new(1.5)).data();
        assert_eq!(tape_loss.to_bits(), graph_loss.to_bits(), "step {step}");
        opt.zero_grad();
        tape.flush_grads();
        opt.step().unwrap();
    }
    w.set_data(-1.0); // a write by hand is seen too, and the fed input is kept
    assert_eq!(tape.evaluate().unwrap(), 2.25);
}

/// The tape's error for `root` (forward, then backward) and the dynamic graph's
/// (`try_backward`), as their messages: pass, op, label and value.
fn errors_of_tape_and_graph(root: &Value) -> (String, String) {
    let mut tape = Tape::compile(root).unwrap();
    let tape_err = tape.forward().and_then(|_| tape.backward()).unwrap_err();
    let graph_err = root.try_backward().unwrap_err();
    (tape_err.to_string(), graph_err.to_string())
}

// x = Value(0); root = w + (-(x.sqrt() + 1)).relu()   -- the ReLU is off, so nothing
// flows back through `-` and `+ 1`; but sqrt's local derivative at 0 is infinite, and
// `inf * 0` is NaN on x: the backward pass may jump over a zero gradient's private
// nodes only where their local derivatives are finite
#[test]
fn a_zero_gradient_is_not_jumped_over_an_infinite_local_derivative() {
    let (w, x) = (Value::new(2.0), Value::new(0.0));
    let root = &w + (-(x.sqrt() + 1.0)).relu();
    let (tape, graph) = errors_of_tape_and_graph(&root);
    assert!(graph.starts_with("backward pass: op `sqrt`"), "{graph}");
    assert_eq!(tape, graph);
}

// w = x = Value(1e200); (0.5 + w*x).tanh()   -- w*x is inf, and tanh(inf) is 1
#[test]
fn an_overflow_under_a_saturating_activation_is_reported_as_the_graph_reports_it() {
    let (w, x) = (Value::new(1e200), Value::new(1e200));
    let sum = || [Value::new(0.5), &w * &x].into_iter().sum::<Value>();
    let minus = || [Value::new(0.5), -(&w * &x)].into_iter().sum::<Value>();
    for root in [
        sum().tanh(),
        minus().relu(),
        minus().sigmoid(),
        minus().exp(),
    ] {
        let (tape, graph) = errors_of_tape_and_graph(&root);
        assert!(graph.starts_with("forward pass: op `*`"), "{graph}");
        assert_eq!(tape, graph);
    }
}

// x = Value(-700); y = x.exp(); root = (y * w) * 1e200; then x.requires_grad = False:
// y still needs its gradient (it was built when x did), and w * 1e200 overflows there
#[test]
fn an_overflow_on_a_node_of_a_leaf_marked_no_grad_after_compiling_is_the_graphs_error() {
    let (x, w) = (Value::new(-700.0), Value::new(1e200));
    let root = (x.exp() * &w) * 1e200;
    let mut tape = Tape::compile(&root).unwrap();
    let _ = x.no_grad();
    let tape_err = tape.backward().unwrap_err();
    let graph_err = root.try_backward().unwrap_err();
    assert_eq!(tape_err.to_string(), graph_err.to_string());
}

// s = (0.5 + w*x); s.label = 's'   -- the product overflowed, not the sum
#[test]
fn an_overflow_in_a_product_inside_a_labelled_sum_names_the_product() {
    let (w, x) = (Value::new(1e200), Value::new(1e200));
    let s = [Value::new(0.5), &w * &x]
        .into_iter()
        .sum::<Value>()
        .with_label("s");
    let (tape, graph) = errors_of_tape_and_graph(&(&s * 2.0));
    assert!(graph.contains("(no label)"), "{graph}");
    assert_eq!(tape, graph);
}

// y = x.sqrt() * a + x.sqrt() * b   -- at x = 0 two rules make infinities: the same one is named
#[test]
fn of_two_infinite_gradients_the_tape_names_the_one_the_graph_names() {
    let x = Value::new(0.0);
    let a = x.sqrt().with_label("first") * 2.0;
    let b = x.sqrt().with_label("second") * 3.0;
    let (tape, graph) = errors_of_tape_and_graph(&(a + b));
    assert!(graph.starts_with("backward pass: op `sqrt`"), "{graph}");
    assert_eq!(tape, graph);
}

// x = [Value(1e300)] * 2; loss = 1e10 * sum(n(x) for n in layer)   -- only dloss/dw overflows
#[test]
fn an_overflow_only_in_the_weights_gradients_is_reported_by_accumulate_too() {
    // (The tape checks the gradients it writes as it writes them, instead of looking at
    // every leaf's after each run: here only the last products, into the weights, fail.)
    let x = [Value::new(1e300), Value::new(1e300)];
    let neuron = |j: f64| {
        let w = [Value::new(1e-300), Value::new(2e-300)];
        let b = Value::new(0.1 * j);
        [b, &w[0] * &x[0], &w[1] * &x[1]].into_iter().sum::<Value>()
    };
    let layer: Value = (0..3).map(|j| neuron(j as f64)).sum();
    let root = layer * 1e10;
    let mut tape = Tape::compile(&root).unwrap();
    let tape_err = tape.accumulate().unwrap_err().to_string();
    let graph_err = root.try_backward().unwrap_err().to_string();
    assert!(graph_err.starts_with("backward pass"), "{graph_err}");
    assert_eq!(tape_err, graph_err);
}

/// Compiles `build(leaves)` at the data `before`, moves the leaves to `after` and asks
/// [`Tape::check`] whether the tape is still the graph `build` makes there.
fn still_the_graph_on_other_data(
    before: &[f64],
    after: &[f64],
    build: impl Fn(&[Value]) -> Result<Value, Error>,
) -> Result<(), Error> {
    let leaves: Vec<Value> = before.iter().map(|&x| Value::new(x)).collect();
    let mut tape = Tape::compile(&build(&leaves)?)?;
    for (leaf, &x) in leaves.iter().zip(after) {
        leaf.set_data(x);
    }
    tape.check(|| build(&leaves))
}

// The library builds no graph whose shape or constants depend on the data: each loss and
// each activation compiled on some logits is still itself on others.
#[test]
fn no_library_function_freezes_the_data_it_was_compiled_on() {
    let (before, after) = ([2.0, -1.0, 0.5], [-3.0, 4.0, 0.25]);
    let check = |name: &str, build: &dyn Fn(&[Value]) -> Result<Value, Error>| {
        let checked = still_the_graph_on_other_data(&before, &after, build);
        assert!(checked.is_ok(), "{name}: {}", checked.unwrap_err());
    };
    check("mse", &|z| loss::mse(z, &[1.0, 0.0, -1.0]));
    check("svm_hinge", &|z| loss::svm_hinge(z, &[1.0, -1.0, 1.0]));
    check("l2", &|z| Ok(loss::l2(z, 0.5)));
    check("softmax_cross_entropy", &|z| {
        loss::softmax_cross_entropy(z, 1)
    });
    let rows = |z: &[Value]| [z.to_vec(), z.iter().rev().cloned().collect()];
    check("softmax_cross_entropy_mean", &|z| {
        loss::softmax_cross_entropy_mean(&rows(z), &[0, 2])
    });
    for activation in [
        Activation::Relu,
        Activation::LeakyRelu(0.1),
        Activation::Tanh,
        Activation::Sigmoid,
    ] {
        let layers = [(4, activation), (1, Activation::Linear)];
        let model = MLP::with_activations(3, &layers, &mut PythonRandom::seed(1));
        check("MLP", &|z| Ok(model.forward(z)?.remove(0)));
    }
}

// A branch on .data() while building is frozen into the tape; check() says where.
#[test]
fn check_names_the_first_node_that_is_not_the_graph_built_again() {
    let err = still_the_graph_on_other_data(&[2.0], &[-1.0], |x| {
        let x = &x[0];
        Ok(if x.data() > 0.0 { x.relu() } else { x.tanh() })
    })
    .unwrap_err();
    assert!(
        matches!(err, Error::TapeMismatch { op: "tanh", .. }),
        "{err}"
    );
    // A constant computed from .data(): the leaf that holds it is named.
    let err =
        still_the_graph_on_other_data(&[2.0], &[-1.0], |x| Ok(&x[0] - x[0].data())).unwrap_err();
    assert!(matches!(err, Error::TapeMismatch { op: "", .. }), "{err}");
}

/// `neuron(b, [w], [x], sigmoid) * 1e300` with w = 1e-20 and b = 0: the sum is finite
/// unless x is, and on x = 1e10 the backward pass overflows in w's gradient
/// (x · sigmoid'(s) · 1e300).
fn scaled_sigmoid_neuron(b: &Value, w: &Value, x: &Value) -> Value {
    &Value::neuron(
        b,
        std::slice::from_ref(w),
        std::slice::from_ref(x),
        Activation::Sigmoid,
    )
    .unwrap()
        * 1e300
}

// n = neuron(b, [w], [x], sigmoid) compiled while x is inf (its sum is a node of its own,
// so that the overflow is reported), then run on x = 1e10 (one node, as a graph built
// on that data is): the tape's backward error is that graph's
#[test]
fn a_neuron_compiled_on_an_overflowed_sum_reports_errors_as_the_graph_built_again() {
    let (b, w, x) = (
        Value::new(0.0),
        Value::new(1e-20),
        Value::new(f64::INFINITY).no_grad(),
    );
    let mut tape = Tape::compile(&scaled_sigmoid_neuron(&b, &w, &x)).unwrap();
    x.set_data(1e10);
    tape.forward().unwrap();
    let tape_error = tape.backward().unwrap_err().to_string();
    let graph_error = scaled_sigmoid_neuron(&b, &w, &x)
        .try_backward()
        .unwrap_err();
    assert_eq!(tape_error, graph_error.to_string());
    assert!(tape_error.contains("sigmoid neuron"), "{tape_error}");
}

// An off ReLU: the graph adds zeros (-0.0 + 0.0 is 0.0, -0.0 + -0.0 is -0.0), the tape
// skips them; for a grad that starts at -0.0 it asks the graph.
#[test]
fn a_grad_that_starts_at_negative_zero_ends_with_the_graphs_bits() {
    let leaves = || [0.5, -2.0, 3.0].map(Value::new);
    let neuron = |[b, w, x]: &[Value; 3]| [b.clone(), w * x].into_iter().sum::<Value>().relu();
    let (graph, taped) = (leaves(), leaves());
    let mut tape = Tape::compile(&neuron(&taped)).unwrap();
    let y = neuron(&graph);
    for v in graph.iter().chain(&taped) {
        v.set_grad(-0.0);
    }
    y.backward();
    tape.backward().unwrap();
    let bits = |v: &[Value; 3]| v.each_ref().map(|v| v.grad().to_bits());
    assert_eq!(bits(&taped), bits(&graph));
}

// layer = [Neuron(2) for _ in range(16)] with every b = -0.0 and w = -1.0, x = [0, 0]:
// each sum is -0.0 + -0.0 + -0.0 in Python's terms, and a sum starts from 0.0, so the
// graph's ReLU gets +0.0; the tape's layer of sixteen must not start from the bias
#[test]
fn a_layer_of_sixteen_relu_neurons_gives_a_zero_sum_the_graphs_sign() {
    let x = [0.0, 0.0].map(|x| Value::new(x).no_grad());
    let neurons: Vec<(Value, [Value; 2])> = (0..16)
        .map(|_| (Value::new(-0.0), [-1.0, -1.0].map(Value::new)))
        .collect();
    let (taped, graph) = relu_layer_bits(&neurons, &x);
    assert_eq!(taped, graph);
}

/// The values of a layer of ReLU neurons `(bias, weights)` on the inputs `x`, as bits:
/// computed by a tape (a layer of sixteen, if there are sixteen) and by the graph.
fn relu_layer_bits<W: AsRef<[Value]>>(neurons: &[(Value, W)], x: &[Value]) -> (Vec<u64>, Vec<u64>) {
    let hidden: Vec<Value> = (neurons.iter())
        .map(|(b, w)| Value::neuron(b, w.as_ref(), x, Activation::Relu).unwrap())
        .collect();
    let root: Value = hidden.iter().sum();
    let mut tape = Tape::compile_with_outputs(&root, &hidden).unwrap();
    tape.forward().unwrap();
    let bits = |values: Vec<f64>| values.into_iter().map(f64::to_bits).collect::<Vec<_>>();
    (
        bits(tape.outputs().collect()),
        bits(hidden.iter().map(Value::data).collect()),
    )
}

// model = MLP(3, [n, 16, 1]) with every ReLU on; model(x)[0].backward()   -- the tape's
// backward pass takes a layer whose neurons have 16 or 32 inputs with its loops unrolled
// for that width: it must still give every weight and input the graph's gradient
#[test]
fn layers_whose_neurons_have_16_or_32_inputs_get_the_graphs_gradients() {
    for n in [16, 32] {
        let model = MLP::new(3, &[n, 16, 1], &mut PythonRandom::seed(1));
        // (Positive weights and inputs: every ReLU is on, so every term passes a
        // gradient back and none can hide a term the pass left out.)
        let count = model.parameters().len();
        let params: Vec<f64> = (0..count).map(|i| 0.01 * (i % 7 + 1) as f64).collect();
        model.set_params(&params).unwrap();
        let x = [0.5, 1.5, 2.0].map(Value::new);
        let root = model.forward(&x).unwrap()[0].clone();
        let mut tape = Tape::compile(&root).unwrap();
        tape.backward().unwrap();
        let leaves: Vec<Value> = model.parameters().into_iter().chain(x.clone()).collect();
        let taped: Vec<u64> = leaves.iter().map(|v| v.grad().to_bits()).collect();
        for v in &leaves {
            v.zero_grad();
        }
        root.backward();
        let graph: Vec<u64> = leaves.iter().map(|v| v.grad().to_bits()).collect();
        assert_eq!(taped, graph, "{n} inputs");
    }
}

// layer = [Neuron(n) for _ in range(16)]; [neuron(x) for neuron in layer]   -- numbers of
// very different sizes, so that adding a neuron's terms in another order changes bits:
// the tape's layer of sixteen adds them as Python does, for any number of inputs
#[test]
fn a_layer_of_sixteen_relu_neurons_adds_its_terms_in_pythons_order() {
    use rand::{rngs::StdRng, RngExt, SeedableRng};
    let mut rng = StdRng::seed_from_u64(5);
    let mut number = || rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-8..9));
    for n in 1..=5 {
        let x: Vec<Value> = (0..n).map(|_| Value::new(number()).no_grad()).collect();
        let layer: Vec<(Value, Vec<Value>)> = (0..16)
            .map(|_| {
                (
                    Value::new(number()),
                    (0..n).map(|_| Value::new(number())).collect(),
                )
            })
            .collect();
        let (taped, graph) = relu_layer_bits(&layer, &x);
        assert_eq!(taped, graph, "{n} inputs");
    }
}

// layer = [(b_j*c + w_j0*x0 + w_j1*x1).relu() for j in range(16)] with c = 3: sixteen
// sums whose bias terms are products, not a neuron's bias alone (the tape multiplies a
// neuron's by the constant 1): the tape's layer of sixteen must keep the product
#[test]
fn a_layer_of_sixteen_relu_sums_whose_biases_have_a_factor_keeps_the_product() {
    let c = Value::new(3.0).no_grad();
    let x = [0.5, -0.25].map(|x| Value::new(x).no_grad());
    let hidden: Vec<Value> = (0..16)
        .map(|j| {
            let (b, w) = (Value::new(0.1 * j as f64), [0.3, -0.2].map(Value::new));
            let terms = [&b * &c, &w[0] * &x[0], &w[1] * &x[1]];
            terms.into_iter().sum::<Value>().relu()
        })
        .collect();
    // (`c` used first, apart from `x`: next to them, it would join their run, and the
    // sums would be no layer of neurons; the test would not fail without the product.)
    let root = &c * 0.5 + hidden.iter().sum::<Value>();
    let mut tape = Tape::compile_with_outputs(&root, &hidden).unwrap();
    tape.forward().unwrap();
    let taped: Vec<u64> = tape.outputs().map(f64::to_bits).collect();
    let graph: Vec<u64> = hidden.iter().map(|h| h.data().to_bits()).collect();
    assert_eq!(taped, graph);
}

// layer = [Neuron(2) for _ in range(16)], compiled on x = [1, 1]; then x = [1e200, 1] and
// neuron 5's w = [-1e200, 0.5]: its sum is -inf and its ReLU 0, so nothing after it shows
// the overflow; the tape's layer of sixteen must still report it, as the graph does
#[test]
fn an_overflow_that_a_relu_hides_in_a_layer_of_sixteen_is_reported_as_the_graph_reports_it() {
    let x = [1.0, 1.0].map(|x| Value::new(x).no_grad());
    let neurons: Vec<[Value; 2]> = (0..16)
        .map(|j| [if j == 5 { -1e200 } else { 0.5 }, 0.5].map(Value::new))
        .collect();
    let bias = Value::new(0.1);
    let layer = || -> Value {
        (neurons.iter())
            .map(|w| Value::neuron(&bias, w, &x, Activation::Relu).unwrap())
            .sum()
    };
    let mut tape = Tape::compile(&layer()).unwrap();
    x[0].set_data(1e200);
    let tape_err = tape.forward().unwrap_err().to_string();
    let graph_err = layer().try_backward().unwrap_err().to_string();
    assert!(graph_err.contains("op `neuron`"), "{graph_err}");
    assert_eq!(tape_err, graph_err);
}

// The leaf Python makes for an f64 operand, read and built on further: two = the 2.0 of
// y = x * 2.0 (`y.parents()[1]`). The tape keeps the graph's numbers and errors here too.
fn operand_leaf(x: &Value) -> (Value, Value) {
    let y = x * 2.0;
    let two = y.parents()[1].clone();
    (y, two)
}

// two.label = 'two'; root = two * y; then two.data = nan: the leaf is named, as the graph names it
#[test]
fn a_nan_written_into_an_operand_leaf_read_further_is_named_by_its_label() {
    let (y, two) = operand_leaf(&Value::new(1.0));
    two.set_label("two");
    let root = &two * &y;
    let mut tape = Tape::compile(&root).unwrap();
    two.set_data(f64::NAN);
    let (tape_err, graph_err) = (
        tape.forward().unwrap_err(),
        root.try_backward().unwrap_err(),
    );
    assert_eq!(format!("{tape_err:?}"), format!("{graph_err:?}"));
}

// t = two * 1e-300; root = y + t * big * big: t's gradient overflows, and every leaf
// under t is an operand's leaf, whose gradients are not checked; the graph reports t's
#[test]
fn an_overflow_that_reaches_only_operand_leaves_is_the_graphs_error() {
    let big = Value::new(1e200);
    let (y, two) = operand_leaf(&Value::new(1.0));
    let t = &two * 1e-300;
    let root = &y + &(&(&t * &big) * &big);
    let mut tape = Tape::compile(&root).unwrap();
    let tape_err = tape.backward().unwrap_err();
    assert_eq!(
        format!("{tape_err:?}"),
        format!("{:?}", root.try_backward().unwrap_err())
    );
}

// root = sum([y, two * x]) with x.requires_grad = False: two * x is a plain product (fused
// into the sum on the tape), not a node that keeps a number
#[test]
fn check_accepts_an_operand_leaf_read_further_by_a_fused_product() {
    let (w, x) = (Value::new(1.5), Value::new(0.5).no_grad());
    let build = || -> Result<Value, Error> {
        let (y, two) = operand_leaf(&w);
        Ok([y, &two * &x].into_iter().sum::<Value>())
    };
    let mut tape = Tape::compile(&build().unwrap()).unwrap();
    tape.check(build).unwrap();
}

// w = -0.0; root = y + two * x (x.requires_grad = False), two.grad = -0.0 first: the
// tape asks the graph for the sign of the zero it adds, and gets the graph's
#[test]
fn an_operand_leaf_read_further_keeps_the_graphs_sign_of_zero() {
    let (w, x) = (Value::new(-0.0), Value::new(0.0).no_grad());
    let (y, two) = operand_leaf(&w);
    let root = &y + &(&two * &x);
    let mut tape = Tape::compile(&root).unwrap();
    two.set_grad(-0.0);
    tape.backward().unwrap();
    let taped = two.grad().to_bits();
    two.set_grad(-0.0);
    root.backward();
    assert_eq!(taped, two.grad().to_bits());
}

// m = two * x * big (x.requires_grad = False) and us = u * s, both overflowing: the tape
// names the graph's culprit, not the other
#[test]
fn the_culprit_beside_an_operand_leaf_read_further_is_the_graphs() {
    let [w, big, u, s] = [1.0, 1e200, 1e-300, 1e200].map(Value::new);
    let x = Value::new(1e-300).no_grad();
    let (y, two) = operand_leaf(&w);
    let m = (&(&two * &x) * &big).with_label("M");
    let us = (&u * &s).with_label("us");
    let root = &(&(&us * &s) + &(&m * &big)) + &y;
    let mut tape = Tape::compile(&root).unwrap();
    assert_eq!(
        format!("{:?}", tape.backward()),
        format!("{:?}", root.try_backward())
    );
}

// root = w * u + z with w and u marked requires_grad = False: the graph runs no rule for
// w * u and leaves its grad at 0, where the tape computes one; check compares it not
#[test]
fn check_leaves_out_the_gradient_of_a_node_that_needs_none() {
    let (w, u, z) = (
        Value::new(3.0).no_grad(),
        Value::new(2.0).no_grad(),
        Value::new(5.0),
    );
    let build = || -> Result<Value, Error> { Ok(&(&w * &u) + &z) };
    let mut tape = Tape::compile(&build().unwrap()).unwrap();
    tape.check(build).unwrap();
    // A wrong gradient on a node that needs one is still found.
    let wrong = || -> Result<Value, Error> { Ok(&(&w * &u) + &(&z * 1.0)) };
    assert!(tape.check(wrong).is_err());
}

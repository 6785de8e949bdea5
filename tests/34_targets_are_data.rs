//! Lesson 34: targets are data. A tape compiles one sample's graph and runs it on every
//! sample, so whatever changes from sample to sample must be a leaf it can feed: the
//! inputs, and the targets too. Every loss has a form whose targets are `Value`s
//! (leaves made with `Value::new(y).no_grad()`); the forms that take a number keep that
//! number in the graph, and a tape refuses to run such a graph over other samples.

use micrograd::loss;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::{Inputs, Tape};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Leaves for one sample's numbers: data, not parameters.
fn data_leaves(n: usize) -> Vec<Value> {
    (0..n).map(|_| Value::new(0.0).no_grad()).collect()
}

/// The bits of a loss and of the gradients of `of`.
fn bits(loss: &Value, of: &[Value]) -> (u64, Vec<u64>) {
    (
        loss.data().to_bits(),
        of.iter().map(|v| v.grad().to_bits()).collect(),
    )
}

// --- 1. Targets as Values: the numbers of the f64 forms -------------------------------

// ((p - t)**2 for ...): the target a leaf instead of a number
#[test]
fn each_loss_with_value_targets_gives_the_numbers_of_its_f64_form() {
    type F64Form = fn(&[Value], &[f64]) -> Result<Value, Error>;
    type ValueForm = fn(&[Value], &[Value]) -> Result<Value, Error>;
    let forms: [(F64Form, ValueForm, [f64; 2]); 3] = [
        (loss::mse, loss::mse_targets, [0.5, -2.0]),
        (loss::svm_hinge, loss::svm_hinge_targets, [1.0, -1.0]),
        (
            loss::binary_cross_entropy_with_logits,
            loss::binary_cross_entropy_with_logits_targets,
            [1.0, 0.0],
        ),
    ];
    for (f64_form, value_form, targets) in forms {
        let p = [Value::new(0.3), Value::new(-1.7)];
        let by_number = f64_form(&p, &targets).unwrap();
        by_number.backward();
        let expected = bits(&by_number, &p);
        let q = [Value::new(0.3), Value::new(-1.7)];
        let t: Vec<Value> = targets.iter().map(|&y| Value::new(y).no_grad()).collect();
        let by_value = value_form(&q, &t).unwrap();
        by_value.backward();
        assert_eq!(bits(&by_value, &q), expected);
        assert!(t.iter().all(|t| t.grad() == 0.0), "targets get no gradient");
    }
}

// -log softmax(z)[c] with the class as a one-hot row
#[test]
fn softmax_cross_entropy_of_a_one_hot_row_is_that_of_its_class() {
    let z = [Value::new(0.5), Value::new(2.0), Value::new(-1.0)];
    let by_class = loss::softmax_cross_entropy(&z, 1).unwrap();
    let onehot = [0.0, 1.0, 0.0].map(|t| Value::new(t).no_grad());
    let by_row = loss::softmax_cross_entropy_onehot(&z, &onehot).unwrap();
    assert_eq!(by_row.data().to_bits(), by_class.data().to_bits());
    by_row.backward();
    // dL/dz_j = softmax(z)_j - t_j
    let total: f64 = [0.5f64, 2.0, -1.0].iter().map(|z| z.exp()).sum();
    for (j, zj) in [0.5f64, 2.0, -1.0].into_iter().enumerate() {
        let expected = zj.exp() / total - if j == 1 { 1.0 } else { 0.0 };
        assert!((z[j].grad() - expected).abs() < 1e-15, "dL/dz{j}");
    }
}

#[test]
fn a_target_that_needs_a_gradient_is_refused() {
    let p = [Value::new(1.0)];
    let err = loss::mse_targets(&p, &[Value::new(0.0)]).unwrap_err();
    assert!(err.to_string().contains("no_grad"), "{err}");
    let err = loss::mse_targets(&p, &[Value::new(0.0).no_grad().exp()]).unwrap_err();
    assert!(err.to_string().contains("computed by `exp`"), "{err}");
}

// --- Targets fed per sample, as inputs are ----------------------------------------------

/// Samples of y = sin(x): (x, y).
fn sine_samples() -> Vec<[f64; 2]> {
    (0..12)
        .map(|i| {
            let x = -3.0 + 0.5 * f64::from(i);
            [x, x.sin()]
        })
        .collect()
}

// for x, y in data: loss = (model([x])[0] - y)**2 — one tape for every sample
#[test]
fn a_tape_feeds_the_targets_per_sample_and_learns_the_sine() {
    let model = MLP::new(1, &[16, 16, 1], &mut PythonRandom::seed(3));
    let sample = data_leaves(2); // x, then y
    let pred = model.forward(&sample[..1]).unwrap();
    let loss = loss::mse_targets(&pred, &sample[1..]).unwrap();
    let mut tape = Tape::compile(&loss).unwrap();
    let feed = tape.inputs(&sample).unwrap();
    let mut opt = Adam::new(model.parameters(), 0.01).unwrap();
    let data = sine_samples();
    let mut training = tape.train(&mut opt, 1).unwrap();
    let mut first = None;
    let mut last = 0.0;
    for _ in 0..300 {
        let losses = training.step(&feed, &data).unwrap();
        last = losses.iter().sum::<f64>() / losses.len() as f64;
        first.get_or_insert(last);
    }
    training.finish();
    // A target frozen at the compiled sample's would make every prediction that one
    // number; fed per sample, the model follows the sine.
    assert!(
        last < 0.01 && last < first.unwrap() / 10.0,
        "{first:?} -> {last}"
    );
    for [x, y] in data {
        let p = model.forward_f64(&[x]).unwrap()[0].data();
        assert!((p - y).abs() < 0.25, "sin({x}) = {y}, model {p}");
    }
}

// The tape's loss per sample is the graph's, built for that sample with the f64 form.
#[test]
fn every_loss_through_a_batch_gives_the_dynamic_graphs_losses() {
    let model = MLP::new(2, &[4, 3], &mut PythonRandom::seed(7));
    let x = data_leaves(2);
    let t = data_leaves(3);
    let z = model.forward(&x).unwrap();
    let mut tape = Tape::compile(&loss::softmax_cross_entropy_onehot(&z, &t).unwrap()).unwrap();
    let feed = tape.inputs(&[x.clone(), t.clone()].concat()).unwrap();
    let rows = [([0.5, -1.0], 2), ([1.5, 0.25], 0), ([-2.0, 1.0], 1)];
    let samples: Vec<Vec<f64>> = rows
        .iter()
        .map(|(xs, c)| {
            let onehot = (0..3).map(|j| f64::from(u8::from(j == *c)));
            xs.iter().copied().chain(onehot).collect()
        })
        .collect();
    let losses = tape.accumulate_batch(&feed, &samples, 2).unwrap();
    for ((xs, c), l) in rows.iter().zip(losses) {
        let z = model.forward_f64(xs).unwrap();
        let expected = loss::softmax_cross_entropy(&z, *c).unwrap().data();
        assert_eq!(l.to_bits(), expected.to_bits(), "class {c}");
    }
}

// --- 2. No silent freeze --------------------------------------------------------------

/// The model, its input leaf, and a tape of `mse(&[model(x)], &[0.5])`: the target a
/// number, kept in the graph.
fn frozen_target_tape() -> (MLP, Value, Tape) {
    let model = MLP::new(1, &[4, 1], &mut PythonRandom::seed(5));
    let x = Value::new(1.0).no_grad();
    let pred = model.forward(std::slice::from_ref(&x)).unwrap();
    let tape = Tape::compile(&loss::mse(&pred, &[0.5]).unwrap()).unwrap();
    (model, x, tape)
}

fn is_constant_target(err: &Error, name: &str, instead: &str) -> bool {
    matches!(err, Error::ConstantTarget { loss, instead: i } if *loss == name && *i == instead)
        && err.to_string().contains(instead)
}

#[test]
fn a_tape_refuses_to_feed_samples_to_a_graph_whose_target_is_a_number() {
    let (_, x, mut tape) = frozen_target_tape();
    let feed = tape.inputs(&[x]).unwrap();
    let err = tape.set_inputs(&feed, &[2.0]).unwrap_err();
    assert!(is_constant_target(&err, "mse", "mse_targets"), "{err}");
    let err = tape
        .accumulate_batch(&feed, &[[1.0], [2.0]], 1)
        .unwrap_err();
    assert!(is_constant_target(&err, "mse", "mse_targets"), "{err}");
}

#[test]
fn a_training_of_such_a_graph_is_refused_before_any_step() {
    let (model, _, mut tape) = frozen_target_tape();
    let before: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let err = tape.train(&mut opt, 1).err().unwrap();
    assert!(is_constant_target(&err, "mse", "mse_targets"), "{err}");
    let after: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert_eq!(before, after);
}

#[test]
fn generated_c_fed_with_samples_is_refused_too() {
    let (model, x, tape) = frozen_target_tape();
    let err = micrograd::codegen::CodeGen::new(&tape, "frozen")
        .input("x", &[x])
        .parameters(&model.parameters())
        .generate()
        .err()
        .unwrap();
    assert!(is_constant_target(&err, "mse", "mse_targets"), "{err}");
}

#[test]
fn the_sample_the_tape_was_compiled_from_still_runs() {
    let (model, x, mut tape) = frozen_target_tape();
    let expected = loss::mse(&model.forward_f64(&[1.0]).unwrap(), &[0.5]).unwrap();
    assert_eq!(tape.forward().unwrap(), expected.data());
    tape.backward().unwrap();
    // Another sample through the input's Value: refused as well.
    x.set_data(2.0);
    let err = tape.forward().unwrap_err();
    assert!(is_constant_target(&err, "mse", "mse_targets"), "{err}");
    x.set_data(1.0);
    assert_eq!(tape.forward().unwrap(), expected.data());
}

// An input made a plain Value (it needs a gradient: a parameter, as far as the tape
// knows) and marked no_grad after compiling is an input from then on: another number
// in it is another sample, refused as well.
#[test]
fn an_input_marked_no_grad_after_compiling_is_watched_too() {
    let model = MLP::new(1, &[4, 1], &mut PythonRandom::seed(5));
    let x = Value::new(1.0);
    let pred = model.forward(std::slice::from_ref(&x)).unwrap();
    let mut tape = Tape::compile(&loss::mse(&pred, &[0.5]).unwrap()).unwrap();
    let x = x.no_grad();
    x.set_data(2.0);
    let err = tape.forward().unwrap_err();
    assert!(is_constant_target(&err, "mse", "mse_targets"), "{err}");
}

#[test]
fn every_loss_that_takes_a_number_names_its_value_form() {
    let z = [Value::new(0.1), Value::new(0.2)];
    let graphs = [
        (
            loss::svm_hinge(&z[..1], &[1.0]),
            "svm_hinge",
            "svm_hinge_targets",
        ),
        (
            loss::binary_cross_entropy_with_logits(&z[..1], &[1.0]),
            "binary_cross_entropy_with_logits",
            "binary_cross_entropy_with_logits_targets",
        ),
        (
            loss::softmax_cross_entropy(&z, 0),
            "softmax_cross_entropy",
            "softmax_cross_entropy_onehot",
        ),
        (
            loss::softmax_cross_entropy_mean(&[&z[..]], &[1]),
            "softmax_cross_entropy",
            "softmax_cross_entropy_onehot",
        ),
    ];
    for (graph, name, instead) in graphs {
        // (The loss inside a larger expression, as with a penalty added.)
        let total = graph.unwrap() + loss::l2(&z, 1e-4);
        let mut tape = Tape::compile(&total).unwrap();
        let feed = tape.inputs(&z).unwrap();
        let err = tape.evaluate_batch(&feed, &[[0.0, 0.0]], 1).unwrap_err();
        assert!(is_constant_target(&err, name, instead), "{err}");
    }
}

// A batch of samples whose inputs leave out the targets would train every sample toward
// the one target the tape holds: refused, naming the target, for each loss's `_targets`
// form. (One sample runs with the target the tape holds, as `set_data` left it.)
#[test]
fn a_batch_that_does_not_feed_the_targets_is_refused() {
    let z = data_leaves(2);
    let t = [Value::new(1.0).no_grad().with_label("y")];
    let onehot = [t[0].clone(), Value::new(0.0).no_grad()];
    let graphs = [
        (loss::mse_targets(&z[..1], &t), 1),
        (loss::svm_hinge_targets(&z[..1], &t), 1),
        (
            loss::binary_cross_entropy_with_logits_targets(&z[..1], &t),
            1,
        ),
        (loss::softmax_cross_entropy_onehot(&z, &onehot), 2),
    ];
    for (graph, n) in graphs {
        let w = Value::new(0.5);
        let mut tape = Tape::compile(&(graph.unwrap() * &w)).unwrap();
        let inputs_only = tape.inputs(&z[..n]).unwrap();
        let samples = [vec![0.5; n], vec![-1.0; n]];
        let err = tape.accumulate_batch(&inputs_only, &samples, 1);
        let err = err.unwrap_err().to_string();
        assert!(err.contains("\"y\" is a target"), "{err}");
        assert!(tape
            .accumulate_batch(&inputs_only, &samples[..1], 1)
            .is_ok());
        let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
        let mut training = tape.train(&mut opt, 1).unwrap();
        assert!(training.step(&inputs_only, &samples).is_err());
    }
    // (Fed with the inputs, the same batch runs.)
    let graph = loss::mse_targets(&z[..1], &t).unwrap() * Value::new(0.5);
    let mut tape = Tape::compile(&graph).unwrap();
    let feed = tape.inputs(&[z[0].clone(), t[0].clone()]).unwrap();
    assert_eq!(
        tape.accumulate_batch(&feed, &[[0.5, 1.0]], 1).unwrap(),
        [0.125]
    );
}

// --- 3. No stale reads, no lost writes ------------------------------------------------

/// A model, a tape of its squared error with the target as data, and its inputs.
fn regression_tape() -> (MLP, Tape, Inputs) {
    model_tape_from(9, Value::clone)
}

/// `regression_tape` from the weights of `seed`, the input `x` going into the model as
/// `input(x)`.
fn model_tape_from(seed: i128, input: impl Fn(&Value) -> Value) -> (MLP, Tape, Inputs) {
    let model = MLP::new(1, &[4, 1], &mut PythonRandom::seed(seed));
    let sample = data_leaves(2);
    let pred = model.forward(&[input(&sample[0])]).unwrap();
    let tape = Tape::compile(&loss::mse_targets(&pred, &sample[1..]).unwrap()).unwrap();
    let feed = tape.inputs(&sample).unwrap();
    (model, tape, feed)
}

#[test]
fn reading_a_model_while_a_training_holds_newer_numbers_is_an_error_naming_finish() {
    let (model, mut tape, feed) = regression_tape();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&feed, &[[1.0, 0.5]]).unwrap();
    let trained = training.params().to_vec();
    let path = std::env::temp_dir().join(format!("lesson34-{}.txt", std::process::id()));
    let errors = [
        model.forward_f64(&[1.0]).err(),
        model.forward(&[Value::new(1.0)]).err(),
        model.layers()[0].forward_f64(&[1.0]).err(),
        model.layers()[0].neurons()[0]
            .forward(&[Value::new(1.0)])
            .err(),
        model.save(&path).err(),
    ];
    for err in errors {
        let err = err.expect("the old numbers were read");
        assert!(err.to_string().contains("finish()"), "{err}");
    }
    assert!(!path.exists());
    training.finish();
    // After finish, the model reads the trained numbers.
    let now: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert_eq!(now, trained);
    assert!(model.forward_f64(&[1.0]).is_ok());
}

// Python: w.data = 42.0 in the middle of training stays 42.0
#[test]
fn a_write_made_while_a_training_lives_is_kept_by_finish() {
    let (model, mut tape, feed) = regression_tape();
    let w = model.parameters()[0].clone();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&feed, &[[1.0, 0.5]]).unwrap();
    let trained = training.params().to_vec();
    w.set_data(42.0);
    assert_eq!(w.data(), 42.0); // what finish will keep
    assert!(training.step(&feed, &[[1.0, 0.5]]).is_err(), "refused");
    training.finish();
    assert_eq!(w.data(), 42.0);
    // The other parameters got their trained numbers.
    let rest: Vec<f64> = model.parameters()[1..].iter().map(Value::data).collect();
    assert_eq!(rest, trained[1..]);
    // And the tape reads the write on its next run.
    let losses = tape.accumulate_batch(&feed, &[[1.0, 0.5]], 1).unwrap();
    let expected = loss::mse(&model.forward_f64(&[1.0]).unwrap(), &[0.5]).unwrap();
    assert_eq!(losses[0].to_bits(), expected.data().to_bits());
}

// Python: a second optimiser's step in the middle of training steps from the
// parameter's current number (p.data -= lr * p.grad), as the graph does.
#[test]
fn another_optimisers_step_while_a_training_lives_starts_from_the_trained_number() {
    let (model, mut tape, feed) = regression_tape();
    let b = model.parameters().last().unwrap().clone(); // the output's bias
    let before = b.data();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut other = Sgd::new(vec![b.clone()], 0.5).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&feed, &[[1.0, 0.5]]).unwrap();
    let trained = b.data();
    assert_ne!(trained, before);
    b.set_grad(1.0);
    other.step().unwrap();
    assert_eq!(b.data(), trained - 0.5 * 1.0);
    training.finish();
    assert_eq!(b.data(), trained - 0.5 * 1.0);
}

// A training leaked with std::mem::forget never ends: nothing is written, and the
// model keeps refusing to read its old numbers rather than compute with them.
#[test]
fn a_leaked_training_keeps_its_parameters_held() {
    let (model, mut tape, feed) = regression_tape();
    let before: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&feed, &[[1.0, 0.5]]).unwrap();
    let trained = training.params().to_vec();
    std::mem::forget(training);
    let now: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert_eq!(now, trained);
    assert_ne!(now, before);
    let err = model.forward_f64(&[1.0]).unwrap_err();
    assert!(err.to_string().contains("finish()"), "{err}");
}

/// Every parameter's `data()`, as bits.
fn data_bits(model: &MLP) -> Vec<u64> {
    model
        .parameters()
        .iter()
        .map(|p| p.data().to_bits())
        .collect()
}

/// Every parameter's number in the graph: `p * 1` is computed from the node's own data.
fn node_bits(model: &MLP) -> Vec<u64> {
    let node = |p: Value| (&p * 1.0).data().to_bits();
    model.parameters().into_iter().map(node).collect()
}

/// Each number's bits.
fn bits_of(numbers: &[f64]) -> Vec<u64> {
    numbers.iter().map(|x| x.to_bits()).collect()
}

// print(p) for p in model.parameters(), in the middle of training: the newest numbers
#[test]
fn a_parameters_data_during_a_training_is_what_finish_writes() {
    let (model, mut tape, feed) = regression_tape();
    let before = data_bits(&model);
    let mut opt = Adam::new(model.parameters(), 0.01).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    for _ in 0..3 {
        training.step(&feed, &[[1.0, 0.5], [-2.0, 0.25]]).unwrap();
    }
    let during = data_bits(&model);
    let shown: Vec<String> = model
        .parameters()
        .iter()
        .map(|p| format!("{p:?}"))
        .collect();
    training.finish();
    assert_ne!(during, before, "the steps moved the weights");
    assert_eq!(data_bits(&model), during);
    assert_eq!(node_bits(&model), during);
    // {:?} showed that data, beside the grad the node had (0: no backward before).
    for (p, shown) in model.parameters().iter().zip(shown) {
        assert_eq!(shown, format!("{:?}", Value::new(p.data())));
    }
}

// w = model.parameters()[1]; y = 2 / w; y.backward()   (with the newest w.data)
#[test]
fn a_graph_built_from_a_held_parameter_computes_with_the_training_numbers() {
    let (model, mut tape, feed) = regression_tape();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&feed, &[[1.0, 0.5], [-2.0, 0.25]]).unwrap();
    let params = model.parameters();
    let (b, w) = (&params[0], &params[1]);
    let (bd, wd) = (b.data(), w.data()); // the training's numbers
    let g0 = w.grad(); // (the grad its node had before the training)
    let y = 2.0 / w; // an f64 operand kept in its node
    y.backward();
    assert_eq!((y.data(), w.grad()), (2.0 / wd, g0 + -(2.0 / wd) / wd));
    let x = Value::new(3.0);
    let n = Value::neuron(
        b,
        std::slice::from_ref(w),
        std::slice::from_ref(&x),
        Activation::Linear,
    );
    let n = n.unwrap();
    n.backward();
    assert_eq!((n.data(), x.grad()), (0.0 + bd + wd * 3.0, wd));
    let z = w * w; // an op's method and its closure
    z.backward();
    assert_eq!(z.data(), wd * wd);
    training.finish();
}

#[test]
fn two_trainings_at_once_each_answer_for_their_own_parameters() {
    let (a, mut tape_a, feed_a) = model_tape_from(9, Value::clone);
    let (b, mut tape_b, feed_b) = model_tape_from(10, Value::clone);
    let (idle, _, _) = model_tape_from(11, Value::clone); // no training holds it
    let idle_before = data_bits(&idle);
    let mut opt_a = Sgd::new(a.parameters(), 0.1).unwrap();
    let mut opt_b = Sgd::new(b.parameters(), 0.05).unwrap();
    let mut training_a = tape_a.train(&mut opt_a, 1).unwrap();
    let mut training_b = tape_b.train(&mut opt_b, 1).unwrap();
    training_a.step(&feed_a, &[[1.0, 0.5]]).unwrap();
    training_b.step(&feed_b, &[[-1.0, 2.0]]).unwrap();
    training_a.step(&feed_a, &[[0.5, -0.5]]).unwrap();
    assert_eq!(data_bits(&a), bits_of(training_a.params()));
    assert_eq!(data_bits(&b), bits_of(training_b.params()));
    assert_eq!(data_bits(&idle), idle_before);
    assert!(idle.forward_f64(&[1.0]).is_ok());
    let b_trained = data_bits(&b);
    training_b.finish();
    assert_eq!(node_bits(&b), b_trained);
    assert_eq!(data_bits(&a), bits_of(training_a.params()));
    training_a.finish();
}

/// The input on which the op of `picky_tape` panics.
const PICKY: f64 = 1000.0;

/// `regression_tape` with the input going through an op of one's own that panics on
/// [`PICKY`].
fn picky_tape() -> (MLP, Tape, Inputs) {
    let picky = |p: &[f64]| match p[0] {
        PICKY => panic!("picky: {PICKY}"),
        x => x,
    };
    model_tape_from(9, |x| {
        Value::custom("picky", &[x], picky, |_, _, d| d[0] = 1.0)
    })
}

// A training that is dropped, by the end of its block or by a panic that leaves it,
// writes its numbers: data() reads them in the nodes, as the graph does.
#[test]
fn after_a_training_is_dropped_data_reads_what_the_drop_wrote() {
    for panics in [false, true] {
        let (model, mut tape, feed) = picky_tape();
        let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
        let mut stepped = Vec::new();
        let run = catch_unwind(AssertUnwindSafe(|| {
            let mut training = tape.train(&mut opt, 1).unwrap();
            training.step(&feed, &[[1.0, 0.5]]).unwrap();
            stepped = data_bits(&model);
            if panics {
                let _ = training.step(&feed, &[[PICKY, 0.5]]);
            }
        }));
        assert_eq!(run.is_err(), panics);
        assert_eq!(data_bits(&model), stepped);
        assert_eq!(node_bits(&model), stepped);
        assert!(model.forward_f64(&[1.0]).is_ok());
    }
}

// try: step(batch) except: pass — the step that panicked took no step
#[test]
fn after_a_step_panics_data_reads_the_last_finished_step() {
    let (model, mut tape, feed) = picky_tape();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&feed, &[[1.0, 0.5]]).unwrap();
    let stepped = data_bits(&model);
    let boom = catch_unwind(AssertUnwindSafe(|| training.step(&feed, &[[PICKY, 0.5]])));
    assert!(boom.is_err());
    assert_eq!(data_bits(&model), stepped);
    assert_eq!(bits_of(training.params()), stepped);
    training.finish();
    assert_eq!(node_bits(&model), stepped);
}

// --- 5. Several outputs, no loss --------------------------------------------------------

// logits = model(x): every output of the model, for inference
#[test]
fn a_tape_compiles_for_several_outputs_without_a_root() {
    let model = MLP::new(2, &[4, 3], &mut PythonRandom::seed(11));
    let x = data_leaves(2);
    let logits = model.forward(&x).unwrap();
    let mut tape = Tape::compile_outputs(&logits).unwrap();
    let feed = tape.inputs(&x).unwrap();
    let rows = [[0.5, -1.0], [2.0, 0.25]];
    let outputs = tape.evaluate_batch(&feed, &rows, 1).unwrap();
    for (row, got) in rows.iter().zip(outputs) {
        let expected: Vec<u64> = (model.forward_f64(row).unwrap().iter())
            .map(|z| z.data().to_bits())
            .collect();
        assert_eq!(
            got.iter().map(|z| z.to_bits()).collect::<Vec<_>>(),
            expected
        );
    }
}

#[test]
fn an_output_the_root_does_not_use_is_named_as_an_output() {
    let model = MLP::new(2, &[4, 3], &mut PythonRandom::seed(11));
    let logits = model.forward(&data_leaves(2)).unwrap();
    let err = Tape::compile_with_outputs(&logits[0], &logits)
        .err()
        .unwrap();
    assert!(matches!(err, Error::NotInGraph { index: 1, .. }), "{err}");
    assert!(err.to_string().starts_with("output 1"), "{err}");
}

// --- 4. Threads only where they pay -----------------------------------------------------

/// A tape of one sample of an MLP(nin, outs) with its targets as data.
fn model_tape(nin: usize, outs: &[usize]) -> Tape {
    let model = MLP::new(nin, outs, &mut PythonRandom::seed(1));
    let x = data_leaves(nin);
    let z = model.forward(&x).unwrap();
    let t = data_leaves(z.len());
    Tape::compile(&loss::softmax_cross_entropy_onehot(&z, &t).unwrap()).unwrap()
}

#[test]
fn a_small_models_batch_runs_on_one_thread_by_default() {
    // iris (4 -> 16 -> 3) and the 8x8 digits (64 -> 32 -> 10): sharing costs more
    assert_eq!(model_tape(4, &[16, 3]).threads_for(32), 1);
    assert_eq!(model_tape(64, &[32, 10]).threads_for(32), 1);
}

#[test]
fn a_large_models_batch_takes_the_cores_its_chunks_can_use() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let mnist = model_tape(784, &[32, 10]);
    // 32 samples are 4 chunks of tape::CHUNK: at most 4 threads share them.
    assert_eq!(mnist.threads_for(32), cores.min(4));
    // One chunk is one thread's, however much work it holds.
    let wide = model_tape(784, &[96, 10]);
    assert!(wide.threads_for(64) > 1 || cores == 1);
    assert_eq!(wide.threads_for(micrograd::tape::CHUNK), 1);
}

//! Lesson 27: one tape for a whole data set. Compile the graph of one sample, then run
//! it per sample with new inputs (`set_inputs` + `accumulate`), and hand the summed
//! gradients to the parameters once per batch (`flush_grads`).
//!
//! Python has no tape; the loop these tests mirror is micrograd's
//! `for x, y in batch: loss = ...; loss.backward()` (gradients add up in `p.grad`).

use approx::assert_relative_eq;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;
use micrograd::Pass;

/// Tape against dynamic graph, as in `24_tape_replays_the_graph.rs`.
const REL: f64 = 1e-12;

const SAMPLES: [([f64; 3], f64); 4] = [
    ([2.0, 3.0, -1.0], 1.0),
    ([3.0, -1.0, 0.5], -1.0),
    ([0.5, 1.0, 1.0], -1.0),
    ([1.0, 1.0, -1.0], 1.0),
];

/// The squared error of an MLP(3, [4, 4, 1]) on one sample.
fn squared_error(model: &MLP, x: &[Value], y: &Value) -> Value {
    (&model.forward(x).unwrap()[0] - y).powf(2.0)
}

// for x, y in zip(xs, ys): ((model(x) - y)**2).backward()
#[test]
fn accumulating_over_a_batch_gives_the_summed_gradients_of_the_dynamic_graph() {
    let model = MLP::new(3, &[4, 4, 1], &mut PythonRandom::seed(1337));
    let x: Vec<Value> = (0..3).map(|_| Value::new(0.0)).collect();
    let y = Value::new(0.0);
    let mut tape = Tape::compile(&squared_error(&model, &x, &y)).unwrap();
    let (x_in, y_in) = (tape.inputs(&x).unwrap(), tape.inputs(&[y]).unwrap());

    let mut tape_loss = 0.0;
    for (xs, ys) in SAMPLES {
        tape.set_inputs(&x_in, &xs).unwrap();
        tape.set_inputs(&y_in, &[ys]).unwrap();
        tape_loss += tape.accumulate().unwrap();
    }
    // Nothing reaches the parameters before the flush.
    assert!(model.parameters().iter().all(|p| p.grad() == 0.0));
    tape.flush_grads();
    let tape_grads: Vec<f64> = model.parameters().iter().map(Value::grad).collect();

    model.zero_grad();
    let mut loss = 0.0;
    for (xs, ys) in SAMPLES {
        let xs: Vec<Value> = xs.iter().map(|&v| Value::new(v)).collect();
        let out = squared_error(&model, &xs, &Value::new(ys));
        out.backward();
        loss += out.data();
    }
    assert_relative_eq!(tape_loss, loss, max_relative = REL);
    for (t, p) in tape_grads.iter().zip(model.parameters()) {
        assert_relative_eq!(*t, p.grad(), max_relative = REL, epsilon = 1e-15);
    }
}

#[test]
fn set_inputs_writes_the_tape_and_not_the_input_values() {
    let (w, x) = (Value::new(2.0), Value::new(1.0));
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
    tape.set_inputs(&input, &[5.0]).unwrap();
    assert_eq!(tape.accumulate().unwrap(), 10.0);
    assert_eq!(x.data(), 1.0);
    // forward() reads every leaf's Value again
    assert_eq!(tape.forward().unwrap(), 2.0);
}

#[test]
fn a_flush_hands_over_each_sum_once_and_backward_is_not_flushed_again() {
    let w = Value::new(3.0);
    let mut tape = Tape::compile(&(&w * &w)).unwrap();
    tape.backward().unwrap(); // adds 2w = 6 into w.grad
    tape.flush_grads(); // nothing accumulated: adds nothing
    assert_eq!(w.grad(), 6.0);
    tape.accumulate().unwrap(); // starts a new sum, not from backward's 6
    tape.accumulate().unwrap();
    assert_eq!(tape.grad_of(&w).unwrap(), 12.0);
    tape.flush_grads();
    tape.flush_grads();
    assert_eq!(w.grad(), 18.0);
}

#[test]
fn a_sample_of_the_wrong_width_or_inputs_of_another_tape_are_refused() {
    let x = [Value::new(1.0), Value::new(2.0)];
    let mut tape = Tape::compile(&(&x[0] * &x[1])).unwrap();
    let input = tape.inputs(&x).unwrap();
    let err = tape.set_inputs(&input, &[1.0]).unwrap_err();
    assert!(matches!(
        err,
        Error::InputWidth {
            expected: 2,
            got: 1
        }
    ));

    let other = Tape::compile(&(x[0].exp() + 1.0)).unwrap();
    let foreign = other.inputs(&x[..1]).unwrap();
    assert!(matches!(
        tape.set_inputs(&foreign, &[1.0]),
        Err(Error::InvalidInput(_))
    ));
    let inner = &x[0] + 1.0;
    assert!(matches!(
        tape.inputs(&[inner]),
        Err(Error::NotOnTape { .. })
    ));
}

// for x in []: loss(x).backward()   -- nothing happens
#[test]
fn an_empty_batch_changes_nothing() {
    let (w, x) = (Value::new(3.0), Value::new(2.0));
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
    tape.backward().unwrap();
    let none: &[[f64; 1]] = &[];
    assert_eq!(tape.accumulate_batch(&input, none, 2).unwrap(), []);
    assert_eq!(tape.grad_of(&w).unwrap(), 2.0); // still the last backward's
    tape.backward().unwrap(); // no sums wait for a flush
    assert_eq!(w.grad(), 4.0);
}

// A sample fills each input leaf with one number: a leaf listed twice would get the
// last one silently.
#[test]
fn a_leaf_listed_twice_as_inputs_is_refused_by_name() {
    let (w, x) = (Value::new(2.0), Value::new(0.0).with_label("x"));
    let tape = Tape::compile(&(&w * &x)).unwrap();
    let err = tape.inputs(&[x.clone(), w, x]).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)));
    assert!(
        err.to_string()
            .contains("\"x\" is listed twice (at 0 and 2)"),
        "{err}"
    );
}

#[test]
fn a_non_finite_gradient_drops_the_sums_and_touches_no_value() {
    let x = Value::new(4.0).with_label("x");
    let mut tape = Tape::compile(&x.sqrt()).unwrap();
    let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
    tape.accumulate().unwrap(); // d sqrt(x) / dx = 1/4
    tape.set_inputs(&input, &[0.0]).unwrap(); // d sqrt(x) / dx at 0 = inf
    let err = tape.accumulate().unwrap_err();
    assert!(matches!(
        err,
        Error::NonFinite {
            pass: Pass::Backward,
            op: "sqrt",
            ..
        }
    ));
    tape.flush_grads();
    assert_eq!(x.grad(), 0.0);
}

// A neuron's sum(b, w0*x0, w1*x1) is one instruction on the tape: the products are
// fused into the sum, with the same value.
#[test]
fn products_used_only_by_a_sum_are_fused_into_it() {
    let (w0, w1, b) = (Value::new(0.5), Value::new(-1.5), Value::new(0.25));
    let (x0, x1) = (Value::new(2.0), Value::new(3.0));
    let z: Value = [b.clone(), &w0 * &x0, &w1 * &x1].into_iter().sum();
    let tape = Tape::compile(&z).unwrap();
    assert_eq!(tape.node_count(), 6); // five leaves and the sum
    assert_eq!(tape.value(), z.data());

    // A product used twice, or labelled, stays a node of its own.
    let p = &w0 * &x0;
    let twice: Value = [p.clone(), p.clone()].into_iter().sum();
    assert_eq!(Tape::compile(&twice).unwrap().node_count(), 4);
    let labelled: Value = [(&w0 * &x0).with_label("p")].into_iter().sum();
    assert_eq!(Tape::compile(&labelled).unwrap().node_count(), 4);
}

#[test]
fn an_overflow_in_a_fused_product_is_reported_as_the_product() {
    let (w, x) = (Value::new(1.0), Value::new(1.0));
    let z: Value = [&w * &x, w.clone()].into_iter().sum();
    let mut tape = Tape::compile(&z).unwrap();
    w.set_data(1e200);
    x.set_data(1e200);
    let err = tape.forward().unwrap_err();
    assert!(
        matches!(err, Error::NonFinite { pass: Pass::Forward, op: "*", value, .. } if value == f64::INFINITY),
        "{err}"
    );
}

// scores = list(map(model, inputs)): the scores are inner nodes, read back as outputs
#[test]
fn outputs_are_read_after_each_run_even_a_product_that_would_be_fused() {
    let (w, x) = (Value::new(2.0), Value::new(1.0));
    let score = &w * &x;
    let total: Value = [score.clone(), w.clone()].into_iter().sum();
    let mut tape = Tape::compile_with_outputs(&total, std::slice::from_ref(&score)).unwrap();
    let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
    tape.set_inputs(&input, &[4.0]).unwrap();
    assert_eq!(tape.evaluate().unwrap(), 10.0);
    assert_eq!(tape.outputs().collect::<Vec<_>>(), [8.0]);

    let elsewhere = Value::new(1.0).exp().with_label("elsewhere");
    let err = Tape::compile_with_outputs(&total, &[elsewhere]).unwrap_err();
    assert!(matches!(err, Error::NotInGraph { index: 0, label: Some(ref l) } if l == "elsewhere"));
}

// relu(sum(b, w0*x0, ...)): a neuron with its activation is one instruction too.
#[test]
fn a_sum_used_only_by_an_activation_is_fused_into_it() {
    let (w, x, b) = (Value::new(0.5), Value::new(2.0), Value::new(-3.0));
    let z: Value = [b.clone(), &w * &x].into_iter().sum();
    let mut tape = Tape::compile(&z.relu()).unwrap();
    assert_eq!(tape.node_count(), 4); // three leaves and relu(sum)
    assert_eq!(tape.forward().unwrap(), 0.0);
    tape.backward().unwrap();
    assert_eq!(w.grad(), 0.0); // relu'(-2) = 0

    // exp(sum(..)) overflowing is the exp's doing, not the sum's
    let mut tape = Tape::compile(&z.exp().with_label("e")).unwrap();
    b.set_data(800.0);
    let err = tape.forward().unwrap_err();
    assert!(
        matches!(err, Error::NonFinite { op: "exp", label: Some(ref l), .. } if l == "e"),
        "{err}"
    );
}

#[test]
fn a_non_finite_input_is_reported_until_it_is_overwritten() {
    let (w, x) = (Value::new(2.0), Value::new(1.0).with_label("x"));
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
    tape.set_inputs(&input, &[f64::NAN]).unwrap();
    let err = tape.accumulate().unwrap_err();
    assert!(matches!(err, Error::NonFinite { op: "", label: Some(ref l), .. } if l == "x"));
    tape.set_inputs(&input, &[3.0]).unwrap();
    assert_eq!(tape.accumulate().unwrap(), 6.0);
}

/// Runs `tape` forward and backward and the dynamic graph `out` backward, from zeroed
/// gradients: the value must be `out`'s bit for bit, and every parameter's gradient the
/// same to 1e-12.
fn assert_tape_equals_dynamic(tape: &mut Tape, model: &MLP, out: &Value) {
    model.zero_grad();
    assert_eq!(tape.forward().unwrap(), out.data());
    tape.backward().unwrap();
    let tape_grads: Vec<f64> = model.parameters().iter().map(Value::grad).collect();
    model.zero_grad();
    out.backward();
    for (t, p) in tape_grads.iter().zip(model.parameters()) {
        assert_relative_eq!(*t, p.grad(), max_relative = REL, epsilon = 1e-15);
    }
}

// Long sums (here 8 neurons of 71 terms) are computed four at a time on the tape; each
// is still added up left to right, so the value is the dynamic graph's, bit for bit.
#[test]
fn wide_layers_give_the_dynamic_graphs_value_exactly() {
    let model = MLP::new(70, &[8, 1], &mut PythonRandom::seed(7));
    let x: Vec<f64> = (0..70).map(|i| (i as f64 * 0.37).sin()).collect();
    let out = model.forward_f64(&x).unwrap().remove(0);
    let mut tape = Tape::compile(&out).unwrap();
    assert_tape_equals_dynamic(&mut tape, &model, &out);
}

/// An MLP(3, [20, 16, 1]): layers wide enough for the tape to add up sixteen neurons
/// together.
fn wide_model() -> MLP {
    MLP::new(3, &[20, 16, 1], &mut PythonRandom::seed(11))
}

// Sixteen neurons that read the same inputs are added up together on the tape, from a
// copy of their weights; each sum is still added left to right, so the value is the
// dynamic graph's, bit for bit, also after the parameters change.
#[test]
fn layers_added_up_together_give_the_dynamic_graphs_value_exactly() {
    let (model, x) = (wide_model(), [0.5, -1.5, 2.0]);
    let mut tape = Tape::compile(&model.forward_f64(&x).unwrap()[0]).unwrap();
    for p in model.parameters() {
        p.set_data(p.data() * 0.9 + 0.01);
    }
    let out = model.forward_f64(&x).unwrap().remove(0);
    assert_tape_equals_dynamic(&mut tape, &model, &out);
}

// The copy of the weights follows the tape's data also when the weights are inputs
// written with `set_inputs`.
#[test]
fn weights_written_as_inputs_reach_the_layers() {
    let (model, x) = (wide_model(), [0.5, -1.5, 2.0]);
    let mut tape = Tape::compile(&model.forward_f64(&x).unwrap()[0]).unwrap();
    let weights = tape.inputs(&model.parameters()).unwrap();
    let halved: Vec<f64> = model.parameters().iter().map(|p| p.data() / 2.0).collect();
    tape.set_inputs(&weights, &halved).unwrap();
    let value = tape.evaluate().unwrap();
    for (p, h) in model.parameters().iter().zip(&halved) {
        p.set_data(*h);
    }
    assert_eq!(value, model.forward_f64(&x).unwrap()[0].data());
}

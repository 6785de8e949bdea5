//! Lesson 28: the tape never silently disagrees with the graph. Each test here is a way
//! a fast path once went quietly wrong (issue 8), written as the smallest program that
//! showed it: the tape must give the dynamic graph's numbers, or an error saying what to
//! do.
//!
//! Python has no tape; the dynamic graph each test compares against is micrograd's.

use micrograd::prelude::*;
use micrograd::tape::Tape;
use micrograd::Pass;

/// Sixteen sums that share their second factor `w` become one layer of the tape; their
/// first factors `x_j.exp()` are inner nodes, computed in the same forward pass.
fn sixteen_sums_of_inner_first_factors(x: &[Value], w: &Value) -> Value {
    x.iter()
        .map(|x| [x.exp() * w].into_iter().sum::<Value>())
        .sum()
}

// root = sum(sum([x.exp() * w]) for x in xs), with every x changed after compiling
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
    let input = tape.inputs(&[x.clone()]).unwrap();
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

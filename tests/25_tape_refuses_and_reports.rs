//! Lesson 25: what a tape refuses, and how it reports NaN and infinity.
//!
//! Python micrograd has none of these checks: a NaN spreads silently there.

use micrograd::tape::Tape;
use micrograd::{Error, Pass, Value};

#[test]
fn a_leaf_cannot_be_compiled() {
    let x = Value::new(1.0).with_label("x");
    let err = Tape::compile(&x).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)));
    assert!(
        err.to_string().contains("leaf value (label \"x\")"),
        "{err}"
    );
}

#[test]
fn asking_about_a_value_that_is_not_a_leaf_of_the_tape_is_an_error() {
    let x = Value::new(1.0);
    let y = (&x * 2.0).with_label("y");
    let tape = Tape::compile(&(&y + 1.0)).unwrap();
    let foreign = Value::new(1.0).with_label("w");
    let err = tape.grad_of(&foreign).unwrap_err();
    assert!(matches!(&err, Error::NotOnTape { label: Some(l) } if l == "w"));
    assert!(err.to_string().contains("not a leaf of this tape"), "{err}");
    // an inner node is on the graph but has no handle in the tape
    assert!(matches!(tape.grad_of(&y), Err(Error::NotOnTape { .. })));
    assert!(tape.grad_of(&x).is_ok());
}

#[test]
fn a_nan_in_the_forward_pass_names_the_op_that_made_it() {
    let x = Value::new(1.0).with_label("x");
    let y = x.sqrt().with_label("root of x");
    let mut tape = Tape::compile(&(&y * 2.0 + 1.0)).unwrap();
    x.set_data(-1.0);
    let err = tape.forward().unwrap_err();
    match &err {
        Error::NonFinite {
            pass: Pass::Forward,
            op: "sqrt",
            label: Some(label),
            value,
        } => assert!(label == "root of x" && value.is_nan()),
        other => panic!("wrong error: {other:?}"),
    }
    // backward refuses to differentiate those values, and leaves the grads alone
    assert!(matches!(
        tape.backward(),
        Err(Error::NonFinite {
            pass: Pass::Forward,
            ..
        })
    ));
    assert_eq!(x.grad(), 0.0);
    // a good input makes the tape usable again
    x.set_data(4.0);
    assert_eq!(tape.forward().unwrap(), 5.0);
    assert!(tape.backward().is_ok());
}

#[test]
fn a_leaf_holding_infinity_is_reported_as_the_leaf() {
    let x = Value::new(1.0).with_label("x");
    let mut tape = Tape::compile(&x.tanh()).unwrap();
    x.set_data(f64::INFINITY); // tanh(inf) = 1 is finite, the leaf itself is not
    let err = tape.forward().unwrap_err();
    assert!(matches!(err, Error::NonFinite { op: "", label: Some(ref l), .. } if l == "x"));
}

// x.label = 'x' after compiling: the tape holds the leaf, and names it as the graph does
// (an inner node's label is the one it had at compile time: the tape holds no handle).
#[test]
fn a_label_given_to_a_leaf_after_compiling_is_in_the_tapes_errors() {
    let x = Value::new(1.0);
    let mut tape = Tape::compile(&x.tanh()).unwrap();
    let inputs = tape.inputs(std::slice::from_ref(&x)).unwrap();
    let x = x.with_label("x");
    let graph = Value::new(f64::INFINITY).with_label("x").tanh();
    let graph = graph.try_backward().unwrap_err().to_string();
    let batch = tape.accumulate_batch(&inputs, &[[f64::INFINITY]], 1);
    assert_eq!(batch.unwrap_err().to_string(), graph);
    x.set_data(f64::INFINITY);
    assert_eq!(tape.forward().unwrap_err().to_string(), graph);
    assert!(graph.contains("\"x\""), "{graph}");
}

#[test]
fn an_infinite_gradient_names_the_op_whose_rule_made_it() {
    // d sqrt(x) / dx = 1 / (2 sqrt(x)) is infinite at 0, although sqrt(0) = 0 is not
    let x = Value::new(0.0).with_label("x");
    let y = x.sqrt().with_label("y");
    let mut tape = Tape::compile(&(&y * 3.0)).unwrap();
    let err = tape.backward().unwrap_err();
    match err {
        Error::NonFinite {
            pass: Pass::Backward,
            op: "sqrt",
            label,
            value,
        } => assert!(label.as_deref() == Some("y") && value == f64::INFINITY),
        other => panic!("wrong error: {other:?}"),
    }
    assert_eq!(x.grad(), 0.0); // nothing handed back to the leaves
}

#[test]
fn the_dynamic_engine_reports_the_same_op() {
    let x = Value::new(0.0).with_label("x");
    let y = x.sqrt().with_label("y") * 3.0;
    let taped = Tape::compile(&y).unwrap().backward().unwrap_err();
    let dynamic = y.try_backward().unwrap_err();
    assert_eq!(taped.to_string(), dynamic.to_string());
}

#[test]
fn an_infinite_gradient_is_found_even_when_a_zero_derivative_follows() {
    // sqrt's rule puts inf on (x * 0); that node's rule then gives x 0 * inf = NaN
    let x = Value::new(1.0);
    let y = (&x * 0.0).sqrt().with_label("y");
    let mut tape = Tape::compile(&y).unwrap();
    let err = tape.backward().unwrap_err();
    assert!(matches!(
        err,
        Error::NonFinite {
            pass: Pass::Backward,
            op: "sqrt",
            ..
        }
    ));
}

// The tape checks the gradients it writes cheaply (their sum over a run must be finite)
// and, when that sum is not, looks at every leaf's gradient before it calls anything an
// error: large gradients that are each finite are no error, as in the dynamic graph.
#[test]
fn large_finite_gradients_whose_sum_overflows_are_no_error() {
    let w: Vec<Value> = (0..8).map(|_| Value::new(1e-10)).collect();
    let x: Vec<Value> = (0..8).map(|_| Value::new(1e308)).collect();
    let loss: Value = w.iter().zip(&x).map(|(w, x)| w * x).sum();
    loss.try_backward().unwrap();
    let graph: Vec<f64> = w.iter().chain(&x).map(Value::grad).collect();
    assert_eq!(graph[0], 1e308); // d loss / d w0 = x0

    let mut tape = Tape::compile(&loss).unwrap();
    for v in w.iter().chain(&x) {
        v.zero_grad();
    }
    tape.forward().unwrap();
    tape.backward().unwrap();
    let taped: Vec<f64> = w.iter().chain(&x).map(Value::grad).collect();
    assert_eq!(taped, graph);
    tape.accumulate().unwrap();
    assert_eq!(tape.grad_of(&w[7]).unwrap(), 1e308);
}

#[test]
fn backward_refused_for_a_forward_error_changes_nothing() {
    let x = Value::new(4.0);
    let mut tape = Tape::compile(&x.sqrt()).unwrap();
    tape.backward().unwrap();
    x.set_grad(7.0);
    x.set_data(-1.0);
    assert!(tape.forward().is_err());
    assert!(tape.backward().is_err());
    // still the pass that succeeded (d sqrt(x) / dx at 4), not x's grad
    assert_eq!(
        (tape.leaf_grads(), tape.grad_of(&x).unwrap()),
        (&[0.25][..], 0.25)
    );
    assert_eq!(x.grad(), 7.0);
}

#[test]
fn after_a_gradient_error_grad_of_agrees_with_leaf_grads() {
    let x = Value::new(1.0);
    let mut tape = Tape::compile(&x.sqrt()).unwrap();
    x.set_grad(1.0); // (not 0: grad_of then runs the pass again on its own)
    tape.backward().unwrap();
    x.set_data(0.0); // d sqrt(x) / dx is infinite at 0
    tape.forward().unwrap();
    assert!(tape.backward().is_err());
    assert_eq!(
        (tape.leaf_grads(), tape.grad_of(&x).unwrap()),
        (&[0.0][..], 0.0)
    );
}

// A custom op whose closure panics on some data: the panic reaches the caller, and the
// tape, which holds values of two runs, refuses to differentiate them.
#[test]
fn backward_after_a_forward_that_panicked_is_an_error_until_a_forward_finishes() {
    let x = Value::new(1.0);
    let twice = |p: &[f64]| {
        if p[0] > 5.0 {
            panic!("too big")
        } else {
            2.0 * p[0]
        }
    };
    let c = Value::custom("twice", &[&x], twice, |_, _, d| d[0] = 2.0);
    let mut tape = Tape::compile(&(&(&x * &x) + &c)).unwrap();
    x.set_data(10.0);
    let forward = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tape.forward()));
    assert!(forward.is_err());
    let err = tape.backward().unwrap_err();
    assert!(
        err.to_string().contains("call tape.forward() again"),
        "{err}"
    );
    assert_eq!(x.grad(), 0.0);
    x.set_data(2.0);
    assert_eq!(tape.forward().unwrap(), 8.0);
    tape.backward().unwrap();
    assert_eq!(x.grad(), 6.0); // 2x + 2
}

// After a forward that panicked, the root and the outputs are of no one run: NaN (no
// number) until a forward finishes, not the last run's numbers.
#[test]
fn value_and_outputs_after_a_forward_that_panicked_are_nan_until_a_forward_finishes() {
    let x = Value::new(1.0);
    let picky = |p: &[f64]| match p[0] {
        x if x > 5.0 => panic!("too big"),
        x => x,
    };
    let y = &x * 3.0;
    let c = Value::custom("picky", &[&x], picky, |_, _, d| d[0] = 1.0);
    let mut tape = Tape::compile_with_outputs(&(&y + &c), std::slice::from_ref(&y)).unwrap();
    x.set_data(10.0);
    let forward = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tape.forward()));
    assert!(forward.is_err());
    assert!(tape.value().is_nan());
    assert!(tape.outputs().all(f64::is_nan));
    x.set_data(2.0);
    assert_eq!(tape.forward().unwrap(), 8.0);
    assert_eq!((tape.value(), tape.outputs().next()), (8.0, Some(6.0)));
}

// A custom op whose gradient closure panics: the panic reaches the caller, no leaf
// `Value` is touched, and the tape's gradients are refused until a backward finishes.
#[test]
fn grad_of_after_a_backward_that_panicked_is_an_error_until_a_backward_finishes() {
    let x = Value::new(1.0);
    let slope = |p: &[f64], _: f64, d: &mut [f64]| match p[0] {
        x if x > 5.0 => panic!("too steep"),
        _ => d[0] = 2.0,
    };
    let c = Value::custom("twice", &[&x], |p| 2.0 * p[0], slope);
    let mut tape = Tape::compile(&(&(&x * &x) + &c)).unwrap();
    tape.backward().unwrap();
    x.zero_grad();
    x.set_data(10.0);
    tape.forward().unwrap();
    let backward = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tape.backward()));
    assert!(backward.is_err());
    let err = tape.grad_of(&x).unwrap_err();
    assert!(
        err.to_string().contains("run tape.backward() again"),
        "{err}"
    );
    assert_eq!(tape.leaf_grads(), [0.0]); // as after a backward that failed
    assert_eq!(x.grad(), 0.0);
    x.set_data(2.0);
    tape.forward().unwrap();
    tape.backward().unwrap();
    assert_eq!((tape.grad_of(&x).unwrap(), x.grad()), (6.0, 6.0)); // 2x + 2
}

// tape.set_inputs(..) writes a new sample into the tape's leaves for accumulate(); the
// values are still the last run's: a backward then would differentiate neither sample.
#[test]
fn a_backward_after_set_inputs_without_a_forward_is_refused() {
    let (w, x) = (Value::new(0.5), Value::new(1.0).no_grad());
    let mut tape = Tape::compile(&(&w * &x).tanh()).unwrap();
    let input = tape.inputs(&[x]).unwrap();
    tape.set_inputs(&input, &[3.0]).unwrap();
    let err = tape.backward().unwrap_err().to_string();
    assert!(
        err.contains("set_inputs") && err.contains("accumulate"),
        "{err}"
    );
    assert_eq!(w.grad(), 0.0);
    tape.accumulate().unwrap();
    tape.flush_grads();
    assert_eq!(w.grad(), 3.0 * (1.0 - (0.5f64 * 3.0).tanh().powi(2)));
}

// A tape compiled while another tape's Training holds newer numbers for a parameter
// has that parameter's number from before the training: its backward is refused, as
// its forward is.
#[test]
fn a_backward_of_a_tape_whose_parameter_a_training_holds_is_refused() {
    use micrograd::optim::{Optimizer, Sgd};
    let (w, x) = (Value::new(0.5), Value::new(1.0).no_grad());
    let mut tape = Tape::compile(&(&w * &x).tanh()).unwrap();
    let input = tape.inputs(&[x]).unwrap();
    let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&input, &[[1.0]]).unwrap();
    let other = Tape::compile(&(&w * 2.0).tanh());
    let mut other = other.unwrap();
    assert!(other.forward().is_err());
    assert!(other.backward().is_err());
    training.finish();
    w.zero_grad();
    other.forward().unwrap();
    other.backward().unwrap();
    assert_eq!(
        opt.params()[0].grad(),
        2.0 * (1.0 - (w.data() * 2.0).tanh().powi(2))
    );
}

// x.requires_grad = False; y = x * 2.0; two = the 2.0 (y.parents()[1]); root = y + two * w:
// y needs no gradient, so in the graph its rule never runs and adds nothing to two's;
// a tape runs every rule, so it refuses, and says what to do
#[test]
fn the_operand_leaf_of_a_node_needing_no_gradient_read_further_is_refused() {
    let (x, w) = (Value::new(3.0).no_grad(), Value::new(5.0));
    let y = &x * 2.0;
    let two = y.parents()[1].clone();
    let root = &y + &(&two * &w);
    let err = Tape::compile(&root).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    assert!(err.to_string().contains("Value::new(2)"), "{err}");
    assert!(!err.to_string().contains("  "), "{err}");
    // Read by no other node, the leaf is the tape's constant as it is the graph's.
    let root = &(&x * 2.0) + &w;
    assert!(Tape::compile(&root).is_ok());
}

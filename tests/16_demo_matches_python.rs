//! Lesson 16: micrograd's `demo.ipynb`, reproduced number for number: the same initial
//! weights from `random.seed(1337)`, and the same loss and accuracy at every one of the
//! 100 SGD steps.
//!
//! The expected numbers are the `init` line and the 100 `step` lines of
//! `micrograd_demo_trace.txt`, which `micrograd_demo_trace.py` printed with Python
//! micrograd 0.1.0 (both in the project's shared reference directory, described in its
//! README). They are copied into `tests/common/demo_trace.rs` so the test needs nothing
//! outside the repository.

use micrograd::data::{moons100, Dataset};
use micrograd::loss;
use micrograd::optim::Schedule;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;

#[path = "common/demo_trace.rs"]
mod demo_trace;
use demo_trace::{INIT, TRACE};

/// The notebook's `loss()`: SVM max-margin loss plus L2 regularisation, and accuracy.
///
/// ```python
/// inputs = [list(map(Value, xrow)) for xrow in X]
/// scores = list(map(model, inputs))
/// losses = [(1 + -yi*scorei).relu() for yi, scorei in zip(yb, scores)]
/// data_loss = sum(losses) * (1.0 / len(losses))
/// reg_loss = alpha * sum((p*p for p in model.parameters()))
/// total_loss = data_loss + reg_loss
/// accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(yb, scores)]
/// return total_loss, sum(accuracy) / len(accuracy)
/// ```
fn loss(model: &MLP, data: &Dataset) -> Result<(Value, f64), Error> {
    let mut scores = Vec::with_capacity(data.len());
    for x in &data.inputs {
        scores.push(model.forward_f64(x)?[0].clone());
    }
    let losses: Vec<Value> = data
        .labels
        .iter()
        .zip(&scores)
        .map(|(&yi, si)| (1.0 + -yi * si).relu())
        .collect();
    let data_loss = losses.iter().sum::<Value>() * (1.0 / losses.len() as f64);
    let alpha = 1e-4;
    let reg_loss = alpha * model.parameters().iter().map(|p| p * p).sum::<Value>();
    let total = data_loss + reg_loss;
    let correct = data
        .labels
        .iter()
        .zip(&scores)
        .filter(|(&yi, si)| (yi > 0.0) == (si.data() > 0.0))
        .count();
    Ok((total, correct as f64 / scores.len() as f64))
}

// Python: random.seed(1337); model = MLP(2, [16, 16, 1]); model.parameters()[:5]
#[test]
fn the_seeded_model_starts_with_pythons_weights() {
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let first: Vec<f64> = model.parameters()[..5].iter().map(Value::data).collect();
    assert_eq!(first, INIT);
    assert_eq!(model.num_parameters(), 337);
}

// Python (the notebook's training loop):
//   for k in range(100):
//       total_loss, acc = loss()
//       model.zero_grad(); total_loss.backward()
//       learning_rate = 1.0 - 0.9*k/100
//       for p in model.parameters(): p.data -= learning_rate * p.grad
#[test]
fn every_training_step_matches_the_python_trace() -> Result<(), Error> {
    let data = moons100();
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    for (k, &(want_loss, want_accuracy)) in TRACE.iter().enumerate() {
        let (total, accuracy) = loss(&model, &data)?;
        // Python's backward visits children in set order, so gradients may be summed in a
        // different order: allow last-bit differences, nothing more.
        let relative = (total.data() - want_loss).abs() / want_loss.abs();
        assert!(
            relative < 1e-9,
            "step {k}: loss {} but Python's is {want_loss}",
            total.data()
        );
        assert_eq!(accuracy * 100.0, want_accuracy, "step {k}: accuracy");
        model.zero_grad();
        total.backward();
        let lr = 1.0 - 0.9 * k as f64 / 100.0;
        for p in model.parameters() {
            p.set_data(p.data() - lr * p.grad());
        }
    }
    Ok(())
}

// The same training loop through the library's loss and optimiser APIs:
//   losses = [(1 + -yi*scorei).relu() ...]; data_loss = sum(losses) * (1.0 / len(losses))
//   reg_loss = alpha * sum((p*p for p in model.parameters()))
//   learning_rate = 1.0 - 0.9*k/100; p.data -= learning_rate * p.grad
#[test]
fn svm_hinge_l2_and_scheduled_sgd_reproduce_the_python_trace() -> Result<(), Error> {
    let data = moons100();
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let mut sgd = Sgd::new(model.parameters(), 1.0)?;
    let schedule = Schedule::linear(1.0, 0.1, 100)?;
    for (k, &(want_loss, want_accuracy)) in TRACE.iter().enumerate() {
        let mut scores = Vec::with_capacity(data.len());
        for x in &data.inputs {
            scores.push(model.forward_f64(x)?[0].clone());
        }
        let total = loss::svm_hinge(&scores, &data.labels)? + loss::l2(&model.parameters(), 1e-4);
        let relative = (total.data() - want_loss).abs() / want_loss.abs();
        assert!(
            relative < 1e-9,
            "step {k}: loss {} but Python's is {want_loss}",
            total.data()
        );
        let accuracy = loss::binary_accuracy(&scores, &data.labels)?;
        assert_eq!(accuracy * 100.0, want_accuracy, "step {k}: accuracy");
        sgd.zero_grad();
        total.backward();
        schedule.apply(&mut sgd, k)?;
        sgd.step()?;
    }
    Ok(())
}

//! Lesson 26: training micrograd's demo through a compiled tape gives the same losses,
//! step by step, as the dynamic graph (and as Python micrograd).
//!
//! The graph of the notebook's loss is built once and compiled; each step then runs
//! `forward`, `zero_grad`, `backward` and the SGD update on the tape. The parameters are
//! leaves of the tape, so the optimiser updates them through their `Value`s as usual.

use micrograd::data::{moons100, Dataset};
use micrograd::loss::{l2, svm_hinge};
use micrograd::optim::Schedule;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;

#[path = "common/demo_trace.rs"]
mod demo_trace;
use demo_trace::{INIT, TRACE};

/// The tape against the dynamic graph: the same arithmetic, gradients possibly added up
/// in another order.
const REL_DYNAMIC: f64 = 1e-12;
/// Against Python's printed losses, as in `16_demo_matches_python.rs`.
const REL_PYTHON: f64 = 1e-9;

/// The notebook's loss: `svm_hinge` of the scores plus `l2` with alpha = 1e-4.
///
/// ```python
/// losses = [(1 + -yi*scorei).relu() for yi, scorei in zip(yb, scores)]
/// data_loss = sum(losses) * (1.0 / len(losses))
/// reg_loss = alpha * sum((p*p for p in model.parameters()))
/// ```
fn notebook_loss(model: &MLP, data: &Dataset) -> Result<Value, Error> {
    let mut scores = Vec::with_capacity(data.len());
    for x in &data.inputs {
        scores.push(model.forward_f64(x)?.remove(0));
    }
    Ok(svm_hinge(&scores, &data.labels)? + l2(&model.parameters(), 1e-4))
}

fn relative(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs()
}

// Python (the notebook's training loop), run once through the tape and once with a
// graph built anew each step:
//   for k in range(100):
//       total_loss, acc = loss()
//       model.zero_grad(); total_loss.backward()
//       learning_rate = 1.0 - 0.9*k/100
//       for p in model.parameters(): p.data -= learning_rate * p.grad
#[test]
fn training_through_the_tape_gives_the_dynamic_graphs_losses() -> Result<(), Error> {
    let data = moons100();
    let schedule = Schedule::linear(1.0, 0.1, 100)?;

    let taped = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let first: Vec<f64> = taped.parameters()[..5].iter().map(Value::data).collect();
    assert_eq!(first, INIT, "the model starts from Python's weights");
    let mut tape = Tape::compile(&notebook_loss(&taped, &data)?)?;
    let mut taped_opt = Sgd::new(taped.parameters(), 1.0)?;

    let dynamic = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let mut dynamic_opt = Sgd::new(dynamic.parameters(), 1.0)?;

    for (k, &(python_loss, _)) in TRACE.iter().enumerate() {
        let tape_loss = tape.forward()?;
        taped_opt.zero_grad();
        tape.backward()?;
        schedule.apply(&mut taped_opt, k)?;
        taped_opt.step()?;

        let total = notebook_loss(&dynamic, &data)?;
        dynamic_opt.zero_grad();
        total.backward();
        schedule.apply(&mut dynamic_opt, k)?;
        dynamic_opt.step()?;

        let dynamic_loss = total.data();
        assert!(
            relative(tape_loss, dynamic_loss) < REL_DYNAMIC,
            "step {k}: tape loss {tape_loss}, dynamic loss {dynamic_loss}"
        );
        assert!(
            relative(tape_loss, python_loss) < REL_PYTHON,
            "step {k}: tape loss {tape_loss}, Python's {python_loss}"
        );
    }
    for (p, q) in taped.parameters().iter().zip(&dynamic.parameters()) {
        assert!((p.data() - q.data()).abs() <= REL_DYNAMIC * q.data().abs().max(1.0));
    }
    Ok(())
}

// Neuron.parameters(): return self.w + [self.b]   (and MLP's, layer after layer)
// A neuron reads its bias first, but the tape stores the parameters it reads in the
// order of parameters(), so that an optimiser's step moves them to and from the tape
// as slices, not one by one.
#[test]
fn the_tape_stores_a_models_parameters_in_the_order_of_parameters() -> Result<(), Error> {
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let tape = Tape::compile(&notebook_loss(&model, &moons100())?)?;
    let place = |p: &Value| tape.leaves().iter().position(|l| Value::ptr_eq(l, p));
    let places: Option<Vec<usize>> = model.parameters().iter().map(place).collect();
    let places = places.expect("every parameter is a leaf of the tape");
    assert!(places.windows(2).all(|w| w[0] < w[1]), "{places:?}");
    Ok(())
}

//! micrograd's `demo.ipynb`, reproduced number for number: the same initial weights from
//! `random.seed(1337)`, and the same loss and accuracy at every one of the 100 SGD steps.
//!
//! The expected numbers are the `init` line and the 100 `step` lines of
//! `micrograd_demo_trace.txt`, which `micrograd_demo_trace.py` printed with Python
//! micrograd 0.1.0 (both in the project's shared reference directory, described in its
//! README). They are copied here so the test needs nothing outside the repository.

use micrograd::data::{moons100, Dataset};
use micrograd::loss;
use micrograd::optim::Schedule;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;

/// Python: `print("init", " ".join(repr(p.data) for p in model.parameters()[:5]))`
/// after `random.seed(1337); model = MLP(2, [16, 16, 1])` (neuron 0's two weights and
/// its bias 0, then neuron 1's two weights).
const INIT: [f64; 5] = [
    0.23550571390294128,
    0.06653114721000164,
    0.0,
    -0.26830328150124894,
    0.1715747078045431,
];

/// `(total.data, acc * 100)` before the update of each step k = 0..100, from
/// `print(f"step {k} loss {total.data!r} accuracy {acc*100}%")`.
const TRACE: [(f64, f64); 100] = [
    (0.8958441028683222, 50.0),
    (1.723590533697202, 81.0),
    (0.7429006313851131, 77.0),
    (0.7705641260584198, 82.0),
    (0.3692793385976537, 84.0),
    (0.31354548191852205, 86.0),
    (0.28142343497724337, 89.0),
    (0.26888733313983904, 91.0),
    (0.2567147286057417, 91.0),
    (0.27048625516379227, 91.0),
    (0.24507023853658053, 91.0),
    (0.25099055297915024, 92.0),
    (0.2156095185192295, 91.0),
    (0.23090378446402723, 93.0),
    (0.20152151227899456, 92.0),
    (0.22574506279282203, 93.0),
    (0.1944798759620413, 92.0),
    (0.21089496199246344, 93.0),
    (0.1598307735630362, 94.0),
    (0.18453748746883897, 93.0),
    (0.18977522856087659, 91.0),
    (0.19072704042579627, 93.0),
    (0.11733695088756486, 97.0),
    (0.12173524408232442, 95.0),
    (0.12615712612770474, 95.0),
    (0.16049097780801666, 95.0),
    (0.18747197705245827, 92.0),
    (0.1674183789105939, 95.0),
    (0.09586583491455386, 97.0),
    (0.08778783707420926, 96.0),
    (0.11731297569011838, 95.0),
    (0.09340146460619851, 97.0),
    (0.12454454903103439, 95.0),
    (0.07984002652777275, 97.0),
    (0.0772751923292166, 97.0),
    (0.07661250143094495, 98.0),
    (0.1061049237919836, 96.0),
    (0.09062808429265988, 99.0),
    (0.10671887043036918, 95.0),
    (0.05225659921975839, 98.0),
    (0.060160098952344795, 100.0),
    (0.0859672453333393, 96.0),
    (0.05112107943179605, 99.0),
    (0.052401424016428166, 97.0),
    (0.04530684179001592, 100.0),
    (0.07211073370655083, 97.0),
    (0.033342386513102285, 99.0),
    (0.031432227957511355, 100.0),
    (0.03658536747111495, 99.0),
    (0.04829139382390349, 99.0),
    (0.09875114765619603, 96.0),
    (0.05449063965875436, 99.0),
    (0.0339267943570833, 100.0),
    (0.05261517263568427, 97.0),
    (0.03250295251424905, 99.0),
    (0.028883273872078466, 100.0),
    (0.041391511040272236, 98.0),
    (0.01898740742612858, 100.0),
    (0.02523833523883728, 100.0),
    (0.02079656521341912, 100.0),
    (0.03259711157810215, 99.0),
    (0.017863351693480394, 100.0),
    (0.023008717832211614, 100.0),
    (0.022079325463581656, 100.0),
    (0.029432917853529507, 99.0),
    (0.016251514644092083, 100.0),
    (0.0284685344832643, 99.0),
    (0.013994365546208726, 100.0),
    (0.01555234484365163, 100.0),
    (0.033891199461601525, 99.0),
    (0.014229870065926901, 100.0),
    (0.01325528158328549, 100.0),
    (0.012300277590022045, 100.0),
    (0.01267605249835621, 100.0),
    (0.020593811955954607, 100.0),
    (0.011845398205364364, 100.0),
    (0.01601269747288342, 100.0),
    (0.025458360239221947, 100.0),
    (0.014382930289661824, 100.0),
    (0.011698962425817899, 100.0),
    (0.012318500800515952, 100.0),
    (0.014121117031464155, 100.0),
    (0.011664591962446137, 100.0),
    (0.0115893145491888, 100.0),
    (0.010990299347735226, 100.0),
    (0.01098922672069161, 100.0),
    (0.010988193757655071, 100.0),
    (0.010987200447388705, 100.0),
    (0.010986246779084925, 100.0),
    (0.010985332742365276, 100.0),
    (0.010984458327280176, 100.0),
    (0.010983623524308862, 100.0),
    (0.010982828324359074, 100.0),
    (0.010982072718767005, 100.0),
    (0.010981356699297042, 100.0),
    (0.010980680258141723, 100.0),
    (0.010980043387921504, 100.0),
    (0.010979446081684675, 100.0),
    (0.010978888332907229, 100.0),
    (0.010978370135492719, 100.0),
];

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

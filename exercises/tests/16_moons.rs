//! Exercise 16: the moons, hinge loss + L2, to 100% (yours/16_moons.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/16_moons.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/16_moons.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::{loss, train};
use micrograd::data::moons100;
use micrograd::nn::MLP;
use micrograd::random::PythonRandom;

/// Python: `random.seed(1337); model = MLP(2, [16, 16, 1])`, micrograd's demo model.
fn demos_model() -> MLP {
    MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337))
}

// Python micrograd 0.1.0, demo.ipynb: total_loss, acc = loss()   -> 0.8958441028683222, 0.5
#[test]
fn the_untrained_loss_is_the_demos() {
    let (total, accuracy) = loss(&demos_model(), &moons100()).expect("two numbers a point");
    let want = 0.895_844_102_868_322_2;
    assert!(
        (total.data() - want).abs() < 1e-12,
        "the demo's first loss is {want} (hinge 0.8958 + L2 penalty); yours is {}: the hinge of a \
         point is (1 − y·score).relu(), averaged; the penalty is 1e-4 · Σ p²",
        total.data()
    );
    assert_eq!(
        accuracy, 0.5,
        "the untrained model gets half the points right (the demo's 50%); yours says {accuracy}"
    );
}

// Python micrograd 0.1.0, demo.ipynb: step 99 loss 0.010978370135492719, accuracy 100.0%
#[test]
fn a_hundred_rounds_reach_every_point() {
    let model = demos_model();
    let rounds = train(&model, &moons100(), 100).expect("two numbers a point");
    assert_eq!(
        rounds.len(),
        100,
        "train(.., 100) should return 100 rounds; yours returned {}",
        rounds.len()
    );
    let (first, last) = (rounds[0], rounds[99]);
    assert!(
        (first.0 - 0.895_844_102_868_322_2).abs() < 1e-12,
        "step 0's loss should be the untrained model's, 0.8958441028683222; yours is {}",
        first.0
    );
    assert!(
        (last.0 - 0.010_978_370_135_492_719).abs() < 1e-9 && last.1 == 1.0,
        "the demo's step 99 has loss 0.010978 and 100% accuracy; yours has {} and {}%: check the \
         learning rate, 1.0 − 0.9·k/100, and zero_grad before backward",
        last.0,
        last.1 * 100.0
    );
}

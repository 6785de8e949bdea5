//! Exercise 14: the training loop on the lecture's four points (yours/14_training_loop.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/14_training_loop.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/14_training_loop.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::{squared_error, train};
use micrograd::nn::Module;
use micrograd::Value;
use micrograd_exercises::lecture::{tanh_mlp, XS, YS};

// One step: p.data += -lr * p.grad, with the gradient of the first loss.
#[test]
fn one_step_moves_every_parameter_against_its_gradient() {
    let model = tanh_mlp();
    let reference = model.clone();
    let ypred: Vec<Value> = XS
        .iter()
        .map(|x| reference.forward_f64(x).unwrap()[0].clone())
        .collect();
    let loss = squared_error(&ypred, &YS);
    loss.backward();
    let losses = train(&model, &XS, &YS, 1, 0.1).expect("three inputs a sample");
    assert_eq!(
        losses.len(),
        1,
        "train(.., steps = 1, ..) should return one loss; yours returned {}",
        losses.len()
    );
    assert_eq!(
        losses[0],
        loss.data(),
        "the first loss should be the untrained model's, {}; yours is {}",
        loss.data(),
        losses[0]
    );
    for (i, (p, r)) in model
        .parameters()
        .iter()
        .zip(reference.parameters())
        .enumerate()
    {
        let want = r.data() - 0.1 * r.grad();
        assert!(
            (p.data() - want).abs() < 1e-12,
            "after one step, parameter {i} should be {:.6} − 0.1 · {:.6} = {want:.6} (p.data += −lr · p.grad); \
             yours is {:.6}",
            r.data(),
            r.grad(),
            p.data()
        );
    }
}

// Lecture: twenty steps of 0.1, and the loss is a small fraction of where it started.
#[test]
fn twenty_steps_bring_the_loss_down() {
    let model = tanh_mlp();
    let losses = train(&model, &XS, &YS, 20, 0.1).expect("three inputs a sample");
    assert_eq!(
        losses.len(),
        20,
        "train(.., steps = 20, ..) should return 20 losses; yours returned {}",
        losses.len()
    );
    assert!(
        losses[19] < losses[0] / 10.0,
        "after 20 steps of 0.1 the loss should be below a tenth of the first ({}); yours went {:?}",
        losses[0],
        losses
    );
    for (x, y) in XS.iter().zip(YS) {
        let pred = model.forward_f64(x).unwrap()[0].data();
        assert!(pred * y > 0.0, "after training, the prediction for {x:?} should have the sign of its target {y}; it is {pred}");
    }
}

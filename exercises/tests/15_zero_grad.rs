//! Exercise 15: zero_grad, and why (yours/15_zero_grad.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/15_zero_grad.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/15_zero_grad.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::train_step;
use micrograd::nn::{Module, MLP};
use micrograd_exercises::lecture::{squared_error, tanh_mlp, XS, YS};

/// One step with the gradient of this step's loss alone: each grad set to 0 first.
fn step_from_fresh_gradients(model: &MLP) {
    let ypred: Vec<_> = XS
        .iter()
        .map(|x| model.forward_f64(x).unwrap()[0].clone())
        .collect();
    let loss = squared_error(&ypred, &YS);
    for p in model.parameters() {
        p.set_grad(0.0);
    }
    loss.backward();
    for p in model.parameters() {
        p.set_data(p.data() - 0.1 * p.grad());
    }
}

// Lecture: "I forgot to zero_grad": the second step went down both steps' gradients.
#[test]
fn each_step_uses_its_own_gradient_only() {
    let model = tanh_mlp();
    let reference = model.clone();
    for step in 1..=3 {
        train_step(&model, &XS, &YS, 0.1).expect("three inputs a sample");
        step_from_fresh_gradients(&reference);
        for (i, (p, r)) in model
            .parameters()
            .iter()
            .zip(reference.parameters())
            .enumerate()
        {
            assert!(
                (p.data() - r.data()).abs() < 1e-12,
                "after step {step}, parameter {i} should be {:.6}; yours is {:.6}: it moved by the sum of \
                 this step's gradient and the earlier steps' ones, because backward() adds to each grad; \
                 reset the grads before backward()",
                r.data(),
                p.data()
            );
        }
    }
}

//! The lecture's bug, found after the training loop "worked": gradients *add up*
//! (`+=`, exercise 09), across calls of backward() too. Without resetting them, each
//! step goes down the sum of all the gradients so far, not the current one.
//!
//! `train_step` below is the lecture's first loop body, with that bug. Fix it: every
//! parameter's grad must be 0 before `loss.backward()`. (`p.zero_grad()` resets one;
//! `model.zero_grad()`, from `Module`, resets them all.)

use micrograd::nn::{Module, MLP};
use micrograd::{Error, Value};
use micrograd_exercises::lecture::squared_error;

/// One step of gradient descent on `xs`, `ys`; returns the loss before the step.
pub fn train_step(model: &MLP, xs: &[[f64; 3]], ys: &[f64], lr: f64) -> Result<f64, Error> {
    let ypred = xs
        .iter()
        .map(|x| Ok(model.forward_f64(x)?[0].clone()))
        .collect::<Result<Vec<Value>, Error>>()?;
    let loss = squared_error(&ypred, ys);
    // ✎ YOUR CODE: something is missing before backward()
    loss.backward();
    for p in model.parameters() {
        p.set_data(p.data() - lr * p.grad());
    }
    Ok(loss.data())
}

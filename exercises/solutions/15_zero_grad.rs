//! Solution of exercise 15 (see yours/15_zero_grad.rs for the instructions).

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
    // for p in n.parameters(): p.grad = 0.0
    model.zero_grad();
    loss.backward();
    for p in model.parameters() {
        p.set_data(p.data() - lr * p.grad());
    }
    Ok(loss.data())
}

//! Solution of exercise 14 (see yours/14_training_loop.rs for the instructions).

use micrograd::nn::{Module, MLP};
use micrograd::{Error, Value};
// The loss of exercise 13, Σ (yout − ygt)²:
pub use micrograd_exercises::lecture::squared_error;

/// `steps` rounds of gradient descent on the samples `xs` with targets `ys`; returns
/// the loss of each round.
pub fn train(
    model: &MLP,
    xs: &[[f64; 3]],
    ys: &[f64],
    steps: usize,
    lr: f64,
) -> Result<Vec<f64>, Error> {
    let mut losses = Vec::new();
    for _ in 0..steps {
        // ypred = [n(x) for x in xs]
        let ypred = xs
            .iter()
            .map(|x| Ok(model.forward_f64(x)?[0].clone()))
            .collect::<Result<Vec<Value>, Error>>()?;
        let loss = squared_error(&ypred, ys);
        // for p in n.parameters(): p.grad = 0.0
        model.zero_grad();
        loss.backward();
        // for p in n.parameters(): p.data += -0.1 * p.grad
        for p in model.parameters() {
            p.set_data(p.data() - lr * p.grad());
        }
        losses.push(loss.data());
    }
    Ok(losses)
}

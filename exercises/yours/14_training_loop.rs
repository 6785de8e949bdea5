//! Training is a loop: predict every sample (the forward pass), measure the loss,
//! backpropagate from it, and nudge every parameter a little against its gradient
//! (Python: `p.data += -0.1 * p.grad`): a small step downhill on the loss.
//!
//! Write `train`: `steps` rounds of forward pass, loss, `loss.backward()`, update with
//! step size `lr`; return each round's loss (`loss.data()`, before its update).
//! `model.forward_f64(&x)?` is Python's `n(x)` on plain numbers (a `Vec`: take `[0]`),
//! `model.parameters()` lists the parameters (`use micrograd::nn::Module`), and
//! `p.set_data(..)` writes one. The model is the lecture's: tanh in every layer
//! (`MLP::with_activations`; `MLP::new` is nn.py's ReLU network, which stalls here).

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
    // ✎ YOUR CODE
    Ok(losses)
}

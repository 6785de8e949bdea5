//! micrograd's demo: a network learns to tell two interleaving half-moons apart. The
//! model is micrograd's `MLP(2, [16, 16, 1])` (`MLP::new`: ReLU inside, a linear
//! score out), a point's class is the sign of its score, and the labels are −1 and +1.
//!
//! Write the demo's `loss` and its training loop:
//! - the max-margin loss: each point's `(1 + −yᵢ·scoreᵢ).relu()`, averaged;
//! - plus the L2 penalty `1e-4 · Σ p²` over the parameters (it keeps the weights small);
//! - the accuracy: the fraction of points where `(yᵢ > 0) == (scoreᵢ > 0)`;
//! - `train`: `steps` rounds of loss, `zero_grad`, `backward`, and the update
//!   `p.data −= lr · p.grad` with `lr = 1.0 − 0.9·k/100` at round k. It returns every
//!   round's `(loss, accuracy)` before its update, as the demo prints them.
//!
//! The demo reaches 100% in 100 rounds. The points are `data.inputs` (rows of two
//! numbers) and `data.labels`.

use micrograd::data::Dataset;
use micrograd::nn::{Module, MLP};
use micrograd::{Error, Value};

/// The demo's `loss()` on the whole data set: (total loss, accuracy in 0..=1).
pub fn loss(model: &MLP, data: &Dataset) -> Result<(Value, f64), Error> {
    // ✎ YOUR CODE
    Ok((Value::new(0.0), 0.0))
}

/// `steps` rounds of the demo's training loop; each round's (loss, accuracy).
pub fn train(model: &MLP, data: &Dataset, steps: usize) -> Result<Vec<(f64, f64)>, Error> {
    // ✎ YOUR CODE
    Ok(Vec::new())
}

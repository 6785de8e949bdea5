//! Solution of exercise 16 (see yours/16_moons.rs for the instructions).

use micrograd::data::Dataset;
use micrograd::nn::{Module, MLP};
use micrograd::{Error, Value};

/// The demo's `loss()` on the whole data set: (total loss, accuracy in 0..=1).
pub fn loss(model: &MLP, data: &Dataset) -> Result<(Value, f64), Error> {
    let mut scores = Vec::new();
    for x in &data.inputs {
        scores.push(model.forward_f64(x)?[0].clone());
    }
    // losses = [(1 + -yi*scorei).relu() for yi, scorei in zip(yb, scores)]
    let losses: Vec<Value> = data
        .labels
        .iter()
        .zip(&scores)
        .map(|(yi, si)| (1.0 + -yi * si).relu())
        .collect();
    // data_loss = sum(losses) * (1.0 / len(losses))
    let data_loss = losses.iter().sum::<Value>() * (1.0 / losses.len() as f64);
    // reg_loss = alpha * sum((p*p for p in model.parameters()))
    let reg_loss = 1e-4 * model.parameters().iter().map(|p| p * p).sum::<Value>();
    // accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(yb, scores)]
    let right = data
        .labels
        .iter()
        .zip(&scores)
        .filter(|(yi, si)| (**yi > 0.0) == (si.data() > 0.0))
        .count();
    Ok((data_loss + reg_loss, right as f64 / scores.len() as f64))
}

/// `steps` rounds of the demo's training loop; each round's (loss, accuracy).
pub fn train(model: &MLP, data: &Dataset, steps: usize) -> Result<Vec<(f64, f64)>, Error> {
    let mut rounds = Vec::new();
    for k in 0..steps {
        let (total, accuracy) = loss(model, data)?;
        model.zero_grad();
        total.backward();
        // learning_rate = 1.0 - 0.9*k/100; p.data -= learning_rate * p.grad
        let lr = 1.0 - 0.9 * k as f64 / 100.0;
        for p in model.parameters() {
            p.set_data(p.data() - lr * p.grad());
        }
        rounds.push((total.data(), accuracy));
    }
    Ok(rounds)
}

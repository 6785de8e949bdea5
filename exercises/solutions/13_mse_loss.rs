//! Solution of exercise 13 (see yours/13_mse_loss.rs for the instructions).

use micrograd::Value;

/// Σ (ypred[i] − ys[i])², as a `Value` that backward() can start from.
pub fn squared_error(ypred: &[Value], ys: &[f64]) -> Value {
    // sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
    ys.iter()
        .zip(ypred)
        .map(|(ygt, yout)| (yout - ygt).powf(2.0))
        .sum()
}

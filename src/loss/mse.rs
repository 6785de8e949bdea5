//! Mean squared error, for regression.

use super::{check_batch, mean};
use crate::{Error, Value};

/// The mean squared error `L = (1/n) Σᵢ (pᵢ - tᵢ)²`.
///
/// Gradient: `dL/dpᵢ = 2(pᵢ - tᵢ)/n`.
///
/// # Errors
///
/// [`Error::InvalidInput`] when `predictions` and `targets` differ in length (the
/// message names both), when both are empty, or when a target is NaN or infinite.
///
/// ```
/// use micrograd::{loss, Value};
/// let p = [Value::new(1.0), Value::new(4.0)];
/// let l = loss::mse(&p, &[0.0, 2.0])?;   // (1² + 2²) / 2
/// l.backward();
/// assert_eq!(l.data(), 2.5);
/// assert_eq!((p[0].grad(), p[1].grad()), (1.0, 2.0));   // 2·(p - t)/2
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn mse(predictions: &[Value], targets: &[f64]) -> Result<Value, Error> {
    check_batch(predictions.len(), "targets", targets.len())?;
    if let Some(i) = targets.iter().position(|t| !t.is_finite()) {
        return Err(Error::InvalidInput(format!(
            "target {i} is {}; targets must be finite numbers",
            targets[i]
        )));
    }
    let squares = predictions
        .iter()
        .zip(targets)
        .map(|(p, &t)| (p - t).powf(2.0))
        .collect();
    Ok(mean(squares))
}

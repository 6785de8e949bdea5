//! Mean squared error, for regression.

use super::{check_batch, check_target_leaves, mean, on_target};
use crate::{Error, Value};

/// The mean squared error `L = (1/n) Σᵢ (pᵢ - tᵢ)²`, the targets constants of the
/// graph (for a graph built anew per sample; compiled once, use [`mse_targets`]: a
/// tape refuses to run this graph over other samples).
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
    Ok(mean(squares).tag_constant_target("mse", "mse_targets"))
}

/// [`mse()`] with the targets as data: leaves that need no gradient, which a
/// [`Tape`](crate::tape::Tape) feeds per sample as it feeds inputs. The same numbers
/// as `mse` on the same targets.
///
/// Gradient: `dL/dpᵢ = 2(pᵢ - tᵢ)/n`; the targets get none.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the lengths differ or are 0, or when a target is not a
/// leaf or needs a gradient (make it with `Value::new(t).no_grad()`). The targets'
/// numbers are not checked (they change after the graph is built).
///
/// ```
/// use micrograd::{loss, tape::Tape, Value};
/// let (p, t) = (Value::new(1.0), Value::new(0.0).no_grad());
/// let l = loss::mse_targets(&[(&p * 2.0)], &[t.clone()])?;
/// assert_eq!(l.data(), 4.0);                      // (2 - 0)²
/// let mut tape = Tape::compile(&l)?;
/// let target = tape.inputs(&[t])?;
/// tape.set_inputs(&target, &[2.0])?;              // another sample's target
/// assert_eq!(tape.evaluate()?, 0.0);              // (2 - 2)²
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn mse_targets(predictions: &[Value], targets: &[Value]) -> Result<Value, Error> {
    check_batch(predictions.len(), "targets", targets.len())?;
    check_target_leaves(targets)?;
    let squares = predictions
        .iter()
        .zip(targets)
        .map(|(p, t)| on_target(p - t, 1).powf(2.0))
        .collect();
    Ok(mean(squares))
}

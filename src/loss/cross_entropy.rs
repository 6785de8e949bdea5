//! Cross-entropy losses on logits (raw scores, before any sigmoid or softmax), computed
//! so that large logits give finite losses and gradients.

use super::{check_batch, check_labels, check_target_leaves, in_row, mean, on_target};
use crate::{Error, Value};

/// Binary cross-entropy of labels yᵢ ∈ {0, 1} given logits zᵢ (the sigmoid is built in):
/// `L = (1/n) Σᵢ [softplus(zᵢ) - zᵢ·yᵢ]`, which equals
/// `-(yᵢ·ln σ(zᵢ) + (1 - yᵢ)·ln(1 - σ(zᵢ)))` but never overflows:
/// [`softplus`](Value::softplus) is computed stably, so logits of ±1000 give a finite
/// loss.
///
/// Gradient: `dL/dzᵢ = (σ(zᵢ) - yᵢ)/n` (softplus' = σ), also at z = 0 (0.5 - y).
///
/// The graph is the same whatever the logits' values (no branch on `z.data()` while
/// building), but the labels are constants of the graph: compiled once for many
/// samples, use [`binary_cross_entropy_with_logits_targets`] (a tape refuses to run
/// this graph over other samples).
///
/// # Errors
///
/// [`Error::InvalidInput`] when the lengths differ (the message names both), when both
/// are empty, or when a label is neither 0 nor 1 (the message names its index and value).
///
/// ```
/// use micrograd::{loss, Value};
/// let z = [Value::new(0.0)];
/// let l = loss::binary_cross_entropy_with_logits(&z, &[1.0])?;
/// l.backward();
/// assert_eq!(l.data(), 2f64.ln());      // -ln σ(0) = ln 2
/// assert_eq!(z[0].grad(), -0.5);        // σ(0) - 1
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn binary_cross_entropy_with_logits(
    logits: &[Value],
    labels01: &[f64],
) -> Result<Value, Error> {
    check_batch(logits.len(), "labels", labels01.len())?;
    check_labels(labels01, [0.0, 1.0], "binary cross-entropy")?;
    let terms = logits
        .iter()
        .zip(labels01)
        .map(|(z, &y)| z.softplus() - z * y)
        .collect();
    Ok(mean(terms).tag_constant_target(
        "binary_cross_entropy_with_logits",
        "binary_cross_entropy_with_logits_targets",
    ))
}

/// [`binary_cross_entropy_with_logits`] with the labels as data: leaves that need no
/// gradient, which a [`Tape`](crate::tape::Tape) feeds per sample as it feeds inputs.
/// The same numbers as the `f64` form on the same labels.
///
/// Gradient: `dL/dzᵢ = (σ(zᵢ) - yᵢ)/n`; the labels get none.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the lengths differ or are 0, or when a label is not a
/// leaf or needs a gradient (make it with `Value::new(y).no_grad()`). The labels'
/// numbers are not checked (they change after the graph is built): feed 0 or 1.
///
/// ```
/// use micrograd::{loss, Value};
/// let z = [Value::new(0.0)];
/// let l = loss::binary_cross_entropy_with_logits_targets(&z, &[Value::new(1.0).no_grad()])?;
/// l.backward();
/// assert_eq!((l.data(), z[0].grad()), (2f64.ln(), -0.5));   // ln 2; σ(0) - 1
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn binary_cross_entropy_with_logits_targets(
    logits: &[Value],
    labels01: &[Value],
) -> Result<Value, Error> {
    check_batch(logits.len(), "labels", labels01.len())?;
    check_target_leaves(labels01)?;
    let terms = logits
        .iter()
        .zip(labels01)
        .map(|(z, y)| z.softplus() - on_target(z * y, 1))
        .collect();
    Ok(mean(terms))
}

/// Softmax cross-entropy of one sample whose true class is `class`:
/// `L = -ln softmax(z)_c = ln Σⱼ e^(zⱼ - m) - (z_c - m)`, with m = maxⱼ zⱼ (the
/// log-sum-exp trick: every exponent is ≤ 0, so nothing overflows).
///
/// m is built from the logits with [`max`](Value::max) ops, not read from their data,
/// so that the graph is the same whatever the logits; but the class picks a logit, a
/// constant of the graph: compiled once for many samples, use
/// [`softmax_cross_entropy_onehot`] (a tape refuses to run this graph over other
/// samples).
///
/// Gradient: `dL/dzⱼ = softmax(z)ⱼ - [j = c]`; m drops out because it is subtracted from
/// every logit (its own gradient, `1 - Σⱼ softmax(z)ⱼ`, is 0 up to rounding).
///
/// # Errors
///
/// [`Error::InvalidInput`] when `logits` is empty or `class >= logits.len()`.
///
/// ```
/// use micrograd::{loss, Value};
/// let z = [Value::new(1.0), Value::new(1.0)];
/// let l = loss::softmax_cross_entropy(&z, 0)?;
/// l.backward();
/// assert_eq!(l.data(), 2f64.ln());                 // -ln(1/2)
/// assert_eq!((z[0].grad(), z[1].grad()), (-0.5, 0.5));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn softmax_cross_entropy(logits: &[Value], class: usize) -> Result<Value, Error> {
    if logits.is_empty() {
        return Err(Error::InvalidInput(
            "softmax_cross_entropy of no logits: give one logit per class".to_owned(),
        ));
    }
    if class >= logits.len() {
        return Err(Error::InvalidInput(format!(
            "class {class} is out of range for {} logits; classes are 0..{}",
            logits.len(),
            logits.len()
        )));
    }
    let (shifted, log_sum_exp) = shifted_log_sum_exp(logits);
    Ok((log_sum_exp - &shifted[class])
        .tag_constant_target("softmax_cross_entropy", "softmax_cross_entropy_onehot"))
}

/// Softmax cross-entropy of one sample whose target is a distribution over the classes
/// given as data (one-hot: 1 at the true class, 0 elsewhere; or smoothed labels):
/// `L = ln Σⱼ e^(zⱼ - m) - Σⱼ tⱼ·(zⱼ - m)`, m = maxⱼ zⱼ built with ops as in
/// [`softmax_cross_entropy`]. The graph does not depend on the class, so a
/// [`Tape`](crate::tape::Tape) feeds the targets per sample as it feeds inputs. On a
/// one-hot target the loss has the bits of `softmax_cross_entropy` (adding `0·(zⱼ - m)`
/// changes no bit of a finite sum).
///
/// Gradient: `dL/dzⱼ = softmax(z)ⱼ - tⱼ` when Σⱼ tⱼ = 1; the targets get none.
///
/// # Errors
///
/// [`Error::InvalidInput`] when `logits` is empty or `targets` has another length, or
/// when a target is not a leaf or needs a gradient (make it with
/// `Value::new(t).no_grad()`). The targets' numbers are not checked (they change after
/// the graph is built): feed non-negative numbers that sum to 1.
///
/// ```
/// use micrograd::{loss, Value};
/// let z = [Value::new(1.0), Value::new(1.0)];
/// let t = [Value::new(1.0).no_grad(), Value::new(0.0).no_grad()];   // class 0
/// let l = loss::softmax_cross_entropy_onehot(&z, &t)?;
/// l.backward();
/// assert_eq!(l.data(), 2f64.ln());
/// assert_eq!((z[0].grad(), z[1].grad()), (-0.5, 0.5));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn softmax_cross_entropy_onehot(logits: &[Value], targets: &[Value]) -> Result<Value, Error> {
    check_batch(logits.len(), "targets", targets.len())?;
    check_target_leaves(targets)?;
    let (shifted, log_sum_exp) = shifted_log_sum_exp(logits);
    let picked: Value = (shifted.iter().zip(targets))
        .map(|(s, t)| on_target(s * t, 1))
        .sum();
    Ok(log_sum_exp - picked)
}

/// The mean of [`softmax_cross_entropy`] over a batch: `L = (1/n) Σᵢ Lᵢ`, where row i of
/// `logits` holds sample i's logits and `classes[i]` its true class.
///
/// Gradient: `dL/dzᵢⱼ = (softmax(zᵢ)ⱼ - [j = cᵢ])/n`.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the batch sizes differ or are 0, or for any row that
/// [`softmax_cross_entropy`] rejects (the message names the row).
///
/// ```
/// use micrograd::{loss, Value};
/// let batch = vec![
///     vec![Value::new(2.0), Value::new(2.0)],
///     vec![Value::new(0.0), Value::new(0.0)],
/// ];
/// let l = loss::softmax_cross_entropy_mean(&batch, &[1, 0])?;
/// l.backward();
/// assert_eq!(l.data(), 2f64.ln());                 // both rows are ln 2
/// assert_eq!(batch[0][1].grad(), -0.25);           // (1/2 - 1) / 2
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn softmax_cross_entropy_mean<R: AsRef<[Value]>>(
    logits: &[R],
    classes: &[usize],
) -> Result<Value, Error> {
    check_batch(logits.len(), "classes", classes.len())?;
    let losses = logits
        .iter()
        .zip(classes)
        .enumerate()
        .map(|(i, (row, &c))| softmax_cross_entropy(row.as_ref(), c).map_err(in_row(i)))
        .collect::<Result<Vec<Value>, Error>>()?;
    Ok(mean(losses))
}

/// `zⱼ - m` for every logit and `ln Σⱼ e^(zⱼ - m)`, with m = maxⱼ zⱼ built from the
/// logits with [`max`](Value::max) ops (so the graph is the same whatever their data).
/// `logits` is not empty.
fn shifted_log_sum_exp(logits: &[Value]) -> (Vec<Value>, Value) {
    let m = logits[1..].iter().fold(logits[0].clone(), |m, z| m.max(z));
    let shifted: Vec<Value> = logits.iter().map(|z| z - &m).collect();
    let log_sum_exp = shifted.iter().map(Value::exp).sum::<Value>().ln();
    (shifted, log_sum_exp)
}

//! The SVM max-margin ("hinge") loss of micrograd's `demo.ipynb`.

use super::{check_batch, check_labels, mean};
use crate::{Error, Value};

/// micrograd's max-margin loss for labels yᵢ ∈ {-1, +1} and scores sᵢ:
/// `L = (1/n) Σᵢ max(0, 1 - yᵢ·sᵢ)`.
///
/// Gradient: `dL/dsᵢ = -yᵢ/n` where the margin `1 - yᵢ·sᵢ > 0`, and 0 elsewhere
/// (including exactly at the margin, as micrograd's `relu` has derivative 0 at 0).
///
/// It is built exactly as the notebook builds it, so the result equals Python's bit for
/// bit: `(1 + -yi * si).relu()` is `(si * Value(-yi) + Value(1)).relu()` in Python's
/// operator order, and `data_loss = sum(losses) * (1.0 / len(losses))`.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the lengths differ (the message names both), when both
/// are empty, or when a label is neither -1 nor +1 (the message names its index and value).
///
/// ```
/// use micrograd::{loss, Value};
/// let s = [Value::new(0.25), Value::new(3.0)];
/// let l = loss::svm_hinge(&s, &[1.0, 1.0])?;   // (max(0, 0.75) + max(0, -2)) / 2
/// l.backward();
/// assert_eq!(l.data(), 0.375);
/// assert_eq!((s[0].grad(), s[1].grad()), (-0.5, 0.0));   // -y/n inside the margin
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn svm_hinge(scores: &[Value], labels: &[f64]) -> Result<Value, Error> {
    check_batch(scores.len(), "labels", labels.len())?;
    check_labels(labels, [-1.0, 1.0], "svm_hinge")?;
    // Python: losses = [(1 + -yi*si).relu() for yi, si in zip(yb, scores)]
    let losses = scores
        .iter()
        .zip(labels)
        .map(|(s, &y)| (s * -y + 1.0).relu())
        .collect();
    // Python: data_loss = sum(losses) * (1.0 / len(losses))
    Ok(mean(losses))
}

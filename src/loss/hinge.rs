//! The SVM max-margin ("hinge") loss of micrograd's `demo.ipynb`.

use super::{check_batch, check_labels, check_target_leaves, mean, on_target};
use crate::{Error, Value};

/// micrograd's max-margin loss for labels yᵢ ∈ {-1, +1} and scores sᵢ:
/// `L = (1/n) Σᵢ max(0, 1 - yᵢ·sᵢ)`, the labels constants of the graph (as in the demo,
/// which builds its graph anew every step; compiled once, use [`svm_hinge_targets`]:
/// a tape refuses to run this graph over other samples).
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
    Ok(mean(losses).tag_constant_target("svm_hinge", "svm_hinge_targets"))
}

/// [`svm_hinge`] with the labels as data: leaves that need no gradient, which a
/// [`Tape`](crate::tape::Tape) feeds per sample as it feeds inputs. The same numbers as
/// `svm_hinge` on the same labels (`-yᵢ` is exact, so `sᵢ·(-yᵢ)` has the same bits).
///
/// Gradient: `dL/dsᵢ = -yᵢ/n` where `1 - yᵢ·sᵢ > 0`, else 0; the labels get none.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the lengths differ or are 0, or when a label is not a
/// leaf or needs a gradient (make it with `Value::new(y).no_grad()`). The labels'
/// numbers are not checked (they change after the graph is built): feed ±1.
///
/// ```
/// use micrograd::{loss, Value};
/// let s = [Value::new(0.25), Value::new(3.0)];
/// let y = [Value::new(1.0).no_grad(), Value::new(1.0).no_grad()];
/// let l = loss::svm_hinge_targets(&s, &y)?;
/// l.backward();
/// assert_eq!(l.data(), 0.375);                  // as svm_hinge(&s, &[1.0, 1.0])
/// assert_eq!((s[0].grad(), s[1].grad()), (-0.5, 0.0));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn svm_hinge_targets(scores: &[Value], labels: &[Value]) -> Result<Value, Error> {
    check_batch(scores.len(), "labels", labels.len())?;
    check_target_leaves(labels)?;
    let losses = scores
        .iter()
        .zip(labels)
        .map(|(s, y)| (s * &on_target(-y, 0) + 1.0).relu())
        .collect();
    Ok(mean(losses))
}

//! Accuracy: the fraction of samples a model gets right. Computed from the data of the
//! outputs; nothing here is part of the graph.

use super::{check_batch, in_row};
use crate::{Error, Value};

/// The fraction of samples whose score has the sign of the label, micrograd's
/// `sum((yi > 0) == (si.data > 0) for ...) / len(...)`: a score of exactly 0 counts as
/// negative, as does a label ≤ 0 (so labels may be ±1 or 0/1).
///
/// # Errors
///
/// [`Error::InvalidInput`] when the lengths differ or are 0, or when a score or a label
/// is NaN (the message names it). Python counts a NaN score as a negative prediction,
/// so a model whose scores went NaN would still score "right" on every negative sample.
///
/// ```
/// use micrograd::{loss, Value};
/// let s = [Value::new(0.3), Value::new(-2.0), Value::new(0.1), Value::new(0.0)];
/// let acc = loss::binary_accuracy(&s, &[1.0, -1.0, -1.0, -1.0])?;
/// assert_eq!(acc, 0.75);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn binary_accuracy(scores: &[Value], labels: &[f64]) -> Result<f64, Error> {
    check_batch(scores.len(), "labels", labels.len())?;
    if let Some(i) = scores.iter().position(|s| s.data().is_nan()) {
        return Err(Error::InvalidInput(format!(
            "score {i} is NaN, which has no sign; find where the model's output became NaN \
             with try_backward"
        )));
    }
    if let Some(i) = labels.iter().position(|y| y.is_nan()) {
        return Err(Error::InvalidInput(format!(
            "label {i} is NaN; labels must be ±1 or 0/1"
        )));
    }
    let correct = scores
        .iter()
        .zip(labels)
        .filter(|(s, &y)| (y > 0.0) == (s.data() > 0.0))
        .count();
    Ok(correct as f64 / scores.len() as f64)
}

/// The index of the largest output (the first one on a tie, as `numpy.argmax`).
///
/// # Errors
///
/// [`Error::InvalidInput`] when `outputs` is empty or one of them is NaN (which has no
/// place in an order).
///
/// ```
/// use micrograd::{loss, Value};
/// let z = [Value::new(0.1), Value::new(2.0), Value::new(2.0)];
/// assert_eq!(loss::argmax(&z)?, 1);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn argmax(outputs: &[Value]) -> Result<usize, Error> {
    if outputs.is_empty() {
        return Err(Error::InvalidInput("argmax of no outputs".to_owned()));
    }
    let mut best = 0;
    for (i, z) in outputs.iter().enumerate() {
        let x = z.data();
        if x.is_nan() {
            return Err(Error::InvalidInput(format!("output {i} is NaN")));
        }
        if x > outputs[best].data() {
            best = i;
        }
    }
    Ok(best)
}

/// The fraction of rows whose [`argmax`] is the true class.
///
/// # Errors
///
/// [`Error::InvalidInput`] when the batch sizes differ or are 0, when a class is out of
/// range for its row (no output stands for it, so the row could never count as right),
/// or when [`argmax`] rejects a row (the message names the row).
///
/// ```
/// use micrograd::{loss, Value};
/// let batch = vec![
///     vec![Value::new(0.9), Value::new(0.1)],   // predicts 0
///     vec![Value::new(0.2), Value::new(0.7)],   // predicts 1
/// ];
/// assert_eq!(loss::multiclass_accuracy(&batch, &[0, 0])?, 0.5);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn multiclass_accuracy<R: AsRef<[Value]>>(
    logits: &[R],
    classes: &[usize],
) -> Result<f64, Error> {
    check_batch(logits.len(), "classes", classes.len())?;
    let mut correct = 0;
    for (i, (row, &c)) in logits.iter().zip(classes).enumerate() {
        let row = row.as_ref();
        if c >= row.len() {
            return Err(in_row(i)(Error::InvalidInput(format!(
                "class {c} is out of range for {} outputs; classes are 0..{}",
                row.len(),
                row.len()
            ))));
        }
        let predicted = argmax(row).map_err(in_row(i))?;
        correct += usize::from(predicted == c);
    }
    Ok(correct as f64 / logits.len() as f64)
}

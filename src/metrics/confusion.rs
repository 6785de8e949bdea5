//! [`ConfusionMatrix`]: how often each true class was predicted as each class.

use std::fmt;

use crate::Error;

/// The class each row of outputs predicts: the index of the largest output (the first
/// of equal ones, as `numpy.argmax`), or, for a model of one output (micrograd's SVM
/// score), class 1 if the score is above 0 and class 0 otherwise.
///
/// # Errors
///
/// [`Error::InvalidInput`] naming the row if a row is empty, holds NaN, or is not as
/// wide as the first.
///
/// ```
/// use micrograd::metrics::predicted_classes;
/// assert_eq!(predicted_classes(&[vec![0.1, 2.0, 2.0], vec![3.0, 1.0, 0.0]])?, [1, 0]);
/// assert_eq!(predicted_classes(&[[0.5], [-0.5]])?, [1, 0]);   // one score: its sign
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn predicted_classes<R: AsRef<[f64]>>(outputs: &[R]) -> Result<Vec<usize>, Error> {
    let width = outputs.first().map_or(0, |r| r.as_ref().len());
    let mut classes = Vec::with_capacity(outputs.len());
    for (i, row) in outputs.iter().enumerate() {
        let row = row.as_ref();
        let refuse = |what: String| Err(Error::InvalidInput(format!("outputs of row {i}: {what}")));
        if row.is_empty() || row.len() != width {
            return refuse(format!("{} numbers, the first row has {width}", row.len()));
        }
        if let Some(j) = row.iter().position(|x| x.is_nan()) {
            return refuse(format!("output {j} is NaN, which predicts no class"));
        }
        classes.push(match row {
            [score] => usize::from(*score > 0.0),
            _ => (1..row.len()).fold(0, |best, j| if row[j] > row[best] { j } else { best }),
        });
    }
    Ok(classes)
}

/// Counts of (true class, predicted class) pairs: `counts()[t][p]` is how many samples
/// of class `t` were predicted as `p` (scikit-learn's `confusion_matrix(y_true,
/// y_pred)`: rows true, columns predicted). The diagonal holds the right ones.
///
/// ```
/// use micrograd::metrics::ConfusionMatrix;
/// // sklearn.metrics.confusion_matrix([0, 0, 1, 2], [0, 1, 1, 2])
/// let m = ConfusionMatrix::new(&[0, 0, 1, 2], &[0, 1, 1, 2], 3)?;
/// assert_eq!(m.counts(), &[vec![1, 1, 0], vec![0, 1, 0], vec![0, 0, 1]]);
/// assert_eq!(m.accuracy(), 0.75);
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfusionMatrix {
    counts: Vec<Vec<usize>>,
}

impl ConfusionMatrix {
    /// The matrix of `classes` classes from each sample's true and predicted class.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if the two lists differ in length or are empty, if a
    /// class is not in `0..classes` (the message names the sample), or if `classes²`
    /// counts cannot be addressed. The matrix holds `classes²` counts.
    pub fn new(actual: &[usize], predicted: &[usize], classes: usize) -> Result<Self, Error> {
        if actual.len() != predicted.len() || actual.is_empty() {
            return Err(Error::InvalidInput(format!(
                "a confusion matrix of {} true and {} predicted classes; give one of each \
                 per sample, at least one sample",
                actual.len(),
                predicted.len()
            )));
        }
        let outside =
            (actual.iter().zip(predicted)).position(|(&t, &p)| t >= classes || p >= classes);
        if let Some(i) = outside {
            let (t, p) = (actual[i], predicted[i]);
            return Err(Error::InvalidInput(format!(
                "sample {i} has true class {t} and predicted class {p}, but there are \
                 {classes} classes (0..{classes})"
            )));
        }
        // (Looked at before the matrix is made: `classes` counts squared must fit.)
        if classes
            .checked_mul(classes)
            .and_then(|n| n.checked_mul(8))
            .is_none()
        {
            return Err(Error::InvalidInput(format!(
                "classes = {classes}: a matrix of {classes}² counts cannot be held"
            )));
        }
        let mut counts = vec![vec![0; classes]; classes];
        for (&t, &p) in actual.iter().zip(predicted) {
            counts[t][p] += 1;
        }
        Ok(ConfusionMatrix { counts })
    }

    /// `counts()[t][p]`: the samples of true class `t` predicted as `p`.
    pub fn counts(&self) -> &[Vec<usize>] {
        &self.counts
    }

    /// The number of samples.
    pub fn total(&self) -> usize {
        self.counts.iter().flatten().sum()
    }

    /// The fraction predicted right: the diagonal over the total (scikit-learn's
    /// `accuracy_score`).
    pub fn accuracy(&self) -> f64 {
        let right: usize = (0..self.counts.len()).map(|c| self.counts[c][c]).sum();
        right as f64 / self.total() as f64
    }
}

/// One row per true class, one column per predicted class, right-aligned:
///
/// ```text
/// 1 1 0
/// 0 1 0
/// 0 0 1
/// ```
impl fmt::Display for ConfusionMatrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .counts
            .iter()
            .flatten()
            .max()
            .map_or(1, |m| m.to_string().len());
        for row in &self.counts {
            let cells: Vec<String> = row.iter().map(|c| format!("{c:>width$}")).collect();
            writeln!(f, "{}", cells.join(" "))?;
        }
        Ok(())
    }
}

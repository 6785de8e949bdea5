//! [`RegressionMetrics`]: how far a regression's predictions are from the targets.

use crate::Error;

/// The mean squared and mean absolute error of predictions against targets
/// (scikit-learn's `mean_squared_error` and `mean_absolute_error`):
/// `mse = Σ (yᵢ - ŷᵢ)² / n`, `mae = Σ |yᵢ - ŷᵢ| / n`.
///
/// ```
/// use micrograd::metrics::RegressionMetrics;
/// // sklearn: mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]) == 0.375
/// let m = RegressionMetrics::new(&[3.0, -0.5, 2.0, 7.0], &[2.5, 0.0, 2.0, 8.0])?;
/// assert_eq!((m.mse, m.mae), (0.375, 0.5));
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RegressionMetrics {
    /// The mean squared error.
    pub mse: f64,
    /// The mean absolute error.
    pub mae: f64,
}

impl RegressionMetrics {
    /// The errors of `predicted` against `targets`, sample by sample.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if the two differ in length or are empty, or if a target
    /// or prediction is NaN or infinite (the message names the sample; scikit-learn
    /// refuses them too).
    pub fn new(targets: &[f64], predicted: &[f64]) -> Result<RegressionMetrics, Error> {
        if targets.len() != predicted.len() || targets.is_empty() {
            return Err(Error::InvalidInput(format!(
                "regression metrics of {} targets and {} predictions; give one of each \
                 per sample, at least one sample",
                targets.len(),
                predicted.len()
            )));
        }
        let pairs = targets.iter().zip(predicted);
        if let Some((i, (y, p))) = pairs
            .enumerate()
            .find(|(_, (y, p))| !(y.is_finite() && p.is_finite()))
        {
            return Err(Error::InvalidInput(format!(
                "sample {i} has target {y} and prediction {p}; regression metrics need \
                 finite numbers (find where the model's output or the data stopped being \
                 finite)"
            )));
        }
        let n = targets.len() as f64;
        let errors = targets.iter().zip(predicted).map(|(y, p)| y - p);
        let (squares, absolutes) = errors.fold((0.0, 0.0), |(s, a), e| (s + e * e, a + e.abs()));
        Ok(RegressionMetrics {
            mse: squares / n,
            mae: absolutes / n,
        })
    }
}

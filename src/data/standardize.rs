//! Standardisation: each feature shifted and scaled to mean 0 and deviation 1, with
//! the numbers of the training data.

use super::Dataset;
use crate::Error;

/// Each feature's mean and standard deviation, fitted on training data and applied to
/// any data (scikit-learn's `StandardScaler`): `x' = (x - mean) / scale`, where scale
/// is the population standard deviation (`ddof=0`), or 1 for a feature that does not
/// vary (as scikit-learn does, so that it maps to 0 instead of NaN).
///
/// Fit on the training set only and apply the same numbers to the test set: the model
/// must not see the test data, not even its mean.
///
/// ```
/// use micrograd::data::{Dataset, Standardizer};
/// let mut train = Dataset { inputs: vec![vec![1.0, 5.0], vec![3.0, 5.0]], labels: vec![0.0, 1.0] };
/// let mut test = Dataset { inputs: vec![vec![2.0, 6.0]], labels: vec![1.0] };
/// let scaler = Standardizer::fit(&train)?;
/// assert_eq!((scaler.mean(), scaler.scale()), (&[2.0, 5.0][..], &[1.0, 1.0][..]));
/// scaler.apply(&mut train)?;
/// scaler.apply(&mut test)?;
/// assert_eq!(train.inputs, vec![vec![-1.0, 0.0], vec![1.0, 0.0]]);
/// assert_eq!(test.inputs, vec![vec![0.0, 1.0]]);
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Standardizer {
    mean: Vec<f64>,
    scale: Vec<f64>,
}

impl Standardizer {
    /// The mean and deviation of each feature of `train`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `train` has no samples, rows of different widths, or
    /// a feature that is NaN or infinite (the message names its sample and feature).
    pub fn fit(train: &Dataset) -> Result<Standardizer, Error> {
        train.check_samples()?;
        for (i, row) in train.inputs.iter().enumerate() {
            if let Some(j) = row.iter().position(|x| !x.is_finite()) {
                return Err(Error::InvalidInput(format!(
                    "feature {j} of sample {i} is {}; standardise finite numbers only",
                    row[j]
                )));
            }
        }
        let n = train.len() as f64;
        let mut mean = vec![0.0; train.width()];
        for row in &train.inputs {
            mean.iter_mut().zip(row).for_each(|(m, x)| *m += x);
        }
        mean.iter_mut().for_each(|m| *m /= n);
        let mut var = vec![0.0; mean.len()];
        for row in &train.inputs {
            for ((v, x), m) in var.iter_mut().zip(row).zip(&mean) {
                *v += (x - m) * (x - m);
            }
        }
        let scale = (var.iter())
            .map(|v| (v / n).sqrt())
            .map(|s| if s == 0.0 { 1.0 } else { s })
            .collect();
        Ok(Standardizer { mean, scale })
    }

    /// Each feature's mean on the training data (scikit-learn's `mean_`).
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// Each feature's divisor: its standard deviation, or 1 where that is 0
    /// (scikit-learn's `scale_`).
    pub fn scale(&self) -> &[f64] {
        &self.scale
    }

    /// One row standardised.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `row` does not have one number per fitted feature.
    pub fn transform(&self, row: &[f64]) -> Result<Vec<f64>, Error> {
        if row.len() != self.mean.len() {
            return Err(Error::InputWidth {
                expected: self.mean.len(),
                got: row.len(),
            });
        }
        let pairs = self.mean.iter().zip(&self.scale);
        Ok(row
            .iter()
            .zip(pairs)
            .map(|(x, (m, s))| (x - m) / s)
            .collect())
    }

    /// Every row of `data` standardised in place.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if a row's width is not the fitted one (nothing is changed
    /// then).
    pub fn apply(&self, data: &mut Dataset) -> Result<(), Error> {
        if let Some(row) = data.inputs.iter().find(|r| r.len() != self.mean.len()) {
            return Err(Error::InputWidth {
                expected: self.mean.len(),
                got: row.len(),
            });
        }
        for row in &mut data.inputs {
            *row = self.transform(row)?;
        }
        Ok(())
    }
}

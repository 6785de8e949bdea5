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
    /// a feature that is NaN or infinite (the message names its sample and feature),
    /// or whose mean or deviation is beyond `f64`'s range (values near `f64::MAX`).
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
        let column = |j: usize| train.inputs.iter().map(move |row| row[j]);
        let mean: Vec<f64> = (0..train.width()).map(|j| mean_of(column(j), n)).collect();
        let scale: Vec<f64> = (mean.iter().enumerate())
            .map(|(j, &m)| deviation_of(column(j), m, n))
            .collect();
        let too_large =
            (mean.iter().zip(&scale)).position(|(m, s)| !(m.is_finite() && s.is_finite()));
        if let Some(j) = too_large {
            return Err(Error::InvalidInput(format!(
                "feature {j}'s mean ({}) or deviation ({}) is beyond f64's range; scale \
                 the feature down before standardising it",
                mean[j], scale[j]
            )));
        }
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
    /// [`Error::InputWidth`] if `row` does not have one number per fitted feature;
    /// [`Error::InvalidInput`] if a feature is not finite, or standardises to a number
    /// beyond `f64`'s range (the message names the feature and its value).
    pub fn transform(&self, row: &[f64]) -> Result<Vec<f64>, Error> {
        if row.len() != self.mean.len() {
            return Err(Error::InputWidth {
                expected: self.mean.len(),
                got: row.len(),
            });
        }
        let pairs = self.mean.iter().zip(&self.scale);
        (row.iter().zip(pairs).enumerate())
            .map(|(j, (&x, (m, s)))| {
                // (`x - m` beyond range, for numbers near `f64::MAX`: apart, in range.)
                let y = match (x - m) / s {
                    y if y.is_finite() => y,
                    _ => x / s - m / s,
                };
                match y.is_finite() {
                    true => Ok(y),
                    false => Err(Error::InvalidInput(format!(
                        "feature {j} = {x} standardises to {y} (mean {m}, scale {s}); \
                         standardise finite numbers within the training data's range"
                    ))),
                }
            })
            .collect()
    }

    /// Every row of `data` standardised in place.
    ///
    /// # Errors
    ///
    /// As [`transform`](Standardizer::transform), for the first row that fails; nothing
    /// is changed then.
    pub fn apply(&self, data: &mut Dataset) -> Result<(), Error> {
        let rows = (data.inputs.iter().enumerate())
            .map(|(i, row)| {
                self.transform(row).map_err(|e| match e {
                    Error::InvalidInput(m) => Error::InvalidInput(format!("sample {i}: {m}")),
                    e => e,
                })
            })
            .collect::<Result<_, _>>()?;
        data.inputs = rows;
        Ok(())
    }
}

/// The mean of `xs` (`n` of them): their sum, first to last, over `n`. Where that sum
/// is beyond `f64`'s range (numbers near `f64::MAX`), the mean of `xs` divided by the
/// largest `|x|`, times it.
fn mean_of(xs: impl Iterator<Item = f64> + Clone, n: f64) -> f64 {
    let mean = xs.clone().fold(0.0, |sum, x| sum + x) / n;
    if mean.is_finite() {
        return mean;
    }
    let a = largest_magnitude(xs.clone());
    a * (xs.fold(0.0, |sum, x| sum + x / a) / n)
}

/// The largest `|x|` of `xs`, by which [`mean_of`] and [`deviation_of`] divide numbers
/// whose sums would be beyond `f64`'s range.
fn largest_magnitude(xs: impl Iterator<Item = f64>) -> f64 {
    xs.fold(0.0, |a: f64, x| a.max(x.abs()))
}

/// The population deviation of `xs` (`n` of them, mean `m`), or 1 where it is 0 (a
/// feature that does not vary maps to 0). Where the sum of squares is beyond `f64`'s
/// range, or below it (squares of numbers near 1e-200 round to 0, though they vary),
/// the deviation of `xs` divided by the largest `|x|`, times it.
fn deviation_of(xs: impl Iterator<Item = f64> + Clone, m: f64, n: f64) -> f64 {
    let squares = xs.clone().fold(0.0, |v, x| v + (x - m) * (x - m));
    let varies = || xs.clone().any(|x| x != m);
    let deviation = match (squares / n).sqrt() {
        d if d.is_finite() && (d != 0.0 || !varies()) => d,
        _ => {
            let a = largest_magnitude(xs.clone());
            let squares = xs.fold(0.0, |v, x| v + (x / a - m / a) * (x / a - m / a));
            a * (squares / n).sqrt()
        }
    };
    if deviation == 0.0 {
        1.0
    } else {
        deviation
    }
}

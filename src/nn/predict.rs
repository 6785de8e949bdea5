//! Predicting with a model and scoring it on a data set, on the graph: numbers in,
//! numbers out.

use super::MLP;
use crate::data::Dataset;
use crate::metrics::{predicted_classes, ConfusionMatrix, RegressionMetrics};
use crate::{Error, Value};

impl MLP {
    /// The model's outputs for one input, as numbers (Python:
    /// `[o.data for o in model(x)]`; for one output, `model(x).data`). The graph is
    /// built and dropped: for many inputs, [`predict_batch`](MLP::predict_batch), or a
    /// [`Predictor`](super::Predictor), which compiles it once.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `x.len() != self.nin()`.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let model = MLP::new(2, &[4, 1], &mut StdRng::seed_from_u64(0));
    /// let y = model.predict(&[0.5, -1.0])?[0];
    /// assert_eq!(y, model.forward_f64(&[0.5, -1.0])?[0].data());
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn predict(&self, x: &[f64]) -> Result<Vec<f64>, Error> {
        Ok(self.forward_f64(x)?.iter().map(Value::data).collect())
    }

    /// [`predict`](MLP::predict) for each input, in order, one graph at a time.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] for the first input of the wrong width.
    pub fn predict_batch<S: AsRef<[f64]>>(&self, xs: &[S]) -> Result<Vec<Vec<f64>>, Error> {
        xs.iter().map(|x| self.predict(x.as_ref())).collect()
    }

    /// The confusion matrix of a classifier on `data`: each sample's predicted class
    /// ([`predicted_classes`]: the largest output, or the sign of a single score)
    /// against its label. Labels are classes `0, 1, ...` for a model of several
    /// outputs; for one output, a label above 0 is class 1 and any other class 0 (so
    /// micrograd's ±1 and 0/1 labels both work). Its
    /// [`accuracy`](ConfusionMatrix::accuracy) is the fraction right.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] for an input of the wrong width; [`Error::InvalidInput`]
    /// if `data` has no samples or a label per row, a label that is not a class (NaN
    /// included), or an output that is NaN.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let model = MLP::new(2, &[8, 1], &mut StdRng::seed_from_u64(0));
    /// let matrix = model.evaluate_classifier(&micrograd::data::moons100())?;
    /// assert_eq!(matrix.total(), 100);
    /// println!("accuracy {:.0}%\n{matrix}", 100.0 * matrix.accuracy());
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn evaluate_classifier(&self, data: &Dataset) -> Result<ConfusionMatrix, Error> {
        score_classifier(&self.predict_batch(&data.inputs)?, data, self.nout())
    }

    /// The mean squared and mean absolute error of a model of one output on `data`,
    /// its labels the targets.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] for an input of the wrong width; [`Error::InvalidInput`] if
    /// the model has more than one output, `data` no samples or not a label per row,
    /// or a label or output that is NaN or infinite (naming the sample).
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use micrograd::data::Dataset;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let model = MLP::new(1, &[1], &mut StdRng::seed_from_u64(0));
    /// model.set_params(&[2.0, 1.0])?;                 // y = 2x + 1
    /// let data = Dataset { inputs: vec![vec![0.0], vec![1.0]], labels: vec![1.0, 4.0] };
    /// let m = model.evaluate_regressor(&data)?;
    /// assert_eq!((m.mse, m.mae), (0.5, 0.5));         // errors 0 and 1
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn evaluate_regressor(&self, data: &Dataset) -> Result<RegressionMetrics, Error> {
        check_single_output(self.nout())?;
        score_regressor(&self.predict_batch(&data.inputs)?, data)
    }
}

/// The confusion matrix of `outputs` (one row per sample of `data`, `nout` wide)
/// against `data`'s labels (see [`MLP::evaluate_classifier`]).
pub(super) fn score_classifier(
    outputs: &[Vec<f64>],
    data: &Dataset,
    nout: usize,
) -> Result<ConfusionMatrix, Error> {
    check_labels(outputs, data)?;
    let classes = nout.max(2);
    let actual = (data.labels.iter().enumerate())
        .map(|(i, &y)| match nout {
            // (A label's sign is its class: ±1 or 0/1; NaN has none.)
            1 if !y.is_nan() => Ok(usize::from(y > 0.0)),
            _ if y >= 0.0 && y.fract() == 0.0 && y < classes as f64 => Ok(y as usize),
            _ => Err(Error::InvalidInput(format!(
                "the label {y} of sample {i} is not one of the model's classes \
                 0..{classes}"
            ))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    ConfusionMatrix::new(&actual, &predicted_classes(outputs)?, classes)
}

/// The regression errors of the single outputs `outputs` against `data`'s labels.
pub(super) fn score_regressor(
    outputs: &[Vec<f64>],
    data: &Dataset,
) -> Result<RegressionMetrics, Error> {
    check_labels(outputs, data)?;
    let predicted: Vec<f64> = outputs.iter().map(|o| o[0]).collect();
    RegressionMetrics::new(&data.labels, &predicted)
}

/// `Ok` if there is a label for each row of outputs, and at least one.
fn check_labels(outputs: &[Vec<f64>], data: &Dataset) -> Result<(), Error> {
    if outputs.len() != data.labels.len() || outputs.is_empty() {
        return Err(Error::InvalidInput(format!(
            "the data set has {} rows and {} labels; evaluating needs one label per row, \
             at least one row",
            outputs.len(),
            data.labels.len()
        )));
    }
    Ok(())
}

/// `Ok` if the model has one output, the only kind a data set's labels can target.
pub(super) fn check_single_output(nout: usize) -> Result<(), Error> {
    if nout == 1 {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "a regression is scored on a model of one output, and this one has {nout}; \
         score each output with metrics::RegressionMetrics::new"
    )))
}

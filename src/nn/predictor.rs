//! [`Predictor`]: a model's forward pass compiled once onto a tape, for predicting and
//! scoring many inputs fast, on several threads.

use super::predict::{check_single_output, score_classifier, score_regressor};
use super::MLP;
use crate::data::Dataset;
use crate::metrics::{ConfusionMatrix, RegressionMetrics};
use crate::tape::{Inputs, Tape};
use crate::{Error, Value};

/// A model's forward pass compiled once onto a [`Tape`]: batched prediction and
/// scoring with the same numbers as [`MLP::predict`], bit for bit, on up to `threads`
/// threads (the same numbers for any count). It reads the model's parameters when it
/// runs, so it keeps predicting with the trained numbers as the model trains (outside
/// a [`Training`](crate::tape::Training), which holds them until it ends).
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::nn::Predictor;
/// use rand::{rngs::StdRng, SeedableRng};
/// let model = MLP::new(2, &[8, 1], &mut StdRng::seed_from_u64(0));
/// let mut predictor = Predictor::new(&model, 2)?;
/// let data = micrograd::data::moons100();
/// let outputs = predictor.predict_batch(&data.inputs)?;
/// assert_eq!(outputs[7], model.predict(&data.inputs[7])?);
/// assert_eq!(predictor.evaluate_classifier(&data)?, model.evaluate_classifier(&data)?);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub struct Predictor {
    tape: Tape,
    inputs: Inputs,
    nout: usize,
    threads: usize,
}

impl Predictor {
    /// `model`'s forward pass, compiled, to run on up to `threads` threads.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `threads` is 0; if the model has no layers (its
    /// output is its input: there is nothing to compile); or if it has no inputs or a
    /// layer of width 0, so that its output does not depend on its input (a constant,
    /// which [`MLP::predict`] gives).
    pub fn new(model: &MLP, threads: usize) -> Result<Predictor, Error> {
        crate::threads::check_threads(threads, "a prediction")?;
        let nouts = model.nouts();
        if nouts.is_empty() || model.nin() == 0 || nouts.contains(&0) {
            return Err(Error::InvalidInput(format!(
                "{} has no layers, no inputs or a layer of width 0: its output does not \
                 depend on an input, and there is nothing to compile; use MLP::predict",
                model.shape()
            )));
        }
        let leaves: Vec<Value> = (0..model.nin())
            .map(|_| Value::new(0.0).no_grad())
            .collect();
        // (Compiled with a root that is 0 on finite outputs: a root summing them could
        // overflow where no output does.)
        let tape = Tape::compile_outputs(&model.forward(&leaves)?)?;
        let inputs = tape.inputs(&leaves)?;
        Ok(Predictor {
            tape,
            inputs,
            nout: model.nout(),
            threads,
        })
    }

    /// The model's outputs for one input ([`MLP::predict`]).
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `x` is not as wide as the model's input;
    /// [`Error::NonFinite`] if the forward pass makes a NaN or infinity.
    pub fn predict(&mut self, x: &[f64]) -> Result<Vec<f64>, Error> {
        let mut outputs = self.tape.evaluate_batch(&self.inputs, &[x], 1)?;
        Ok(outputs.remove(0))
    }

    /// The model's outputs for each input, in order ([`MLP::predict_batch`]).
    ///
    /// # Errors
    ///
    /// As [`predict`](Predictor::predict), for the first input that fails.
    pub fn predict_batch<S: AsRef<[f64]> + Sync>(
        &mut self,
        xs: &[S],
    ) -> Result<Vec<Vec<f64>>, Error> {
        self.tape.evaluate_batch(&self.inputs, xs, self.threads)
    }

    /// [`MLP::evaluate_classifier`] through the tape.
    ///
    /// # Errors
    ///
    /// As [`MLP::evaluate_classifier`], but an output that is not finite is
    /// [`Error::NonFinite`], naming its op, as [`predict`](Predictor::predict) reports it.
    pub fn evaluate_classifier(&mut self, data: &Dataset) -> Result<ConfusionMatrix, Error> {
        score_classifier(&self.predict_batch(&data.inputs)?, data, self.nout)
    }

    /// [`MLP::evaluate_regressor`] through the tape.
    ///
    /// # Errors
    ///
    /// As [`MLP::evaluate_regressor`].
    pub fn evaluate_regressor(&mut self, data: &Dataset) -> Result<RegressionMetrics, Error> {
        check_single_output(self.nout)?;
        score_regressor(&self.predict_batch(&data.inputs)?, data)
    }
}

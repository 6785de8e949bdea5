//! Saving an [`MLP`] (and, if asked, its optimiser's state) to a text file, and loading
//! it back. The format is described on [`MLP::save`]; [`SavedMlp`] is the same content
//! as plain data (with the `serde` feature, for JSON or any other serde format).
//! `model_file.rs` writes and reads the text, `crate::files` replaces a file safely.

use std::path::Path;

use super::model_file::{check_state, write_model, Header, ModelReader};
use super::{Activation, CustomActivation, Module, MLP};
use crate::files::write_atomically;
use crate::optim::{Optimizer, OptimizerState};
use crate::{Error, Value};

/// An [`MLP`] as plain data: its shape, activations and parameters. What a model file
/// holds, for code that stores models its own way (with the `serde` feature this type
/// is `Serialize` and `Deserialize`; for JSON, enable serde_json's `float_roundtrip`
/// feature, without which it may read a parameter back 1 ulp off).
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::nn::SavedMlp;
/// use rand::{rngs::StdRng, SeedableRng};
/// let model = MLP::new(2, &[3, 1], &mut StdRng::seed_from_u64(0));
/// let saved: SavedMlp = model.to_saved();
/// assert_eq!(saved.layers, vec![(3, Activation::Relu), (1, Activation::Linear)]);
/// assert_eq!(saved.parameters.len(), 13);
/// let copy = MLP::from_saved(&saved)?;
/// assert_eq!(copy.to_saved(), saved);
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SavedMlp {
    /// The number of inputs.
    pub nin: usize,
    /// Each layer's width and activation, first to last.
    pub layers: Vec<(usize, Activation)>,
    /// Every parameter, in [`Module::parameters`] order.
    pub parameters: Vec<f64>,
}

impl MLP {
    /// The model as plain data: shape, activations, parameters.
    pub fn to_saved(&self) -> SavedMlp {
        SavedMlp {
            nin: self.nin(),
            layers: self.layer_specs(),
            parameters: self.parameters().iter().map(Value::data).collect(),
        }
    }

    /// A new model with the shape, activations and parameters of `saved`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `saved` holds the wrong number of parameters for its
    /// shape, a parameter that is not finite, a layer of no neurons (width 0), or a
    /// [`LeakyRelu`](Activation::LeakyRelu) whose slope is not finite.
    pub fn from_saved(saved: &SavedMlp) -> Result<MLP, Error> {
        let count = parameter_count(saved.nin, saved.layers.iter().map(|&(w, _)| w));
        if count != Some(saved.parameters.len()) {
            return Err(Error::InvalidInput(format!(
                "the saved model has {} parameters but its shape {} needs {}; \
                 save it again with MLP::to_saved",
                saved.parameters.len(),
                describe(saved.nin, &saved.layers),
                count.map_or("more than fit in memory".to_owned(), |c| c.to_string())
            )));
        }
        check_finite(&saved.parameters)?;
        check_layers(&saved.layers)?;
        let model = MLP::with_activations(saved.nin, &saved.layers, &mut ZeroRng);
        for (p, &x) in model.parameters().iter().zip(&saved.parameters) {
            p.set_data(x);
        }
        Ok(model)
    }

    /// Writes the model to `path`, replacing the file if it exists, but never leaving it
    /// half-written: the text goes to a temporary file beside it (`.NAME.tmp-` and 16
    /// hex digits, `NAME` cut short if the whole would be longer than 255 bytes), which
    /// is flushed, synced to disk and then renamed over `path`. If anything fails, the
    /// old file is untouched and the temporary one removed. The temporary file is a new
    /// one, created exclusively under a name no other process can predict: never a file
    /// or a link someone put there (such a name is passed over for another). A file
    /// replaced keeps its permissions (on Unix its mode, e.g. `0o600`; not its owner),
    /// and its temporary file is readable by its owner alone until it has them. If
    /// `path` is a symbolic link, the file it points to is replaced so, and the link
    /// kept.
    ///
    /// The format (version 3) is plain text, one item per line, each line ended by a
    /// line break:
    ///
    /// ```text
    /// micrograd-mlp version 3
    /// input 2
    /// layer 16 ReLU
    /// layer 16 ReLU
    /// layer 1 Linear
    /// parameters 337
    /// 0.23550571390294128
    /// 0.06653114721000164
    /// ...
    /// end
    /// ```
    ///
    /// The header gives the input width, then each layer's width and activation (as
    /// [`Activation`] displays it: `ReLU`, `LeakyReLU(0.01)`, `Tanh`, `Sigmoid`,
    /// `Linear`, or the name of a [`CustomActivation`]), then the number of parameters.
    /// Then one parameter per line in [`Module::parameters`] order (layer by layer,
    /// neuron by neuron, weights then bias), written with Rust's shortest round-trip
    /// formatting, so loading gives back the exact bits. [`MLP::save_with`] puts the
    /// optimiser's state after them. The last line is `end`.
    ///
    /// A file cut short anywhere (a full disk, an interrupted copy) is an
    /// [`Error::Parse`], never a model: the counts give the lines that must follow, the
    /// `end` line says that nothing was cut after the last of them, and a last line
    /// without its line break (a number cut in the middle reads as another number) is
    /// refused in every version. Files of versions 1 and 2, which have no `end` line,
    /// still load; of those, only one cut exactly between the parameters and an
    /// optimiser state loads, as the whole model it holds ([`load_with`](MLP::load_with)
    /// then says that the file holds no state). Saving again writes version 3.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let path = std::env::temp_dir().join("micrograd-doctest-save.txt");
    /// let layers = [(4, Activation::Tanh), (1, Activation::Linear)];
    /// let trained = MLP::with_activations(2, &layers, &mut StdRng::seed_from_u64(1));
    /// trained.save(&path)?;
    /// let loaded = MLP::from_file(&path)?;          // no need to know the shape
    /// assert_eq!(loaded.to_saved(), trained.to_saved());
    /// let relu = MLP::new(2, &[4, 1], &mut StdRng::seed_from_u64(2));
    /// assert!(relu.load(&path).is_err());            // tanh parameters, ReLU model
    /// # std::fs::remove_file(&path).ok();
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Write`] if the file cannot be written or renamed into place;
    /// [`Error::InvalidInput`] if a parameter is NaN or infinite, or if a layer has no
    /// neurons (width 0), which a model file does not hold, or if a live
    /// [`Training`](crate::tape::Training) holds the parameters (their nodes have the
    /// data from before it: `finish()` it first) (nothing is written).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        self.save_model(path.as_ref(), None)
    }

    /// [`save`](MLP::save), followed by `optimizer`'s [state](Optimizer::state), so that
    /// [`load_with`](MLP::load_with) can resume training exactly where it stopped:
    ///
    /// ```text
    /// optimizer Adam
    /// steps 120
    /// lr 0.05
    /// beta1 0.9
    /// ...
    /// state 337 2
    /// 0.0123 0.00042
    /// ...
    /// end
    /// ```
    ///
    /// (Each hyper-parameter once; `state N K`: N parameters (the model's) of K numbers each, one
    /// parameter per line; as no line of the file is longer than 4096 bytes, K is at
    /// most 2048. The file's `end` line follows the state.)
    ///
    /// # Errors
    ///
    /// As [`save`](MLP::save), and [`Error::InvalidInput`] (nothing is written) if
    /// `optimizer` does not update exactly this model's parameters, in order (build it
    /// over `model.parameters()`), or if its state is one the file could not give back
    /// as it is (the crate's optimisers' states always can; an optimiser written
    /// elsewhere must keep to this): a kind with a control character such as a line
    /// break; a hyper-parameter given twice, named `optimizer`, `steps` or `state`, or
    /// with a space or control character in its name; a number that is not finite; an
    /// empty state for a parameter, or states of different lengths; states for another
    /// number of parameters than the model has (none is fine); a line longer than 4095
    /// bytes.
    pub fn save_with<O: Optimizer + ?Sized>(
        &self,
        path: impl AsRef<Path>,
        optimizer: &O,
    ) -> Result<(), Error> {
        self.check_optimizer(optimizer.params())?;
        let state = optimizer.state();
        check_state(&state, optimizer.params().len())?;
        self.save_model(path.as_ref(), Some(&state))
    }

    /// A new model read from a file written by [`save`](MLP::save) or
    /// [`save_with`](MLP::save_with) (an optimiser state in it is skipped): no need to
    /// build a model of the right shape first.
    ///
    /// # Errors
    ///
    /// [`Error::Io`] if the file cannot be read; [`Error::Parse`], naming the line and
    /// column, if it is not a model file (checked on its first line, before reading
    /// more), if a layer's width is 0 (so every input width is backed by parameter
    /// lines), if a number is not finite (`NaN`, `inf`, `1e999`), if a line is missing
    /// or extra, if the file was cut short (see [`save`](MLP::save)), if a `state` line is for another number of parameters than the model
    /// has (the state is checked even though it is skipped), or gives more numbers per
    /// parameter than a line can hold
    /// (nothing is allocated from the numbers a file gives), if a line of the optimiser
    /// state (`steps`, or a hyper-parameter such as `lr`) is given twice, or if it is a
    /// version-1 file, which does not record the activations
    /// (load it with [`load`](MLP::load) into a model built as it was, then save it again).
    ///
    /// A model with an activation of your own needs
    /// [`from_file_with_activations`](MLP::from_file_with_activations).
    pub fn from_file(path: impl AsRef<Path>) -> Result<MLP, Error> {
        MLP::from_file_with_activations(path, &[])
    }

    /// [`from_file`](MLP::from_file) for a model whose layers may have activations of
    /// your own: the file names them, and `custom` gives the one of each name.
    ///
    /// # Errors
    ///
    /// As [`from_file`](MLP::from_file); an activation that is neither built in nor in
    /// `custom` is an [`Error::Parse`] naming it, on its line.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use micrograd::nn::CustomActivation;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// fn softplus(x: &Value) -> Value {
    ///     (x.exp() + 1.0).ln()
    /// }
    /// let softplus = CustomActivation::new("Softplus", softplus);
    /// let layers = [(3, Activation::Custom(softplus)), (1, Activation::Linear)];
    /// let model = MLP::with_activations(2, &layers, &mut StdRng::seed_from_u64(0));
    /// let path = std::env::temp_dir().join("micrograd-doctest-softplus.txt");
    /// model.save(&path)?;                                   // `layer 3 Softplus`
    /// let err = MLP::from_file(&path).unwrap_err();         // which function is that?
    /// assert!(err.to_string().contains("unknown activation `Softplus`"), "{err}");
    /// let loaded = MLP::from_file_with_activations(&path, &[softplus])?;
    /// assert_eq!(loaded.to_saved(), model.to_saved());
    /// # std::fs::remove_file(&path).ok();
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn from_file_with_activations(
        path: impl AsRef<Path>,
        custom: &[CustomActivation],
    ) -> Result<MLP, Error> {
        let mut file = ModelReader::open(path.as_ref())?;
        let header = file.header(custom)?;
        let layers = (header.layers.iter())
            .map(|&(width, activation)| activation.map(|a| (width, a)))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                file.error_at(
                    1,
                    1,
                    "a version-1 file records no activations, so it cannot build a model \
                     alone; build the model as it was built, MLP::load this file into it, \
                     and save it again to write the current version",
                )
            })?;
        let parameters = file.parameters(&header)?;
        file.skip_optimizer(parameters.len())?;
        MLP::from_saved(&SavedMlp {
            nin: header.nin,
            layers,
            parameters,
        })
    }

    /// Sets every parameter to the value saved in `path` by [`save`](MLP::save) or
    /// [`save_with`](MLP::save_with) (an optimiser state in it is skipped). Nothing is
    /// changed unless the whole file is valid. Files of version 1 (`micrograd-mlp 2 16
    /// 16 1`, no activations) are read too; their shape is checked, not their activations.
    ///
    /// # Errors
    ///
    /// - [`Error::Io`] if the file cannot be read;
    /// - [`Error::ShapeMismatch`] if it was saved from a model of another shape or other
    ///   activations (the message names both);
    /// - [`Error::Parse`], with line and column, as for [`from_file`](MLP::from_file).
    pub fn load(&self, path: impl AsRef<Path>) -> Result<(), Error> {
        let mut file = ModelReader::open(path.as_ref())?;
        let values = self.read_parameters(&mut file)?;
        file.skip_optimizer(values.len())?;
        self.set_parameters(&values);
        Ok(())
    }

    /// [`load`](MLP::load), and restores `optimizer` to the state saved with
    /// [`save_with`](MLP::save_with): the run then continues exactly as if it had not
    /// stopped. Nothing is changed unless the whole file is valid and the state fits.
    ///
    /// # Errors
    ///
    /// As [`load`](MLP::load); [`Error::Parse`] if the file holds no optimiser state;
    /// as [`Optimizer::set_state`] if the state is another optimiser's; and
    /// [`Error::InvalidInput`] if `optimizer` does not update exactly this model's
    /// parameters, in order.
    pub fn load_with<O: Optimizer + ?Sized>(
        &self,
        path: impl AsRef<Path>,
        optimizer: &mut O,
    ) -> Result<(), Error> {
        self.check_optimizer(optimizer.params())?;
        let mut file = ModelReader::open(path.as_ref())?;
        let values = self.read_parameters(&mut file)?;
        let Some(state) = file.optimizer(values.len())? else {
            let message = "the file holds no optimizer state; write it with MLP::save_with, \
                           or load the model alone with MLP::load";
            return Err(file.error_at(file.line + 1, 1, message));
        };
        // The whole file is read and checked: set_state changes all or nothing, then the
        // parameters are set.
        optimizer.set_state(&state)?;
        self.set_parameters(&values);
        Ok(())
    }

    /// Each layer's width and activation.
    fn layer_specs(&self) -> Vec<(usize, Activation)> {
        (self.layers().iter())
            .map(|l| {
                (
                    l.nout(),
                    l.neurons()
                        .first()
                        .map_or(Activation::Linear, |n| n.activation()),
                )
            })
            .collect()
    }

    /// Writes the file atomically (see [`save`](MLP::save)).
    fn save_model(&self, path: &Path, optimizer: Option<&OptimizerState>) -> Result<(), Error> {
        crate::tape::check_not_training(&self.parameters())?;
        let saved = self.to_saved();
        check_layers(&saved.layers)?;
        check_finite(&saved.parameters)?;
        write_atomically(path, |out| write_model(out, &saved, optimizer))
    }

    /// The parameters in `file`, after checking its shape against this model's.
    fn read_parameters(&self, file: &mut ModelReader) -> Result<Vec<f64>, Error> {
        // The model's own activations are the ones its file may name.
        let custom: Vec<CustomActivation> = (self.layer_specs().into_iter())
            .filter_map(|(_, a)| match a {
                Activation::Custom(c) => Some(c),
                _ => None,
            })
            .collect();
        let header = file.header(&custom)?;
        let expected = describe(self.nin(), &self.layer_specs());
        let found = describe_header(&header);
        let widths_match =
            header.nin == self.nin() && header.layers.iter().map(|l| l.0).eq(self.nouts());
        let activations_match = (header.layers.iter().zip(self.layer_specs()))
            .all(|(&(_, saved), (_, own))| saved.is_none_or(|a| a == own));
        if !(widths_match && activations_match) {
            return Err(Error::ShapeMismatch { expected, found });
        }
        file.parameters(&header)
    }

    /// Sets the parameters to `values` (as many as there are).
    fn set_parameters(&self, values: &[f64]) {
        for (p, &v) in self.parameters().iter().zip(values) {
            p.set_data(v);
        }
    }

    /// `Ok` if `params` are this model's parameters, in order.
    fn check_optimizer(&self, params: &[Value]) -> Result<(), Error> {
        let own = self.parameters();
        if own.len() == params.len() && own.iter().zip(params).all(|(a, b)| Value::ptr_eq(a, b)) {
            return Ok(());
        }
        Err(Error::InvalidInput(format!(
            "the optimizer updates {} values that are not this model's {} parameters in \
             order; build it with model.parameters()",
            params.len(),
            own.len()
        )))
    }
}

/// `MLP(2, [16 ReLU, 16 ReLU, 1 Linear])`.
pub(super) fn describe(nin: usize, layers: &[(usize, Activation)]) -> String {
    let layers: Vec<String> = layers.iter().map(|(w, a)| format!("{w} {a}")).collect();
    format!("MLP({nin}, [{}])", layers.join(", "))
}

/// As [`describe`]; a version-1 header (no activations) reads `MLP(2, [16, 16, 1])`.
pub(super) fn describe_header(header: &Header) -> String {
    let layers: Vec<String> = (header.layers.iter())
        .map(|(w, a)| a.map_or(w.to_string(), |a| format!("{w} {a}")))
        .collect();
    format!("MLP({}, [{}])", header.nin, layers.join(", "))
}

/// How many parameters layers of these widths have after `nin` inputs (`None` if the
/// count overflows).
pub(super) fn parameter_count(nin: usize, widths: impl Iterator<Item = usize>) -> Option<usize> {
    let mut previous = nin;
    widths.into_iter().try_fold(0usize, |count, width| {
        let layer = width.checked_mul(previous.checked_add(1)?)?;
        previous = width;
        count.checked_add(layer)
    })
}

/// `Ok` unless a parameter is NaN or infinite.
fn check_finite(parameters: &[f64]) -> Result<(), Error> {
    match parameters.iter().position(|x| !x.is_finite()) {
        None => Ok(()),
        Some(i) => Err(Error::InvalidInput(format!(
            "parameter {i} is {}; a model file holds finite numbers only (find where it \
             diverged with Value::try_backward, or lower the learning rate)",
            parameters[i]
        ))),
    }
}

/// `Ok` unless a layer has no neurons, which a model file cannot hold (its reader
/// refuses a layer of width 0), or a LeakyReLU slope is NaN or infinite, which no model
/// can have (see [`Neuron::new`](super::Neuron::new)) and a model file cannot hold (it
/// would write `LeakyReLU(NaN)` and refuse it on loading).
fn check_layers(layers: &[(usize, Activation)]) -> Result<(), Error> {
    for (i, &(width, activation)) in layers.iter().enumerate() {
        if width == 0 {
            return Err(Error::InvalidInput(format!(
                "layer {i} has no neurons (width 0); a model file holds layers of at least \
                 one neuron (a layer of none makes the model ignore its input): build the \
                 model without it"
            )));
        }
        if let Activation::LeakyRelu(slope) = activation {
            if !slope.is_finite() {
                return Err(Error::InvalidInput(format!(
                    "layer {i} has the activation {activation}, whose slope is not finite; a \
                     model's slopes are finite numbers (give it one, e.g. \
                     Activation::LeakyRelu(0.01))"
                )));
            }
        }
    }
    Ok(())
}

/// A generator that draws only zeros: [`MLP::from_saved`] builds the model with it and
/// then sets every parameter, so no draw is wasted on random numbers.
struct ZeroRng;

impl rand::TryRng for ZeroRng {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(0)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.fill(0);
        Ok(())
    }
}

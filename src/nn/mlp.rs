//! A multi-layer perceptron: layers applied one after the other (micrograd's `class MLP`).

use std::fmt;

use rand::Rng;

use super::layer::{leaves, write_list};
use super::neuron::check_width;
use super::{Activation, Init, Layer, Module};
use crate::fast::NeuronInputs;
use crate::{Error, Value};

/// A multi-layer perceptron: [`Layer`]s applied one after the other.
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::random::PythonRandom;
/// // Python: random.seed(1337); model = MLP(2, [16, 16, 1])
/// let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
/// assert_eq!(model.num_parameters(), 337); // 16*(2+1) + 16*(16+1) + 1*(16+1)
/// assert_eq!(model.parameters()[0].data(), 0.23550571390294128); // Python's first weight
/// let score = &model.forward_f64(&[0.5, -1.0])?[0];
/// # let _ = score;
/// # Ok::<(), micrograd::Error>(())
/// ```
///
/// `clone()` is an independent copy (Python's `copy.deepcopy(model)`): new leaf `Value`s
/// with the same data, so a snapshot of the best model so far stays as it was while
/// training goes on.
///
/// ```
/// use micrograd::prelude::*;
/// use rand::{rngs::StdRng, SeedableRng};
/// let model = MLP::new(2, &[4, 1], &mut StdRng::seed_from_u64(0));
/// let best = model.clone();                  // a snapshot
/// model.parameters()[0].set_data(9.0);       // training moves the model...
/// assert_ne!(best.parameters()[0].data(), 9.0); // ...not the snapshot
/// ```
///
/// The type is named `MLP` as in Python (hence the lint exception).
#[allow(clippy::upper_case_acronyms)]
#[derive(Clone)]
pub struct MLP {
    nin: usize,
    layers: Vec<Layer>,
}

impl MLP {
    /// micrograd's `MLP(nin, nouts)`: one layer per entry of `nouts`, with `nouts[i]`
    /// neurons; ReLU in every layer but the last, which is linear (Python:
    /// `Layer(sz[i], sz[i+1], nonlin=i!=len(nouts)-1)`).
    ///
    /// Weights are drawn layer by layer, neuron by neuron, weight by weight, each with
    /// [`uniform(rng, -1, 1)`](crate::random::uniform); biases are 0. With a
    /// [`PythonRandom`](crate::random::PythonRandom) seeded like Python's `random`, the
    /// model is micrograd's, bit for bit. Empty `nouts` gives a model with no layers,
    /// which returns its input (as in Python).
    ///
    /// The Zero-to-Hero lecture's `MLP(3, [4, 4, 1])` is a different network: tanh in
    /// every layer, the output too. Its training loop on four points with targets ±1
    /// needs that last tanh; with this linear-output ReLU model it can stall. Build the
    /// lecture's model with [`with_activations`](MLP::with_activations):
    /// `MLP::with_activations(3, &[(4, Activation::Tanh), (4, Activation::Tanh),
    /// (1, Activation::Tanh)], &mut rng)`.
    pub fn new<R: Rng + ?Sized>(nin: usize, nouts: &[usize], rng: &mut R) -> MLP {
        let last = nouts.len().saturating_sub(1);
        let layers: Vec<(usize, Activation)> = nouts
            .iter()
            .enumerate()
            .map(|(i, &nout)| {
                let activation = if i == last {
                    Activation::Linear
                } else {
                    Activation::Relu
                };
                (nout, activation)
            })
            .collect();
        MLP::with_activations(nin, &layers, rng)
    }

    /// An MLP whose layers are given as `(number of neurons, activation)` pairs, e.g.
    /// `&[(16, Activation::Tanh), (16, Activation::Tanh), (1, Activation::Linear)]`.
    /// Weights are drawn in the same order as [`MLP::new`].
    ///
    /// # Panics
    ///
    /// If an activation is a [`LeakyRelu`](Activation::LeakyRelu) whose slope is NaN or
    /// infinite (see [`Neuron::new`](super::Neuron::new)); [`MLP::from_saved`] returns
    /// an error instead.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let layers = [(4, Activation::Tanh), (1, Activation::Sigmoid)];
    /// let model = MLP::with_activations(3, &layers, &mut StdRng::seed_from_u64(0));
    /// assert_eq!(model.to_string(), "MLP of [Layer of [TanhNeuron(3), TanhNeuron(3), \
    ///     TanhNeuron(3), TanhNeuron(3)], Layer of [SigmoidNeuron(4)]]");
    /// ```
    pub fn with_activations<R: Rng + ?Sized>(
        nin: usize,
        layers: &[(usize, Activation)],
        rng: &mut R,
    ) -> MLP {
        MLP::with_init(nin, layers, Init::Uniform, rng)
    }

    /// [`MLP::with_activations`] with the weights drawn as `init` says (Glorot, He, ...),
    /// in the same order; biases are 0. `Init::Uniform` is `with_activations` itself.
    ///
    /// # Panics
    ///
    /// As [`MLP::with_activations`].
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use micrograd::nn::Init;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// // PyTorch: nn.init.kaiming_uniform_(w, nonlinearity='relu') on every layer
    /// let layers = [(32, Activation::Relu), (10, Activation::Linear)];
    /// let model = MLP::with_init(784, &layers, Init::HeUniform, &mut StdRng::seed_from_u64(0));
    /// let first = model.layers()[0].neurons()[0].weights()[0].data();
    /// assert!(first.abs() <= (6.0f64 / 784.0).sqrt());
    /// ```
    pub fn with_init<R: Rng + ?Sized>(
        nin: usize,
        layers: &[(usize, Activation)],
        init: Init,
        rng: &mut R,
    ) -> MLP {
        let mut width = nin;
        let mut built = Vec::with_capacity(layers.len());
        for &(nout, activation) in layers {
            built.push(Layer::with_init(width, nout, activation, init, rng));
            width = nout;
        }
        MLP { nin, layers: built }
    }

    /// The model's outputs for the input `x`: each layer's output is the next one's input
    /// (Python: `for layer in self.layers: x = layer(x)`).
    ///
    /// Always a `Vec`, one value per neuron of the last layer. Python returns a bare
    /// `Value` when the last layer has one neuron; here take `[0]` of the result.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `x.len() != self.nin()`; [`Error::InvalidInput`] if a
    /// live [`Training`](crate::tape::Training) holds the parameters (their nodes
    /// have the data from before it: `finish()` it first).
    pub fn forward(&self, x: &[Value]) -> Result<Vec<Value>, Error> {
        self.forward_owned(x.to_vec())
    }

    /// [`forward`](MLP::forward) of inputs it owns: each layer's outputs become the list
    /// the next layer's neurons share.
    fn forward_owned(&self, x: Vec<Value>) -> Result<Vec<Value>, Error> {
        check_width(self.nin, x.len())?;
        // (Lazily: the parameters are walked only while a Training is live.)
        let params = self.layers.iter().flat_map(|l| l.neurons().iter());
        crate::tape::check_not_training(params.flat_map(super::Neuron::own_params))?;
        let mut x = x;
        for layer in &self.layers {
            x = layer.forward_shared(&NeuronInputs::new(x))?;
        }
        Ok(x)
    }

    /// [`forward`](MLP::forward) on plain numbers, each wrapped in a new leaf `Value`
    /// (Python: `model(list(map(Value, xrow)))`).
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `x.len() != self.nin()`; [`Error::InvalidInput`] if a
    /// live [`Training`](crate::tape::Training) holds the parameters (their nodes
    /// have the data from before it: `finish()` it first).
    pub fn forward_f64(&self, x: &[f64]) -> Result<Vec<Value>, Error> {
        self.forward_owned(leaves(x))
    }

    /// The number of inputs.
    pub fn nin(&self) -> usize {
        self.nin
    }

    /// The number of outputs: the last layer's width (`nin` if there are no layers).
    pub fn nout(&self) -> usize {
        self.layers.last().map_or(self.nin, Layer::nout)
    }

    /// The layers, first to last (Python: `self.layers`).
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// The width of each layer, e.g. `[16, 16, 1]` (Python's `nouts`).
    pub fn nouts(&self) -> Vec<usize> {
        self.layers.iter().map(Layer::nout).collect()
    }

    /// The shape as Python would write the constructor call: `MLP(2, [16, 16, 1])`.
    pub fn shape(&self) -> String {
        shape_string(self.nin, &self.nouts())
    }
}

/// `MLP(2, [16, 16, 1])`.
pub(super) fn shape_string(nin: usize, nouts: &[usize]) -> String {
    let widths: Vec<String> = nouts.iter().map(usize::to_string).collect();
    format!("MLP({nin}, [{}])", widths.join(", "))
}

/// Layer 0's parameters, then layer 1's, ... (Python:
/// `[p for layer in self.layers for p in layer.parameters()]`).
impl Module for MLP {
    fn parameters(&self) -> Vec<Value> {
        self.layers.iter().flat_map(Layer::parameters).collect()
    }
}

/// Python's `__repr__`: `MLP of [Layer of [ReLUNeuron(2), ...], ...]`.
impl fmt::Display for MLP {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("MLP of [")?;
        write_list(f, &self.layers)?;
        f.write_str("]")
    }
}

/// The same as [`Display`](fmt::Display), as Python's `repr()`.
impl fmt::Debug for MLP {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

//! A layer of neurons that all see the same input (micrograd's `class Layer`).

use std::fmt;

use rand::Rng;

use super::neuron::check_width;
use super::{Activation, Init, Module, Neuron};
use crate::fast::NeuronInputs;
use crate::{Error, Value};

/// `nout` [`Neuron`]s, each with `nin` inputs and the same [`Activation`]; the output is
/// one value per neuron.
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::nn::Layer;
/// use rand::{rngs::StdRng, SeedableRng};
/// // Python: Layer(3, 2)
/// let layer = Layer::new(3, 2, Activation::Relu, &mut StdRng::seed_from_u64(0));
/// let out = layer.forward_f64(&[1.0, 2.0, 3.0])?;
/// assert_eq!(out.len(), 2);
/// assert_eq!(layer.num_parameters(), 8); // 2 * (3 + 1)
/// assert_eq!(layer.to_string(), "Layer of [ReLUNeuron(3), ReLUNeuron(3)]");
/// # Ok::<(), micrograd::Error>(())
/// ```
/// `clone()` copies the parameters into new leaves (see [`Neuron`]'s `Clone`): the copy
/// trains independently.
#[derive(Clone)]
pub struct Layer {
    nin: usize,
    neurons: Vec<Neuron>,
}

impl Layer {
    /// `nout` neurons of `nin` inputs, made one after the other (so neuron 0 draws its
    /// weights first, as in Python's `[Neuron(nin, **kwargs) for _ in range(nout)]`).
    ///
    /// # Panics
    ///
    /// If `activation` is a [`LeakyRelu`](Activation::LeakyRelu) whose slope is not
    /// finite (see [`Neuron::new`]).
    pub fn new<R: Rng + ?Sized>(
        nin: usize,
        nout: usize,
        activation: Activation,
        rng: &mut R,
    ) -> Layer {
        Layer::with_init(nin, nout, activation, Init::Uniform, rng)
    }

    /// [`Layer::new`] with its weights drawn as `init` says (fan in `nin`, fan out
    /// `nout`), in the same order.
    ///
    /// # Panics
    ///
    /// As [`Layer::new`].
    ///
    /// ```
    /// use micrograd::nn::{Activation, Init, Layer};
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let layer = Layer::with_init(100, 4, Activation::Relu, Init::HeUniform, &mut StdRng::seed_from_u64(0));
    /// let bound = (6.0f64 / 100.0).sqrt();
    /// assert!(layer.neurons().iter().all(|n| n.weights().iter().all(|w| w.data().abs() <= bound)));
    /// ```
    pub fn with_init<R: Rng + ?Sized>(
        nin: usize,
        nout: usize,
        activation: Activation,
        init: Init,
        rng: &mut R,
    ) -> Layer {
        Layer {
            nin,
            neurons: (0..nout)
                .map(|_| Neuron::drawn(nin, activation, || init.draw(nin, nout, rng)))
                .collect(),
        }
    }

    /// Every neuron's output for the input `x`, in order (Python: `[n(x) for n in self.neurons]`).
    ///
    /// Always a `Vec`, even for one neuron (Python returns the bare value then).
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `x.len() != self.nin()`; [`Error::InvalidInput`] if a
    /// live [`Training`](crate::tape::Training) holds the parameters (their nodes
    /// have the data from before it: `finish()` it first).
    pub fn forward(&self, x: &[Value]) -> Result<Vec<Value>, Error> {
        crate::tape::check_not_training(self.neurons.iter().flat_map(Neuron::own_params))?;
        self.forward_shared(&NeuronInputs::new(x.to_vec()))
    }

    /// [`forward`](Layer::forward) on inputs that the neurons' nodes share (one list
    /// for the layer, not a copy per neuron).
    pub(crate) fn forward_shared(&self, x: &NeuronInputs) -> Result<Vec<Value>, Error> {
        check_width(self.nin, x.values().len())?;
        let mut out = Vec::with_capacity(self.neurons.len());
        for n in &self.neurons {
            out.push(n.forward_shared(x)?);
        }
        Ok(out)
    }

    /// [`forward`](Layer::forward) on plain numbers, each wrapped in a new leaf `Value`.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `x.len() != self.nin()`; [`Error::InvalidInput`] if a
    /// live [`Training`](crate::tape::Training) holds the parameters (their nodes
    /// have the data from before it: `finish()` it first).
    pub fn forward_f64(&self, x: &[f64]) -> Result<Vec<Value>, Error> {
        self.forward(&leaves(x))
    }

    /// The number of inputs each neuron takes.
    pub fn nin(&self) -> usize {
        self.nin
    }

    /// The number of neurons, i.e. of outputs.
    pub fn nout(&self) -> usize {
        self.neurons.len()
    }

    /// The neurons (Python: `self.neurons`).
    pub fn neurons(&self) -> &[Neuron] {
        &self.neurons
    }
}

/// Each number as a new leaf `Value` that needs no gradient (Python:
/// `list(map(Value, xrow))`; nobody reads an input's gradient, so `backward()` skips it:
/// [`Value::no_grad`]).
pub(super) fn leaves(x: &[f64]) -> Vec<Value> {
    x.iter().map(|&xi| Value::new(xi).no_grad()).collect()
}

/// Neuron 0's parameters, then neuron 1's, ... (Python:
/// `[p for n in self.neurons for p in n.parameters()]`).
impl Module for Layer {
    fn parameters(&self) -> Vec<Value> {
        self.neurons.iter().flat_map(Neuron::parameters).collect()
    }
}

/// Python's `__repr__`: `Layer of [ReLUNeuron(2), ReLUNeuron(2)]`.
impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Layer of [")?;
        write_list(f, &self.neurons)?;
        f.write_str("]")
    }
}

/// The same as [`Display`](fmt::Display), as Python's `repr()`.
impl fmt::Debug for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// `a, b, c` (Python: `', '.join(str(x) for x in items)`).
pub(super) fn write_list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

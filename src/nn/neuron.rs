//! One neuron: `activation(b + w·x)` (micrograd's `class Neuron`).

use std::fmt;
use std::rc::Rc;

use rand::Rng;

use super::{Activation, Module};
use crate::fast::{NeuronInputs, NeuronParams};
use crate::random::uniform;
use crate::{Error, Value};

/// One neuron: `nin` weights `w`, a bias `b`, and an [`Activation`] `f`;
/// its output is `f(b + w0·x0 + w1·x1 + ...)`.
///
/// ```
/// use micrograd::{nn::{Activation, Neuron}, Value};
/// use micrograd::random::PythonRandom;
/// // Python: random.seed(1); n = Neuron(2); n([Value(1.0), Value(2.0)])
/// let n = Neuron::new(2, Activation::Relu, &mut PythonRandom::seed(1));
/// let y = n.forward(&[Value::new(1.0), Value::new(2.0)])?;
/// let [w0, w1] = [n.weights()[0].data(), n.weights()[1].data()];
/// assert_eq!(y.data(), (0.0 + w0 * 1.0 + w1 * 2.0).max(0.0));
/// assert_eq!(n.to_string(), "ReLUNeuron(2)");
/// # Ok::<(), micrograd::Error>(())
/// ```
pub struct Neuron {
    /// `[b, w0, w1, ...]`, shared with the nodes [`forward`](Neuron::forward) makes.
    params: Rc<NeuronParams>,
    activation: Activation,
}

/// An independent copy: new leaf `Value`s with the same data and labels (and zero
/// gradients), so training one neuron does not move the other. (Python's
/// `copy.deepcopy(n)`; `Value::clone` would share the parameters instead.)
///
/// ```
/// use micrograd::{nn::{Activation, Neuron}, Value};
/// use rand::{rngs::StdRng, SeedableRng};
/// let n = Neuron::new(2, Activation::Relu, &mut StdRng::seed_from_u64(0));
/// let copy = n.clone();
/// n.bias().set_data(5.0);
/// assert_eq!(copy.bias().data(), 0.0);
/// assert!(!Value::ptr_eq(&n.weights()[0], &copy.weights()[0]));
/// ```
impl Clone for Neuron {
    fn clone(&self) -> Neuron {
        let w: Vec<Value> = self.weights().iter().map(fresh_copy).collect();
        Neuron {
            params: Rc::new(NeuronParams::new(&fresh_copy(self.bias()), &w)),
            activation: self.activation,
        }
    }
}

/// A new leaf with `v`'s data and label, and gradient 0.
fn fresh_copy(v: &Value) -> Value {
    let copy = Value::new(v.data());
    match v.label() {
        Some(label) => copy.with_label(label),
        None => copy,
    }
}

impl Neuron {
    /// A neuron with `nin` inputs: weights drawn one by one with
    /// [`uniform(rng, -1, 1)`](crate::random::uniform) (Python:
    /// `[Value(random.uniform(-1,1)) for _ in range(nin)]`), bias 0.
    ///
    /// # Panics
    ///
    /// If `activation` is a [`LeakyRelu`](Activation::LeakyRelu) whose slope is NaN or
    /// infinite (a programming error, as `clamp(1.0, 0.0)` is: such a neuron's output
    /// would be NaN for every negative input, and no model file could hold it). A slope
    /// read from data can be checked with `f64::is_finite` first, or the model built
    /// with [`MLP::from_saved`](super::MLP::from_saved), which returns an error.
    pub fn new<R: Rng + ?Sized>(nin: usize, activation: Activation, rng: &mut R) -> Neuron {
        Neuron::drawn(nin, activation, || uniform(rng, -1.0, 1.0))
    }

    /// A neuron of `nin` weights, each `draw()` in turn, and bias 0.
    ///
    /// # Panics
    ///
    /// As [`Neuron::new`].
    pub(super) fn drawn(
        nin: usize,
        activation: Activation,
        mut draw: impl FnMut() -> f64,
    ) -> Neuron {
        check_activation(activation);
        let w: Vec<Value> = (0..nin).map(|_| Value::new(draw())).collect();
        Neuron {
            params: Rc::new(NeuronParams::new(&Value::new(0.0), &w)),
            activation,
        }
    }

    /// The neuron's output for the input `x`: `f(b + w0·x0 + w1·x1 + ...)`.
    ///
    /// The whole neuron is ONE node ([`Value::neuron`]): it adds `b`, then `w0·x0`,
    /// `w1·x1`, ... left to right, the same float additions in the same order as
    /// Python's `sum((wi*xi for wi,xi in zip(self.w, x)), self.b)`, so the result has
    /// the same bits, and so have the gradients `backward()` gives (Python's graph has
    /// 2n + 1 nodes for it: [`DotOptions::as_python`](crate::view::DotOptions::as_python)
    /// draws those).
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `x.len()` is not the number of weights (Python's `zip`
    /// would silently use the shorter of the two).; [`Error::InvalidInput`] if a live
    /// [`Training`](crate::tape::Training) holds the parameters (their nodes have the
    /// data from before it: `finish()` it first).
    pub fn forward(&self, x: &[Value]) -> Result<Value, Error> {
        crate::tape::check_not_training(self.own_params())?;
        self.forward_shared(&NeuronInputs::new(x.to_vec()))
    }

    /// [`forward`](Neuron::forward) on inputs that the node shares with the other
    /// neurons of its layer (see `src/fast/neuron.rs`).
    ///
    /// A [`Custom`](Activation::Custom) activation is applied to a linear neuron's node.
    pub(crate) fn forward_shared(&self, x: &NeuronInputs) -> Result<Value, Error> {
        match self.activation {
            Activation::Custom(custom) => {
                let sum = Value::shared_neuron(&self.params, x, Activation::Linear)?;
                Ok(custom.apply(&sum))
            }
            activation => Value::shared_neuron(&self.params, x, activation),
        }
    }

    /// The weights, then the bias, without collecting them (see [`Module::parameters`]).
    pub(crate) fn own_params(&self) -> impl Iterator<Item = &Value> {
        self.params.weights().iter().chain([self.params.bias()])
    }

    /// The number of inputs (and of weights).
    pub fn nin(&self) -> usize {
        self.weights().len()
    }

    /// The weights `w`, one per input (Python: `self.w`).
    pub fn weights(&self) -> &[Value] {
        self.params.weights()
    }

    /// The bias `b` (Python: `self.b`).
    pub fn bias(&self) -> &Value {
        self.params.bias()
    }

    /// The nonlinearity applied to the weighted sum.
    pub fn activation(&self) -> Activation {
        self.activation
    }
}

/// Panics if `activation` is a [`LeakyRelu`](Activation::LeakyRelu) whose slope is not
/// finite (see [`Neuron::new`]).
fn check_activation(activation: Activation) {
    if let Activation::LeakyRelu(slope) = activation {
        assert!(
            slope.is_finite(),
            "a neuron with the activation {activation}: the slope must be a finite \
             number, such as Activation::LeakyRelu(0.01)"
        );
    }
}

/// [`Error::InputWidth`] unless `got == expected`.
pub(super) fn check_width(expected: usize, got: usize) -> Result<(), Error> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::InputWidth { expected, got })
    }
}

/// The weights followed by the bias (Python: `self.w + [self.b]`).
impl Module for Neuron {
    fn parameters(&self) -> Vec<Value> {
        let mut ps = self.weights().to_vec();
        ps.push(self.bias().clone());
        ps
    }
}

/// Python's `__repr__`: `ReLUNeuron(2)`, `LinearNeuron(16)`, `TanhNeuron(3)`, ...
impl fmt::Display for Neuron {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}Neuron({})", self.activation, self.nin())
    }
}

/// The same as [`Display`](fmt::Display), as Python's `repr()`.
impl fmt::Debug for Neuron {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

//! A layer is a list of neurons that all see the same inputs; its output is one value
//! per neuron. Here the neurons are the crate's (`micrograd::nn::Neuron`, the one you
//! wrote in exercise 10, with its `forward` returning a `Result`: a wrong number of
//! inputs is an error, not a crash).
//!
//! Write `new` (Python: `self.neurons = [Neuron(nin) for _ in range(nout)]`; here
//! `Neuron::new(nin, Activation::Tanh, rng)`), `forward` (`[n(x) for n in
//! self.neurons]`: collect the `Result`s into one `Result<Vec<_>, _>`) and `parameters`
//! (every neuron's, in order; `Module::parameters` gives a neuron's).

use micrograd::nn::{Activation, Module, Neuron};
use micrograd::rand::Rng;
use micrograd::{Error, Value};

/// `nout` tanh neurons with `nin` inputs each.
pub struct Layer {
    /// The neurons, in order.
    pub neurons: Vec<Neuron>,
}

impl Layer {
    /// Python's `Layer(nin, nout)`.
    pub fn new<R: Rng + ?Sized>(nin: usize, nout: usize, rng: &mut R) -> Layer {
        // ✎ YOUR CODE
        Layer {
            neurons: Vec::new(),
        }
    }

    /// One output per neuron, Python's `layer(x)`.
    pub fn forward(&self, x: &[Value]) -> Result<Vec<Value>, Error> {
        // ✎ YOUR CODE
        Ok(Vec::new())
    }

    /// Every neuron's parameters, the first neuron's first.
    pub fn parameters(&self) -> Vec<Value> {
        // ✎ YOUR CODE
        Vec::new()
    }
}

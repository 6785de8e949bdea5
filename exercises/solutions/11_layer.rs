//! Solution of exercise 11 (see yours/11_layer.rs for the instructions).

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
        let neurons = (0..nout)
            .map(|_| Neuron::new(nin, Activation::Tanh, rng))
            .collect();
        Layer { neurons }
    }

    /// One output per neuron, Python's `layer(x)`.
    pub fn forward(&self, x: &[Value]) -> Result<Vec<Value>, Error> {
        self.neurons.iter().map(|n| n.forward(x)).collect()
    }

    /// Every neuron's parameters, the first neuron's first.
    pub fn parameters(&self) -> Vec<Value> {
        self.neurons.iter().flat_map(|n| n.parameters()).collect()
    }
}

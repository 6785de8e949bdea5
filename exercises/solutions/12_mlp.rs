//! Solution of exercise 12 (see yours/12_mlp.rs for the instructions).

use micrograd::nn::{Activation, Layer, Module};
use micrograd::rand::Rng;
use micrograd::{Error, Value};

/// Layers of tanh neurons, one after the other.
pub struct Mlp {
    /// The layers, the input's first.
    pub layers: Vec<Layer>,
}

impl Mlp {
    /// Python's `MLP(nin, nouts)`: a layer of `nouts[i]` neurons for each `i`.
    pub fn new<R: Rng + ?Sized>(nin: usize, nouts: &[usize], rng: &mut R) -> Mlp {
        // sz = [nin] + nouts
        let sz: Vec<usize> = std::iter::once(nin).chain(nouts.iter().copied()).collect();
        let layers = sz
            .windows(2)
            .map(|w| Layer::new(w[0], w[1], Activation::Tanh, rng))
            .collect();
        Mlp { layers }
    }

    /// The last layer's outputs for the input `x`, Python's `n(x)`.
    pub fn forward(&self, x: &[Value]) -> Result<Vec<Value>, Error> {
        let mut x = x.to_vec();
        for layer in &self.layers {
            x = layer.forward(&x)?;
        }
        Ok(x)
    }

    /// Every layer's parameters, in order.
    pub fn parameters(&self) -> Vec<Value> {
        self.layers.iter().flat_map(|l| l.parameters()).collect()
    }
}

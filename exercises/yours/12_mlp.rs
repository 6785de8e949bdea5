//! A multi-layer perceptron: layers one after the other, each layer's outputs the next
//! one's inputs. Python: `sz = [nin] + nouts; self.layers = [Layer(sz[i], sz[i+1]) for
//! i in range(len(nouts))]`, and `for layer in self.layers: x = layer(x)`.
//!
//! Here the layers are the crate's, `Layer::new(nin, nout, Activation::Tanh, rng)`,
//! tanh in every layer as in the lecture. (The crate's own `MLP::new` is micrograd's
//! nn.py network, ReLU inside and a linear output; the lecture's all-tanh network is
//! `MLP::with_activations`. You are writing that one.)

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
        // ✎ YOUR CODE
        Mlp { layers: Vec::new() }
    }

    /// The last layer's outputs for the input `x`, Python's `n(x)`.
    pub fn forward(&self, x: &[Value]) -> Result<Vec<Value>, Error> {
        // ✎ YOUR CODE
        Ok(Vec::new())
    }

    /// Every layer's parameters, in order.
    pub fn parameters(&self) -> Vec<Value> {
        // ✎ YOUR CODE
        Vec::new()
    }
}

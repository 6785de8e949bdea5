//! Solution of exercise 10 (see yours/10_neuron.rs for the instructions).

use micrograd::rand::Rng;
use micrograd::random::uniform;
use micrograd::Value;

/// A neuron with `w.len()` inputs and tanh.
pub struct Neuron {
    /// One weight per input.
    pub w: Vec<Value>,
    /// The bias.
    pub b: Value,
}

impl Neuron {
    /// The lecture's `Neuron(nin)`: every weight and the bias from uniform(−1, 1).
    pub fn new<R: Rng + ?Sized>(nin: usize, rng: &mut R) -> Neuron {
        let w = (0..nin)
            .map(|_| Value::new(uniform(rng, -1.0, 1.0)))
            .collect();
        let b = Value::new(uniform(rng, -1.0, 1.0));
        Neuron { w, b }
    }

    /// tanh(w·x + b), Python's `n(x)`.
    pub fn forward(&self, x: &[Value]) -> Value {
        // act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b)
        let act = self.w.iter().zip(x).map(|(wi, xi)| wi * xi).sum::<Value>() + &self.b;
        act.tanh()
    }

    /// The weights, then the bias.
    pub fn parameters(&self) -> Vec<Value> {
        // self.w + [self.b]
        let mut params = self.w.clone();
        params.push(self.b.clone());
        params
    }
}

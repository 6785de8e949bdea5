//! The lecture's neural-net library starts with a neuron: weights `w`, a bias `b`, and
//! a call that computes tanh(Σ wᵢ·xᵢ + b). In Python, `n(x)` runs `__call__`; a Rust
//! struct is not callable (`n(x)` is error E0618), so the call is a method, `forward`.
//!
//! Write `forward` (Python: `act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b);
//! out = act.tanh()`) and `parameters` (Python: `self.w + [self.b]`). A sum of
//! `Value`s: `.sum::<Value>()` on an iterator, or a loop with `+`.

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
        // ✎ YOUR CODE
        Value::new(0.0)
    }

    /// The weights, then the bias.
    pub fn parameters(&self) -> Vec<Value> {
        // ✎ YOUR CODE
        Vec::new()
    }
}

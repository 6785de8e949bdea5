//! The `Module` trait: anything with trainable parameters (micrograd's `class Module`).

use crate::Value;

/// Anything with trainable parameters: a [`Neuron`](super::Neuron), a
/// [`Layer`](super::Layer), an [`MLP`](super::MLP), or your own model.
///
/// Implement [`parameters`](Module::parameters); [`zero_grad`](Module::zero_grad) and
/// [`num_parameters`](Module::num_parameters) come for free.
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::nn::Neuron;
/// use rand::{rngs::StdRng, SeedableRng};
///
/// /// Two neurons whose outputs are added: a model of your own.
/// struct Pair(Neuron, Neuron);
/// impl Module for Pair {
///     fn parameters(&self) -> Vec<Value> {
///         [self.0.parameters(), self.1.parameters()].concat()
///     }
/// }
///
/// let mut rng = StdRng::seed_from_u64(0);
/// let pair = Pair(Neuron::new(3, Activation::Relu, &mut rng), Neuron::new(3, Activation::Tanh, &mut rng));
/// assert_eq!(pair.num_parameters(), 8); // 2 * (3 weights + 1 bias)
/// ```
pub trait Module {
    /// Every trainable parameter, in a fixed order (micrograd's `parameters()`).
    ///
    /// The values are handles to the model's own nodes: setting their data changes the
    /// model, and `backward()` fills in their gradients.
    fn parameters(&self) -> Vec<Value>;

    /// Sets every parameter's gradient to 0 (Python: `for p in self.parameters(): p.grad = 0`).
    ///
    /// Call it before each `backward()` in a training loop: gradients accumulate.
    fn zero_grad(&self) {
        for p in self.parameters() {
            p.zero_grad();
        }
    }

    /// How many parameters there are (Python: `len(model.parameters())`).
    fn num_parameters(&self) -> usize {
        self.parameters().len()
    }
}

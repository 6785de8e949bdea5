//! How a layer's weights are drawn: micrograd's uniform(-1, 1), or the scaled
//! initialisers of Glorot and He.

use rand::Rng;

use crate::random::{normalvariate, uniform};

/// How [`MLP::with_init`](super::MLP::with_init) and
/// [`Layer::with_init`](super::Layer::with_init) draw each weight of a neuron with
/// `fan_in` inputs in a layer of `fan_out` neurons (biases start at 0, as in
/// micrograd). Each weight is one draw from the caller's generator, layer by layer,
/// neuron by neuron, weight by weight.
///
/// | variant | each weight | as PyTorch's |
/// |---------|-------------|--------------|
/// | `Uniform` (default) | uniform(−1, 1) | micrograd's `random.uniform(-1,1)` |
/// | `GlorotUniform` | uniform(−a, a), a = √(6 / (fan_in + fan_out)) | `xavier_uniform_` |
/// | `GlorotNormal` | normal(0, σ), σ = √(2 / (fan_in + fan_out)) | `xavier_normal_` |
/// | `HeUniform` | uniform(−a, a), a = √(6 / fan_in) | `kaiming_uniform_(nonlinearity='relu')` |
/// | `HeNormal` | normal(0, σ), σ = √(2 / fan_in) | `kaiming_normal_(nonlinearity='relu')` |
///
/// Uniform draws are [`uniform`], normal ones
/// [`normalvariate`]: with a
/// [`PythonRandom`](crate::random::PythonRandom) they are Python's `random.uniform`
/// and `random.normalvariate`. `Uniform` keeps micrograd's numbers: `MLP::new` uses it.
///
/// ```
/// use micrograd::nn::Init;
/// use micrograd::random::{uniform, PythonRandom};
/// let a = (6.0f64 / (784.0 + 32.0)).sqrt();
/// let w = Init::GlorotUniform.draw(784, 32, &mut PythonRandom::seed(1));
/// assert_eq!(w, uniform(&mut PythonRandom::seed(1), -a, a));
/// assert_eq!(Init::default(), Init::Uniform);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Init {
    /// micrograd's uniform(−1, 1).
    #[default]
    Uniform,
    /// Glorot and Bengio (2010), uniform: keeps the variance of activations and of
    /// gradients about the same through a layer of tanh or linear neurons.
    GlorotUniform,
    /// Glorot and Bengio (2010), normal.
    GlorotNormal,
    /// He et al. (2015), uniform: for ReLU neurons, which zero half their inputs.
    HeUniform,
    /// He et al. (2015), normal.
    HeNormal,
}

impl Init {
    /// One weight of a neuron with `fan_in` inputs in a layer of `fan_out` neurons.
    ///
    /// A `fan_in` of 0 (a neuron without weights draws none) gives a scale of
    /// infinity; such a draw is never made by the builders.
    pub fn draw<R: Rng + ?Sized>(self, fan_in: usize, fan_out: usize, rng: &mut R) -> f64 {
        let (fan_in, fan_out) = (fan_in as f64, fan_out as f64);
        match self {
            Init::Uniform => uniform(rng, -1.0, 1.0),
            Init::GlorotUniform => {
                let a = (6.0 / (fan_in + fan_out)).sqrt();
                uniform(rng, -a, a)
            }
            Init::GlorotNormal => normalvariate(rng, 0.0, (2.0 / (fan_in + fan_out)).sqrt()),
            Init::HeUniform => {
                let a = (6.0 / fan_in).sqrt();
                uniform(rng, -a, a)
            }
            Init::HeNormal => normalvariate(rng, 0.0, (2.0 / fan_in).sqrt()),
        }
    }
}

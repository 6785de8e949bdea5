//! The nonlinearity a neuron applies to its weighted sum.

use std::fmt;

use crate::Value;

/// What a neuron applies to `b + w·x`. micrograd has two: ReLU (`nonlin=True`) and
/// linear (`nonlin=False`); the others are the engine's other ops.
///
/// | variant | f(x) | f'(x) |
/// |---------|------|-------|
/// | `Relu` | max(0, x) | 1 if x > 0 else 0 |
/// | `LeakyRelu(s)` | x if x > 0 else s·x | 1 if x > 0 else s |
/// | `Tanh` | tanh x | 1 − tanh² x |
/// | `Sigmoid` | 1 / (1 + e^−x) | σ(x)(1 − σ(x)) |
/// | `Linear` | x | 1 |
///
/// More may come (the enum is `#[non_exhaustive]`): a `match` on it outside this crate
/// needs a `_` arm.
///
/// ```
/// use micrograd::{nn::Activation, Value};
/// let x = Value::new(-2.0);
/// assert_eq!(Activation::Relu.apply(&x).data(), 0.0);
/// assert_eq!(Activation::LeakyRelu(0.1).apply(&x).data(), -0.2);
/// assert_eq!(Activation::Linear.apply(&x).data(), -2.0);
/// assert_eq!(Activation::Relu.to_string(), "ReLU"); // as in micrograd's `ReLUNeuron(2)`
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Activation {
    /// `max(0, x)`: micrograd's `nonlin=True`, the default for hidden layers.
    Relu,
    /// `x` for x > 0, `slope * x` otherwise. The slope must be finite: a neuron with a
    /// NaN or infinite one is refused ([`Neuron::new`](super::Neuron::new) panics,
    /// [`MLP::from_saved`](super::MLP::from_saved) returns an error).
    LeakyRelu(f64),
    /// `tanh(x)`.
    Tanh,
    /// `1 / (1 + exp(-x))`.
    Sigmoid,
    /// `x` unchanged: micrograd's `nonlin=False`, the default for the last layer.
    Linear,
}

impl Activation {
    /// Applies the function to `x`; `Linear` returns `x` itself (the same node).
    ///
    /// # Panics
    ///
    /// If `self` is a `LeakyRelu` whose slope is NaN or infinite (as
    /// [`Value::leaky_relu`] does).
    pub fn apply(&self, x: &Value) -> Value {
        match *self {
            Activation::Relu => x.relu(),
            Activation::LeakyRelu(slope) => x.leaky_relu(slope),
            Activation::Tanh => x.tanh(),
            Activation::Sigmoid => x.sigmoid(),
            Activation::Linear => x.clone(),
        }
    }
}

/// The prefix of a neuron's name, as in micrograd's `ReLUNeuron(2)` / `LinearNeuron(2)`:
/// `ReLU`, `LeakyReLU(0.01)`, `Tanh`, `Sigmoid`, `Linear`.
impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Activation::Relu => f.write_str("ReLU"),
            Activation::LeakyRelu(slope) => write!(f, "LeakyReLU({slope:?})"),
            Activation::Tanh => f.write_str("Tanh"),
            Activation::Sigmoid => f.write_str("Sigmoid"),
            Activation::Linear => f.write_str("Linear"),
        }
    }
}

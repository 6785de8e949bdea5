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
/// | `Custom(c)` | your function, by name | as your function's graph says |
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
    /// An activation of your own ([`CustomActivation`]): a name and a function of a
    /// `Value`. (With the `serde` feature it is not serialised: a model that has one
    /// is saved by name in a model file, [`MLP::save`](super::MLP::save).)
    #[cfg_attr(feature = "serde", serde(skip))]
    Custom(CustomActivation),
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
            Activation::Custom(custom) => custom.apply(x),
        }
    }

    /// The built-in activation named `name` as [`Display`](fmt::Display) writes it
    /// (`ReLU`, `LeakyReLU(0.01)`, `Tanh`, `Sigmoid`, `Linear`), else the one of
    /// `custom` with that name.
    pub(super) fn named(name: &str, custom: &[CustomActivation]) -> Option<Activation> {
        let built_in = match name {
            "ReLU" => Some(Activation::Relu),
            "Tanh" => Some(Activation::Tanh),
            "Sigmoid" => Some(Activation::Sigmoid),
            "Linear" => Some(Activation::Linear),
            _ => (name
                .strip_prefix("LeakyReLU(")
                .and_then(|s| s.strip_suffix(')')))
            .and_then(|slope| slope.parse::<f64>().ok())
            .filter(|slope| slope.is_finite())
            .map(Activation::LeakyRelu),
        };
        let own = || custom.iter().find(|c| c.name() == name).copied();
        built_in.or_else(|| own().map(Activation::Custom))
    }
}

/// An activation of your own for a [`Neuron`](super::Neuron), a
/// [`Layer`](super::Layer) or an [`MLP`](super::MLP): a name and a function
/// `fn(&Value) -> Value`, written once (with [`Value::custom`], or from the engine's
/// ops). The neuron applies it to its sum `b + w·x`; `backward` and a compiled
/// [`Tape`](crate::tape::Tape) go through whatever graph the function builds (a
/// `Value::custom` op compiles with its closures), with the same numbers on both.
///
/// A model file records it by name ([`MLP::save`](super::MLP::save)); to read the
/// file back, give the loader the activation
/// ([`MLP::from_file_with_activations`](super::MLP::from_file_with_activations)): a
/// name the loader does not know is an error naming it.
///
/// Derivative: that of the graph the function builds.
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::nn::CustomActivation;
/// use rand::{rngs::StdRng, SeedableRng};
///
/// /// GELU, tanh approximation: 0.5 x (1 + tanh(√(2/π) (x + 0.044715 x³))).
/// fn gelu(x: &Value) -> Value {
///     const C: f64 = 0.7978845608028654; // √(2/π)
///     Value::custom(
///         "gelu",
///         &[x],
///         |p| 0.5 * p[0] * (1.0 + (C * (p[0] + 0.044715 * p[0].powi(3))).tanh()),
///         |p, _out, d| {
///             let (x, t) = (p[0], (C * (p[0] + 0.044715 * p[0].powi(3))).tanh());
///             d[0] = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * C * (1.0 + 3.0 * 0.044715 * x * x);
///         },
///     )
/// }
///
/// let gelu = Activation::Custom(CustomActivation::new("GELU", gelu));
/// let layers = [(8, gelu), (1, Activation::Linear)];
/// let model = MLP::with_activations(2, &layers, &mut StdRng::seed_from_u64(0));
/// assert_eq!(model.layers()[0].neurons()[0].to_string(), "GELUNeuron(2)");
/// let y = &model.forward_f64(&[0.5, -1.0])?[0];
/// y.backward();
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Copy)]
pub struct CustomActivation {
    name: &'static str,
    apply: fn(&Value) -> Value,
}

impl CustomActivation {
    /// The activation `apply`, known as `name` (in a model file, in `Display`, to
    /// [`MLP::from_file_with_activations`](super::MLP::from_file_with_activations)).
    ///
    /// # Panics
    ///
    /// If `name` is empty, has a space or a control character (a model file's line
    /// holds it as one word), or is a built-in activation's name (`ReLU`, `Tanh`,
    /// `Sigmoid`, `Linear`, `LeakyReLU(...)`), which a model file would read back as
    /// the built-in one: a programming error, fixed by choosing another name.
    pub fn new(name: &'static str, apply: fn(&Value) -> Value) -> CustomActivation {
        let valid = !name.is_empty()
            && !name.chars().any(|c| c.is_whitespace() || c.is_control())
            && Activation::named(name, &[]).is_none()
            && !name.starts_with("LeakyReLU(");
        assert!(
            valid,
            "CustomActivation::new({name:?}, ..): the name must be one word without control \
             characters, and not a built-in activation's (ReLU, LeakyReLU(..), Tanh, \
             Sigmoid, Linear); choose another, such as \"GELU\""
        );
        CustomActivation { name, apply }
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The function applied to `x`.
    pub fn apply(&self, x: &Value) -> Value {
        (self.apply)(x)
    }
}

/// The same name and the same function.
impl PartialEq for CustomActivation {
    fn eq(&self, other: &CustomActivation) -> bool {
        self.name == other.name && std::ptr::fn_addr_eq(self.apply, other.apply)
    }
}

/// `CustomActivation("GELU")`.
impl fmt::Debug for CustomActivation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("CustomActivation").field(&self.name).finish()
    }
}

/// The prefix of a neuron's name, as in micrograd's `ReLUNeuron(2)` / `LinearNeuron(2)`:
/// `ReLU`, `LeakyReLU(0.01)`, `Tanh`, `Sigmoid`, `Linear`, or a custom activation's name.
impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Activation::Relu => f.write_str("ReLU"),
            Activation::LeakyRelu(slope) => write!(f, "LeakyReLU({slope:?})"),
            Activation::Tanh => f.write_str("Tanh"),
            Activation::Sigmoid => f.write_str("Sigmoid"),
            Activation::Linear => f.write_str("Linear"),
            Activation::Custom(custom) => f.write_str(custom.name()),
        }
    }
}

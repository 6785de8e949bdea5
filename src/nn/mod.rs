//! Neural networks: micrograd's `nn.py`.
//!
//! A [`Neuron`] computes `f(b + w·x)`; a [`Layer`] is neurons side by side; an [`MLP`]
//! is layers one after the other. All three are [`Module`]s: they list their
//! [`parameters`](Module::parameters) for an optimiser and reset their gradients with
//! [`zero_grad`](Module::zero_grad).
//!
//! | file | what it holds | Python |
//! |------|---------------|--------|
//! | `module.rs` | the [`Module`] trait | `class Module` |
//! | `activation.rs` | [`Activation`]: ReLU, linear, and more; [`CustomActivation`], your own | `nonlin=True/False` |
//! | `init.rs` | [`Init`]: how weights are drawn (micrograd's, Glorot, He) | `random.uniform(-1,1)` |
//! | `neuron.rs` | [`Neuron`] | `class Neuron` |
//! | `one_node.rs` | [`Value::neuron`](crate::Value::neuron): a neuron as one node of the graph | `Neuron.__call__` |
//! | `layer.rs` | [`Layer`] | `class Layer` |
//! | `mlp.rs` | [`MLP`] | `class MLP` |
//! | `predict.rs` | [`MLP::predict`], [`MLP::evaluate_classifier`], [`MLP::evaluate_regressor`] | `model(x).data` |
//! | `predictor.rs` | [`Predictor`]: the forward pass compiled, for many inputs | (none) |
//! | `save.rs` | [`MLP::save`], [`MLP::from_file`], [`MLP::load`], [`SavedMlp`] | (none) |
//! | `model_file.rs` | the text of a model file, written and read back | (none) |
//!
//! Differences from Python, all on purpose: a wrong input width is an
//! [`Error::InputWidth`](crate::Error::InputWidth) instead of a silent truncation by
//! `zip`; `forward` always returns a `Vec` (Python returns a bare `Value` for one
//! output); weights come from a generator you pass in instead of the global `random`.
//!
//! ```
//! use micrograd::prelude::*;
//! use micrograd::random::PythonRandom;
//! // Python: random.seed(1337); model = MLP(2, [16, 16, 1]); print(model)
//! let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
//! assert!(model.to_string().starts_with("MLP of [Layer of [ReLUNeuron(2), ReLUNeuron(2),"));
//! assert!(model.to_string().ends_with("Layer of [LinearNeuron(16)]]"));
//! // Python: score = model([Value(1.0), Value(-0.5)])
//! let score = &model.forward_f64(&[1.0, -0.5])?[0];
//! score.backward();
//! model.zero_grad();
//! assert!(model.parameters().iter().all(|p| p.grad() == 0.0));
//! # Ok::<(), micrograd::Error>(())
//! ```

mod activation;
mod init;
mod layer;
mod mlp;
mod model_file;
mod module;
mod neuron;
mod one_node;
mod predict;
mod predictor;
mod save;

pub use activation::{Activation, CustomActivation};
pub use init::Init;
pub use layer::Layer;
pub use mlp::MLP;
pub use module::Module;
pub use neuron::Neuron;
pub use predictor::Predictor;
pub use save::SavedMlp;

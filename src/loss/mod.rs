//! Loss functions and accuracy: the `loss()` function of micrograd's `demo.ipynb`, and
//! the other losses a small network needs.
//!
//! Every loss takes the model's outputs as [`Value`]s and returns one `Value` to call
//! [`backward`](Value::backward) on. Each comes in two forms:
//!
//! - **targets as numbers** ([`mse()`], [`svm_hinge`], [`binary_cross_entropy_with_logits`],
//!   [`softmax_cross_entropy`] with a class index): the targets are constants of the
//!   graph, as in micrograd's demo, where every step builds its graph anew. A
//!   [`Tape`](crate::tape::Tape) compiled from such a graph is right for that sample
//!   only, and refuses to run it over other samples (an error naming the form below);
//! - **targets as data** ([`mse_targets`], [`svm_hinge_targets`],
//!   [`binary_cross_entropy_with_logits_targets`], [`softmax_cross_entropy_onehot`]):
//!   the targets are leaf `Value`s that need no gradient
//!   (`Value::new(y).no_grad()`), so one sample's graph serves every sample: the tape
//!   feeds them per sample as it feeds inputs ([`Tape::inputs`](crate::tape::Tape::inputs)).
//!   The same numbers as the first form, in the dynamic graph as on the tape.
//!
//! Batch losses are means, computed as micrograd's demo does: `sum(terms) * (1.0 / n)` with the n-ary
//! [`Sum`](std::iter::Sum) (so `sum` adds from 0.0 left to right, as Python's `sum()`).
//!
//! | file | what it holds | gradient with respect to the i-th output |
//! |------|---------------|------------------------------------------|
//! | `mse.rs` | [`mse()`], [`mse_targets`]: mean of (pᵢ - tᵢ)² | 2(pᵢ - tᵢ)/n |
//! | `hinge.rs` | [`svm_hinge`], [`svm_hinge_targets`]: the demo's max-margin loss | -yᵢ/n where 1 - yᵢsᵢ > 0, else 0 |
//! | `cross_entropy.rs` | [`binary_cross_entropy_with_logits`] (and `_targets`), [`softmax_cross_entropy`], [`softmax_cross_entropy_onehot`], [`softmax_cross_entropy_mean`] | (σ(zᵢ) - yᵢ)/n; softmaxⱼ - tⱼ |
//! | `regularization.rs` | [`l2`]: α·Σ p² | 2αpᵢ |
//! | `accuracy.rs` | [`binary_accuracy`], [`argmax`], [`multiclass_accuracy`] | (not differentiable) |
//!
//! micrograd's demo loss, line for line:
//!
//! ```
//! use micrograd::{loss, Value};
//! let scores = [Value::new(0.5), Value::new(-2.0)];   // model outputs
//! let labels = [1.0, 1.0];
//! let params = [Value::new(0.1), Value::new(-0.2)];
//! // losses = [(1 + -yi*si).relu() ...]; data_loss = sum(losses) * (1.0 / len(losses))
//! let data_loss = loss::svm_hinge(&scores, &labels)?;
//! // reg_loss = 1e-4 * sum((p*p for p in model.parameters()))
//! let reg_loss = loss::l2(&params, 1e-4);
//! let total = &data_loss + &reg_loss;
//! // accuracy = [(yi > 0) == (si.data > 0) ...]
//! let accuracy = loss::binary_accuracy(&scores, &labels)?;
//! assert_eq!(data_loss.data(), (0.5 + 3.0) * 0.5);
//! assert_eq!(accuracy, 0.5);
//! total.backward();
//! assert_eq!(scores[1].grad(), -0.5);                 // -yᵢ/n
//! # Ok::<(), micrograd::Error>(())
//! ```

mod accuracy;
mod cross_entropy;
mod hinge;
mod mse;
mod regularization;

pub use accuracy::{argmax, binary_accuracy, multiclass_accuracy};
pub use cross_entropy::{
    binary_cross_entropy_with_logits, binary_cross_entropy_with_logits_targets,
    softmax_cross_entropy, softmax_cross_entropy_mean, softmax_cross_entropy_onehot,
};
pub use hinge::{svm_hinge, svm_hinge_targets};
pub use mse::{mse, mse_targets};
pub use regularization::l2;

use crate::program::ConstantTarget;
use crate::{Error, Value};

/// micrograd's mean, `sum(terms) * (1.0 / len(terms))`: multiplying by the reciprocal
/// (not dividing) keeps the bits equal to Python's.
fn mean(terms: Vec<Value>) -> Value {
    let scale = 1.0 / terms.len() as f64;
    terms.into_iter().sum::<Value>() * scale
}

/// `Ok` when the model gave one output per target and there is at least one of each.
fn check_batch(outputs: usize, what: &str, targets: usize) -> Result<(), Error> {
    if outputs != targets {
        return Err(Error::InvalidInput(format!(
            "{outputs} predictions but {targets} {what}; give exactly one per prediction"
        )));
    }
    if outputs == 0 {
        return Err(Error::InvalidInput(format!(
            "0 predictions and 0 {what}: the loss of an empty batch is undefined"
        )));
    }
    Ok(())
}

/// `Ok` when every target is a leaf that needs no gradient (data, not a result).
fn check_target_leaves(targets: &[Value]) -> Result<(), Error> {
    for (i, t) in targets.iter().enumerate() {
        if !t.op().is_empty() {
            return Err(Error::InvalidInput(format!(
                "target {i} is computed by `{}`; targets are data: give leaves made with \
                 Value::new(y).no_grad()",
                t.op()
            )));
        }
        if t.requires_grad() {
            return Err(Error::InvalidInput(format!(
                "target {i} ({:?}) needs a gradient; targets are data: make them with \
                 Value::new(y).no_grad()",
                t.data()
            )));
        }
    }
    Ok(())
}

/// `v`, a node built on a target leaf (its parent `parent`), marked so: a tape compiled
/// from the loss then refuses a batch that does not feed that leaf with each sample
/// (`Tape::accumulate_batch`).
fn on_target(v: Value, parent: usize) -> Value {
    v.mark(crate::program::TargetIn(parent));
    v
}

/// `Ok` when every target is one of `allowed` (compared exactly).
fn check_labels(labels: &[f64], allowed: [f64; 2], what: &str) -> Result<(), Error> {
    match labels.iter().position(|y| !allowed.contains(y)) {
        None => Ok(()),
        Some(i) => Err(Error::InvalidInput(format!(
            "label {i} is {}; {what} labels must be {} or {}",
            labels[i], allowed[0], allowed[1]
        ))),
    }
}

/// Prefixes the message of an [`Error::InvalidInput`] about one row of a batch with
/// the row's index.
fn in_row(i: usize) -> impl FnOnce(Error) -> Error {
    move |e| match e {
        Error::InvalidInput(msg) => Error::InvalidInput(format!("row {i}: {msg}")),
        other => other,
    }
}

/// The tag a loss puts on its result when it took its targets as numbers.
impl Value {
    /// Crate-internal: tags this node as built by `loss` from a target given as a
    /// number, a constant of the graph; `instead` is the form whose targets are
    /// `Value`s. A tape compiled from a graph holding such a node refuses to run it over
    /// other samples, naming both.
    pub(crate) fn tag_constant_target(self, loss: &'static str, instead: &'static str) -> Value {
        self.mark(ConstantTarget(loss, instead));
        self
    }
}

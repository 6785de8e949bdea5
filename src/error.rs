//! The crate's one error type.

use std::fmt;

/// Everything that can go wrong in `micrograd`'s fallible APIs.
///
/// Each message names the offending value and says what to do next.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// [`Value::try_backward`](crate::Value::try_backward) found a NaN or infinity.
    ///
    /// The message names the op and the label of the node that made it; for a leaf
    /// (`op` is `""`) it says that the leaf holds it (in the forward pass: a
    /// [`Value::new`](crate::Value::new), or an `f64` operand such as the `2.0` in
    /// `&x * 2.0`, which is a leaf in Python's graph) or that the leaf's gradient, added
    /// up over several runs, became it (in the backward pass of a tape).
    #[error("{}", describe_non_finite(*pass, op, label, *value))]
    NonFinite {
        /// Whether the value was made by the forward or the backward pass.
        pass: Pass,
        /// The op that made it (`""` for a leaf that holds it).
        op: &'static str,
        /// The label of the node whose op made it, if it has one.
        label: Option<String>,
        /// The non-finite value itself.
        value: f64,
    },

    /// A model got an input of the wrong width (Python would silently truncate it).
    #[error("input has {got} values but the model expects {expected}; pass exactly {expected} features per sample")]
    InputWidth {
        /// How many inputs the model takes.
        expected: usize,
        /// How many it was given.
        got: usize,
    },

    /// Parameters saved from one model shape (or activations) were loaded into another.
    #[error(
        "cannot load parameters of a {found} model into a {expected} model; build the \
         model with the shape and activations that were saved, or let MLP::from_file build it"
    )]
    ShapeMismatch {
        /// The model being loaded into, e.g. `MLP(2, [16 ReLU, 16 ReLU, 1 Linear])`.
        expected: String,
        /// The model found in the file (a version-1 file gives widths only:
        /// `MLP(2, [16, 16, 1])`).
        found: String,
    },

    /// A hyper-parameter is out of its allowed range. The message shows the value in
    /// the shortest form that reads back exactly (`1e308`, `0.1`, `2`), never hundreds
    /// of digits.
    #[error("{name} = {} is out of range: it must be {expected}", short(*value))]
    HyperParameter {
        /// The parameter's name, e.g. `"lr"` or `"beta1"`.
        name: &'static str,
        /// The value given.
        value: f64,
        /// The allowed range, in words, e.g. `"in [0, 1)"`.
        expected: &'static str,
    },

    /// A loss came out NaN or infinite; training stops instead of corrupting the model.
    #[error(
        "loss is {value} at step {step}; lower the learning rate or check the data for NaN/inf"
    )]
    NonFiniteLoss {
        /// The training step at which it happened.
        step: usize,
        /// The loss value.
        value: f64,
    },

    /// A [`Tape`](crate::tape::Tape) was asked about a value that is not one of its
    /// leaves (a value from another graph, or an inner node of its own graph).
    #[error(
        "value{} is not a leaf of this tape; ask about one of `Tape::leaves()` or compile \
         a tape from an expression that uses this value",
        describe_label(label)
    )]
    NotOnTape {
        /// The label of the value asked about, if it has one.
        label: Option<String>,
    },

    /// An output asked of [`Tape::compile_with_outputs`](crate::tape::Tape::compile_with_outputs)
    /// is not a node of the graph under the root: the root was not computed from it.
    #[error(
        "output {index}{} is not a node of the graph under the root (the root was not \
         computed from it); list only values the root uses, or compile the outputs \
         themselves with Tape::compile_outputs",
        describe_label(label)
    )]
    NotInGraph {
        /// Its place in the list of outputs.
        index: usize,
        /// Its label, if it has one.
        label: Option<String>,
    },

    /// [`Tape::check`](crate::tape::Tape::check) found that the tape is not the graph
    /// the program builds now.
    #[error(
        "the tape differs from the graph built again, at op `{op}`{}: {detail}; a value \
         read with `.data()` while building (a constant, or a branch taken on it) was \
         frozen when the tape was compiled: build it with ops instead, or compile a new \
         tape for this data",
        describe_label(label)
    )]
    TapeMismatch {
        /// The op of the first node that differs, in the graph built again (`""` for a
        /// leaf, such as a constant computed from the data).
        op: &'static str,
        /// Its label, if it has one.
        label: Option<String>,
        /// What differs: the shape, the value or the gradient, with both numbers.
        detail: String,
    },

    /// A [`Tape`](crate::tape::Tape) was asked to run over other samples (a batch, a
    /// `Training`, `set_inputs`) a graph whose loss took its target as a number, or
    /// picked a logit by a class index: that target is a constant of the graph, right
    /// for the sample the tape was compiled from only.
    #[error(
        "the graph's loss `loss::{loss}` took its target as a number (or a class index), a \
         constant of the graph: a tape of it is right only for the sample it was compiled \
         from; build the loss with `loss::{instead}` (targets as leaves made with \
         Value::new(y).no_grad(), fed per sample with the inputs) and compile again"
    )]
    ConstantTarget {
        /// The loss that took its target as a number, e.g. `"mse"`.
        loss: &'static str,
        /// The form to use instead, whose targets are `Value`s, e.g. `"mse_targets"`.
        instead: &'static str,
    },

    /// [`CodeGen`](crate::codegen::CodeGen) met an op it cannot write as C: a custom op
    /// ([`Value::custom`](crate::Value::custom)), whose closures are Rust code.
    #[error(
        "cannot write C for the custom op `{op}`{}: its closures are Rust code, which the \
         generated C cannot call; build this part of the graph from the engine's ops (every \
         one of them is written as C), or train this graph with the tape",
        describe_label(label)
    )]
    CannotEmit {
        /// The custom op's name.
        op: String,
        /// The label of its node, if it has one.
        label: Option<String>,
    },

    /// A graph could not be drawn as SVG (no renderer installed, or the renderer failed).
    #[error("cannot draw the graph as SVG: {0}")]
    Render(String),

    /// Input that cannot be used: mismatched lengths, an empty batch, and so on.
    #[error("invalid input: {0}")]
    InvalidInput(String),

    /// A file could not be opened or read. What the operating system said is the
    /// error's [`source`](std::error::Error::source), not part of its message, so an error
    /// chain (`anyhow`, `{:#}`) prints it once.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },

    /// A file could not be created or written (e.g. by [`MLP::save`](crate::nn::MLP::save));
    /// what the operating system said is the error's
    /// [`source`](std::error::Error::source), as for [`Error::Io`].
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: std::path::PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },

    /// A data file holds something it should not; `line` and `column` count from 1
    /// (0 when they do not apply, e.g. for binary formats).
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// The file.
        path: std::path::PathBuf,
        /// The line (1-based; 0 for binary files).
        line: usize,
        /// The column (1-based; 0 when it does not apply).
        column: usize,
        /// What is wrong and, where possible, what was expected.
        message: String,
    },

    /// An optimiser step found a NaN or infinity in a gradient, or would have written one
    /// into a parameter or its state; the step changed nothing.
    #[error(
        "optimizer step refused: {what} of parameter {index}{} is {value}; no parameter \
         was changed; lower the learning rate or find the bad op with try_backward",
        describe_label(label)
    )]
    NonFiniteUpdate {
        /// What was not finite: `"gradient"`, `"new value"` or `"optimizer state"`.
        what: &'static str,
        /// The parameter's position in the optimiser's parameter list.
        index: usize,
        /// The parameter's label, if it has one.
        label: Option<String>,
        /// The non-finite number.
        value: f64,
    },
}

/// Which pass of a computation an [`Error::NonFinite`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Computing values (the graph's `data`).
    Forward,
    /// Computing gradients (`backward`).
    Backward,
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pass::Forward => "forward",
            Pass::Backward => "backward",
        })
    }
}

/// `text` between backticks for an error message, cut to its first 40 characters (with
/// `…` and the full length in bytes) when it is longer, so a 5 MB bad field gives a
/// short message.
pub(crate) fn quote(text: &str) -> String {
    const MAX_CHARS: usize = 40;
    match text.char_indices().nth(MAX_CHARS) {
        None => format!("`{text}`"),
        Some((cut, _)) => format!("`{}…` ({} bytes)", &text[..cut], text.len()),
    }
}

/// `x` in the shortest form that parses back to the same `f64` (Rust's `{:?}`: `1e308`,
/// `1e-300`, `0.1`, `NaN`), without the `.0` of a whole number (`2`, not `2.0`).
fn short(x: f64) -> String {
    let text = format!("{x:?}");
    match text.strip_suffix(".0") {
        Some(whole) => whole.to_owned(),
        None => text,
    }
}

/// The message of [`Error::NonFinite`]: the op that made the value, or the leaf that
/// holds it (`op` is `""`).
fn describe_non_finite(pass: Pass, op: &str, label: &Option<String>, value: f64) -> String {
    let label = describe_label(label);
    match (op, pass) {
        ("", Pass::Forward) => format!(
            "forward pass: the leaf{label} holds {value}; give it a finite number (a \
             Value::new or set_data, or an f64 operand such as the 2.0 in `&x * 2.0`, which \
             is a leaf of the graph), or check the data it was read from"
        ),
        ("", Pass::Backward) => format!(
            "backward pass: the gradient of the leaf{label} added up to {value}; each \
             contribution was finite but their sum is not: use a smaller loss (a mean, not \
             a sum) or zero the gradients more often"
        ),
        (op, pass) => format!(
            "{pass} pass: op `{op}`{label} produced {value}; check this op's inputs \
             (for example ln or sqrt of a negative number, division by zero, exp overflow)"
        ),
    }
}

fn describe_label(label: &Option<String>) -> String {
    match label {
        Some(l) => format!(" (label {l:?})"),
        None => " (no label)".to_owned(),
    }
}

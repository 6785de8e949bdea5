//! The crate's one error type.

use std::fmt;

/// Everything that can go wrong in `micrograd`'s fallible APIs.
///
/// Each message names the offending value and says what to do next.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// [`Value::try_backward`](crate::Value::try_backward) found a NaN or infinity.
    #[error(
        "{pass} pass: op `{op}`{} produced {value}; check this op's inputs \
         (for example ln or sqrt of a negative number, division by zero, exp overflow)",
        describe_label(label)
    )]
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

fn describe_label(label: &Option<String>) -> String {
    match label {
        Some(l) => format!(" (label {l:?})"),
        None => " (no label)".to_owned(),
    }
}

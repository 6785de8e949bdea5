//! The operation that produced a node (Python's `_op` string), as a one-byte code: the
//! enum [`Op`], written from the table of rules (`rules.rs`), and a neuron's activation.

pub(crate) use super::rules::Op;

/// The activation a [`Op::Neuron`] node applies to its weighted sum: those whose
/// derivative is a function of the output alone, so the node need not keep the sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Act {
    /// The sum itself.
    Linear,
    /// `relu(sum)`.
    Relu,
    /// `tanh(sum)`.
    Tanh,
    /// `sigmoid(sum)`.
    Sigmoid,
}

impl Act {
    /// The one-parent op of the activation (`None` for `Linear`).
    pub(crate) fn op(self) -> Option<Op> {
        match self {
            Act::Linear => None,
            Act::Relu => Some(Op::Relu),
            Act::Tanh => Some(Op::Tanh),
            Act::Sigmoid => Some(Op::Sigmoid),
        }
    }

    /// A neuron node's `_op` string: `"neuron"`, `"relu neuron"`, ...
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Act::Linear => "neuron",
            Act::Relu => "relu neuron",
            Act::Tanh => "tanh neuron",
            Act::Sigmoid => "sigmoid neuron",
        }
    }
}

//! The operation that produced a node (Python's `_op`), as a one-byte code: a leaf, the
//! n-ary sum, a custom op, an op with a rule (every one- and two-parent op, whose name
//! its rule gives), or a neuron node with its activation.

use super::compact::Act;

/// Which operation produced a [`Value`](crate::Value); [`Value::op`](crate::Value::op)
/// shows it as Python's `_op` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    /// A leaf made by the user (`""`).
    Leaf,
    /// The n-ary sum of [`std::iter::Sum`] (`"sum"`).
    Sum,
    /// A [`Value::custom`](crate::Value::custom) op (its name is kept with its closures).
    Custom,
    /// A one- or two-parent op (`+`, `relu`, `atan`, ...): its closure carries its rule
    /// (`Node::rule`), and with it its name.
    Rule,
    /// [`Value::neuron`](crate::Value::neuron)'s `act(b + w0·x0 + w1·x1 + ...)` as one
    /// node (`"neuron"`, `"relu neuron"`, ...).
    Neuron(Act),
}

impl Op {
    /// The op as Python's `_op` string (`""` for a leaf; an op with a rule is named by
    /// its rule).
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Leaf => "",
            Op::Sum => "sum",
            Op::Custom => "custom",
            Op::Rule => "rule",
            Op::Neuron(act) => act.symbol(),
        }
    }
}

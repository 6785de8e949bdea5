//! The operation that produced a node (Python's `_op`), as a one-byte code: a leaf, the
//! n-ary sum, a custom op, or an op whose closure names it (every one- and two-parent
//! op, whose name its rule gives).

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
    /// An op whose closure names it (`Reader::name`): a one- or two-parent op (`+`,
    /// `relu`, `atan`, ...), whose closure carries its rule (`Node::rule`), or a node
    /// of `src/fast/`.
    Rule,
}

impl Op {
    /// The op as Python's `_op` string (`""` for a leaf; an op with a rule is named by
    /// its closure).
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Leaf => "",
            Op::Sum => "sum",
            Op::Custom => "custom",
            Op::Rule => "rule",
        }
    }
}

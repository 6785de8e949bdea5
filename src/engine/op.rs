//! The operation that produced a node (Python's `_op` string), as a one-byte code.

/// Which operation produced a [`Value`](crate::Value); [`Value::op`](crate::Value::op)
/// shows it as Python's `_op` string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    /// A leaf made by the user (`""`).
    Leaf,
    /// `a + b` (`"+"`).
    Add,
    /// `a - b` (`"-"`).
    Sub,
    /// `a * b` (`"*"`).
    Mul,
    /// `a / b` (`"/"`).
    Div,
    /// `-a` (`"neg"`).
    Neg,
    /// The n-ary sum of [`std::iter::Sum`] (`"sum"`).
    Sum,
    /// `a.relu()` (`"relu"`).
    Relu,
    /// `a.leaky_relu(slope)` (`"leaky_relu"`).
    LeakyRelu,
    /// `a.tanh()` (`"tanh"`).
    Tanh,
    /// `a.sigmoid()` (`"sigmoid"`).
    Sigmoid,
    /// `a.exp()` (`"exp"`).
    Exp,
    /// `a.ln()` (`"ln"`).
    Ln,
    /// `a.powf(n)`, Python's `a ** n` (`"**"`).
    Powf,
    /// `a.pow(&b)` with a `Value` exponent (`"pow"`).
    Pow,
    /// `a.sqrt()` (`"sqrt"`).
    Sqrt,
    /// `a.abs()` (`"abs"`).
    Abs,
    /// `a.softplus()` (`"softplus"`).
    Softplus,
    /// `a.log1p()` (`"log1p"`).
    Log1p,
    /// `a.sin()` (`"sin"`).
    Sin,
    /// `a.cos()` (`"cos"`).
    Cos,
    /// `a.powi(n)` (`"powi"`).
    Powi,
    /// `a.clamp(lo, hi)` (`"clamp"`).
    Clamp,
    /// `a.max(&b)` (`"max"`).
    Max,
    /// `a.min(&b)` (`"min"`).
    Min,
    /// A [`Value::custom`](crate::Value::custom) op (its name is kept with its closures).
    Custom,
    /// [`Value::neuron`](crate::Value::neuron): `act(b + w0·x0 + w1·x1 + ...)` as one
    /// node (`"neuron"`, `"relu neuron"`, ...).
    Neuron(Act),
}

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
}

impl Op {
    /// The op as Python's `_op` string (`""` for a leaf).
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Op::Leaf => "",
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
            Op::Neg => "neg",
            Op::Sum => "sum",
            Op::Relu => "relu",
            Op::LeakyRelu => "leaky_relu",
            Op::Tanh => "tanh",
            Op::Sigmoid => "sigmoid",
            Op::Exp => "exp",
            Op::Ln => "ln",
            Op::Powf => "**",
            Op::Pow => "pow",
            Op::Sqrt => "sqrt",
            Op::Abs => "abs",
            Op::Softplus => "softplus",
            Op::Log1p => "log1p",
            Op::Sin => "sin",
            Op::Cos => "cos",
            Op::Powi => "powi",
            Op::Clamp => "clamp",
            Op::Max => "max",
            Op::Min => "min",
            Op::Custom => "custom",
            Op::Neuron(Act::Linear) => "neuron",
            Op::Neuron(Act::Relu) => "relu neuron",
            Op::Neuron(Act::Tanh) => "tanh neuron",
            Op::Neuron(Act::Sigmoid) => "sigmoid neuron",
        }
    }
}

//! What every op's rule looks like, and the table that finds an op's rule from its code.
//!
//! Each op is written once, in the file of its method (`arithmetic.rs`,
//! `activations.rs`, ...): the method, and right under it a rule with the op's
//! forward value and its local derivative side by side, as micrograd's `engine.py`
//! computes `out` and right under it `_backward`. For `tanh`:
//!
//! ```rust,ignore
//! pub(crate) const TANH: Rule1 = Rule1 {
//!     forward: |x, _| x.tanh(),
//!     local_grad: |_x, out, _| 1.0 - out * out,
//! };
//! ```
//!
//! That is the shape of [`Value::custom`](crate::Value::custom) too: a forward function
//! and the local derivatives d out / d parent. Every backward rule is then
//! `parent.grad += local * out.grad`, written once for all ops (`ops.rs` for the dynamic
//! graph, `program/backward.rs` for the tape). Both engines reach an op's rule through
//! [`Op::forward`] and [`Op::local_grads`], a `match` on the op code whose arms call the
//! rules' functions directly (the compiler inlines them: no indirect call per node), so
//! the two engines compute the same floating-point numbers.

use super::op::Op;

/// The constants of an op (`leaky_relu`'s slope, `powf`'s exponent, `clamp`'s bounds);
/// `[0.0, 0.0]` for the ops without any.
pub(crate) type Consts = [f64; 2];

/// The constants of the ops that have none.
pub(crate) const NO_CONSTS: Consts = [0.0, 0.0];

/// The rule of a one-parent op `out = f(x)`.
pub(crate) struct Rule1 {
    /// `out` from `x` and the op's constants.
    pub(crate) forward: fn(f64, Consts) -> f64,
    /// d out / d x from `x`, `out` and the op's constants.
    pub(crate) local_grad: fn(f64, f64, Consts) -> f64,
}

/// The rule of a two-parent op `out = f(a, b)`.
pub(crate) struct Rule2 {
    /// `out` from `a` and `b`.
    pub(crate) forward: fn(f64, f64) -> f64,
    /// `(d out / d a, d out / d b)` from `a`, `b` and `out`.
    pub(crate) local_grads: fn(f64, f64, f64) -> (f64, f64),
}

/// How many parents an op takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    /// A leaf has none.
    Zero,
    /// `relu`, `tanh`, `powf`, `neg`, ...
    One,
    /// `+ - * /`, `pow`, `max`, `min`.
    Two,
    /// The n-ary `sum` and custom ops.
    Many,
}

/// Writes [`Op::arity`], [`Op::forward`] and [`Op::local_grads`] from the list of
/// one-parent and two-parent ops and their rules.
macro_rules! rule_table {
    (one: { $($one:ident => $rule1:path,)* } two: { $($two:ident => $rule2:path,)* }) => {
        impl Op {
            /// How many parents a node with this op has.
            pub(crate) fn arity(self) -> Arity {
                match self {
                    Op::Leaf => Arity::Zero,
                    Op::Sum | Op::Custom | Op::Neuron(_) => Arity::Many,
                    $(Op::$one)|* => Arity::One,
                    $(Op::$two)|* => Arity::Two,
                }
            }

            /// The value this op computes from its parents' values `a` and `b` (`b` is
            /// ignored by one-parent ops) and its constants `c` (ignored by the others).
            ///
            /// For `Sum` it is one step of the left-to-right sum, `acc + term` (a sum
            /// starts at 0.0, like Python's `sum()`); a leaf just holds `a`.
            // (Inlined into the tape's loops, so that each arm is a direct call: a plain
            // `#[inline]` was not inlined there.)
            #[inline(always)]
            pub(crate) fn forward(self, a: f64, b: f64, c: Consts) -> f64 {
                match self {
                    Op::Leaf => a,
                    Op::Sum => a + b,
                    $(Op::$one => ($rule1.forward)(a, c),)*
                    $(Op::$two => ($rule2.forward)(a, b),)*
                    Op::Custom => unreachable!("a custom op computes with its own closures"),
                    Op::Neuron(_) => unreachable!("a neuron computes in `neuron.rs`"),
                }
            }

            /// The local derivatives `(d out / d a, d out / d b)` of this op, given its
            /// parents' values `a` and `b`, its own value `out` and its constants `c`
            /// (as for [`forward`](Op::forward)). One-parent ops return 0 for `b`;
            /// `Sum` returns 1 for a term.
            #[inline(always)]
            pub(crate) fn local_grads(self, a: f64, b: f64, out: f64, c: Consts) -> (f64, f64) {
                match self {
                    Op::Leaf => (0.0, 0.0),
                    Op::Sum => (1.0, 1.0),
                    $(Op::$one => (($rule1.local_grad)(a, out, c), 0.0),)*
                    $(Op::$two => ($rule2.local_grads)(a, b, out),)*
                    Op::Custom => unreachable!("a custom op computes with its own closures"),
                    Op::Neuron(_) => unreachable!("a neuron computes in `neuron.rs`"),
                }
            }
        }
    };
}

rule_table! {
    one: {
        Neg => super::arithmetic::NEG,
        Relu => super::activations::RELU,
        LeakyRelu => super::activations::LEAKY_RELU,
        Tanh => super::activations::TANH,
        Sigmoid => super::activations::SIGMOID,
        Softplus => super::activations::SOFTPLUS,
        Exp => super::functions::EXP,
        Ln => super::functions::LN,
        Log1p => super::functions::LOG1P,
        Sqrt => super::functions::SQRT,
        Sin => super::functions::SIN,
        Cos => super::functions::COS,
        Powf => super::powers::POWF,
        Powi => super::powers::POWI,
        Abs => super::piecewise::ABS,
        Clamp => super::piecewise::CLAMP,
    }
    two: {
        Add => super::arithmetic::ADD,
        Sub => super::arithmetic::SUB,
        Mul => super::arithmetic::MUL,
        Div => super::arithmetic::DIV,
        Pow => super::powers::POW,
        Max => super::piecewise::MAX,
        Min => super::piecewise::MIN,
    }
}

//! The arithmetic of every op, written once: its forward value and its local
//! derivatives. The dynamic graph (`ops.rs`) and the compiled tape ([`crate::tape`]) both
//! call these two functions, so the two engines compute the same floating-point numbers.
//!
//! Every backward rule has the shape `parent.grad += local * out.grad`, where `local` is
//! d out / d parent. Python writes that line out in each op's `_backward` closure; here
//! the engines write it once and [`Op::local_grads`] gives the `local` factors.

use super::op::Op;

/// How many parents an op takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    /// A leaf has none.
    Zero,
    /// `relu`, `tanh`, `powf`, `neg`, ...
    One,
    /// `+ - * /` and `pow`.
    Two,
    /// The n-ary `sum` and custom ops.
    Many,
}

impl Op {
    /// How many parents a node with this op has.
    pub(crate) fn arity(self) -> Arity {
        match self {
            Op::Leaf => Arity::Zero,
            Op::Add | Op::Sub | Op::Mul | Op::Div | Op::Pow => Arity::Two,
            Op::Sum | Op::Custom => Arity::Many,
            Op::Neg
            | Op::Relu
            | Op::LeakyRelu
            | Op::Tanh
            | Op::Sigmoid
            | Op::Exp
            | Op::Ln
            | Op::Powf
            | Op::Sqrt
            | Op::Abs => Arity::One,
        }
    }

    /// The value this op computes from its parents' values `a` and `b` (`b` is ignored
    /// by unary ops) and its constant `param` (the exponent of `powf`, the slope of
    /// `leaky_relu`; ignored by the others).
    ///
    /// For `Sum` it is one step of the left-to-right sum, `acc + term` (a sum starts at
    /// 0.0, like Python's `sum()`); a leaf just holds `a`.
    #[inline]
    pub(crate) fn forward(self, a: f64, b: f64, param: f64) -> f64 {
        match self {
            Op::Leaf => a,
            // Python: out = Value(self.data + other.data, (self, other), '+')
            Op::Add | Op::Sum => a + b,
            Op::Sub => a - b,
            // Python: out = Value(self.data * other.data, (self, other), '*')
            Op::Mul => a * b,
            Op::Div => a / b,
            Op::Neg => -a,
            // Python: out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU')
            Op::Relu => {
                if a < 0.0 {
                    0.0
                } else {
                    a
                }
            }
            Op::LeakyRelu => {
                if a > 0.0 {
                    a
                } else {
                    param * a
                }
            }
            Op::Tanh => a.tanh(),
            // Two branches so that e^(-x) never overflows.
            Op::Sigmoid => {
                if a >= 0.0 {
                    1.0 / (1.0 + (-a).exp())
                } else {
                    let e = a.exp();
                    e / (1.0 + e)
                }
            }
            Op::Exp => a.exp(),
            Op::Ln => a.ln(),
            // Python: out = Value(self.data**other, (self,), f'**{other}')
            Op::Powf => a.powf(param),
            Op::Pow => a.powf(b),
            Op::Sqrt => a.sqrt(),
            Op::Abs => a.abs(),
            Op::Custom => unreachable!("a custom op computes with its own closures"),
        }
    }

    /// The local derivatives `(d out / d a, d out / d b)` of this op, given its parents'
    /// values `a` and `b`, its own value `out` and its constant `param` (as for
    /// [`forward`](Op::forward)). Unary ops return 0 for `b`; `Sum` returns 1 for a term.
    #[inline]
    pub(crate) fn local_grads(self, a: f64, b: f64, out: f64, param: f64) -> (f64, f64) {
        match self {
            Op::Leaf => (0.0, 0.0),
            // Python: self.grad += out.grad; other.grad += out.grad
            Op::Add | Op::Sum => (1.0, 1.0),
            Op::Sub => (1.0, -1.0),
            // Python: self.grad += other.data * out.grad; other.grad += self.data * out.grad
            Op::Mul => (b, a),
            Op::Div => (1.0 / b, -a / (b * b)),
            Op::Neg => (-1.0, 0.0),
            // Python: self.grad += (out.data > 0) * out.grad
            Op::Relu => (if out > 0.0 { 1.0 } else { 0.0 }, 0.0),
            Op::LeakyRelu => (if a > 0.0 { 1.0 } else { param }, 0.0),
            Op::Tanh => (1.0 - out * out, 0.0),
            Op::Sigmoid => (out * (1.0 - out), 0.0),
            Op::Exp => (out, 0.0),
            Op::Ln => (1.0 / a, 0.0),
            // Python: self.grad += (other * self.data**(other-1)) * out.grad
            Op::Powf => (param * a.powf(param - 1.0), 0.0),
            // d/db = a^b ln a, taken as 0 where a^b = 0 (a = 0, b > 0).
            Op::Pow => (
                b * a.powf(b - 1.0),
                if out == 0.0 { 0.0 } else { out * a.ln() },
            ),
            Op::Sqrt => (0.5 / out, 0.0),
            Op::Abs => {
                let sign = if a > 0.0 {
                    1.0
                } else if a < 0.0 {
                    -1.0
                } else {
                    0.0
                };
                (sign, 0.0)
            }
            Op::Custom => unreachable!("a custom op computes with its own closures"),
        }
    }
}

//! The operations: each one's forward value with its backward rule, as in micrograd's
//! `engine.py`.
//!
//! Every rule has the same shape: `parent.grad += d out / d parent * out.grad`. The two
//! helpers [`Value::unary`] and [`Value::binary`] hold that shape once, and the numbers
//! of each op (its forward value and its local derivative `d out / d parent`, with the
//! Python line next to them) are in `rules.rs`, shared with the compiled
//! [`Tape`](crate::tape::Tape). The backward rules capture nothing (the op and its
//! constant are read from the node), so boxing them allocates nothing.

use super::op::Op;
use super::value::{Node, Parents, Value};

impl Value {
    /// A node with the single parent `self`; `param` is the constant of `powf` /
    /// `leaky_relu` (0 for other ops).
    pub(crate) fn unary(&self, op: Op, param: f64) -> Value {
        let data = op.forward(self.data(), 0.0, param);
        let parents = Parents::One([self.clone()]);
        Value::from_op(data, op, parents, param, Box::new(unary_rule))
    }

    /// A node with the parents `self` and `other`.
    pub(crate) fn binary(&self, other: &Value, op: Op) -> Value {
        let data = op.forward(self.data(), other.data(), 0.0);
        let parents = Parents::Two([self.clone(), other.clone()]);
        Value::from_op(data, op, parents, 0.0, Box::new(binary_rule))
    }

    // ----- the binary operators (their `std::ops` impls are in `operators.rs`) -----

    /// `a + b`: d/da = 1, d/db = 1.
    pub(crate) fn add_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Add)
    }

    /// `a - b`: d/da = 1, d/db = -1 (Python builds it as `a + (-b)`; same numbers).
    pub(crate) fn sub_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Sub)
    }

    /// `a * b`: d/da = b, d/db = a.
    pub(crate) fn mul_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Mul)
    }

    /// `a / b`: d/da = 1/b, d/db = -a/b² (Python builds it as `a * b**-1`).
    pub(crate) fn div_value(&self, other: &Value) -> Value {
        self.binary(other, Op::Div)
    }

    /// `-a`: d/da = -1 (Python builds it as `a * -1`; same numbers).
    pub(crate) fn neg_value(&self) -> Value {
        self.unary(Op::Neg, 0.0)
    }

    // ----- the methods -----

    /// `max(0, x)`, Python's `relu()`.
    ///
    /// Derivative: 1 where x > 0, else 0 (so ReLU'(0) = 0, as in micrograd).
    ///
    /// ```
    /// let x = micrograd::Value::new(-3.0);
    /// let y = x.relu();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.0, 0.0));
    /// ```
    pub fn relu(&self) -> Value {
        self.unary(Op::Relu, 0.0)
    }

    /// `x` where x > 0, else `slope * x`.
    ///
    /// Derivative: 1 where x > 0, else `slope` (at 0 it is `slope`, like ReLU'(0) = 0).
    ///
    /// ```
    /// let x = micrograd::Value::new(-2.0);
    /// let y = x.leaky_relu(0.1);
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (-0.2, 0.1));
    /// ```
    pub fn leaky_relu(&self, slope: f64) -> Value {
        self.unary(Op::LeakyRelu, slope)
    }

    /// The hyperbolic tangent (the activation of the Zero-to-Hero lecture).
    ///
    /// Derivative: 1 - tanh(x)².
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.tanh();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.0, 1.0));
    /// ```
    pub fn tanh(&self) -> Value {
        self.unary(Op::Tanh, 0.0)
    }

    /// The logistic function 1 / (1 + e⁻ˣ), computed without overflow for large |x|.
    ///
    /// Derivative: σ(x)·(1 - σ(x)).
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.sigmoid();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.5, 0.25));
    /// ```
    pub fn sigmoid(&self) -> Value {
        self.unary(Op::Sigmoid, 0.0)
    }

    /// eˣ.
    ///
    /// Derivative: eˣ (the output itself).
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.exp();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (1.0, 1.0));
    /// ```
    pub fn exp(&self) -> Value {
        self.unary(Op::Exp, 0.0)
    }

    /// The natural logarithm. As for `f64`, `ln(0)` is -∞ and the logarithm of a
    /// negative number is NaN ([`try_backward`](Value::try_backward) reports it).
    ///
    /// Derivative: 1 / x.
    ///
    /// ```
    /// let x = micrograd::Value::new(2.0);
    /// let y = x.ln();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (2f64.ln(), 0.5));
    /// ```
    pub fn ln(&self) -> Value {
        self.unary(Op::Ln, 0.0)
    }

    /// xⁿ for a constant exponent: micrograd's `x ** n` (shown as op `"**"`).
    ///
    /// Derivative: n·xⁿ⁻¹.
    ///
    /// ```
    /// let x = micrograd::Value::new(3.0);
    /// let y = x.powf(2.0);
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (9.0, 6.0));
    /// ```
    pub fn powf(&self, n: f64) -> Value {
        self.unary(Op::Powf, n)
    }

    /// aᵇ with a `Value` exponent, which micrograd refuses (`assert isinstance(other,
    /// (int, float))`); here the exponent gets a gradient too.
    ///
    /// Derivatives: d/da = b·aᵇ⁻¹; d/db = aᵇ·ln(a), taken as 0 where aᵇ = 0 (a = 0 with
    /// b > 0) and NaN for a < 0, where aᵇ has no derivative in b.
    ///
    /// ```
    /// use micrograd::Value;
    /// let a = Value::new(2.0);
    /// let b = Value::new(3.0);
    /// let y = a.pow(&b);
    /// y.backward();
    /// assert_eq!((y.data(), a.grad()), (8.0, 12.0));
    /// assert!((b.grad() - 8.0 * 2f64.ln()).abs() < 1e-12);
    /// ```
    pub fn pow(&self, exponent: &Value) -> Value {
        self.binary(exponent, Op::Pow)
    }

    /// The square root; NaN for negative numbers, as for `f64`.
    ///
    /// Derivative: 1 / (2·√x) (∞ at 0).
    ///
    /// ```
    /// let x = micrograd::Value::new(4.0);
    /// let y = x.sqrt();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (2.0, 0.25));
    /// ```
    pub fn sqrt(&self) -> Value {
        self.unary(Op::Sqrt, 0.0)
    }

    /// The absolute value.
    ///
    /// Derivative: the sign of x: 1 for x > 0, -1 for x < 0, and 0 at 0 (like ReLU'(0)).
    ///
    /// ```
    /// let x = micrograd::Value::new(-1.5);
    /// let y = x.abs();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (1.5, -1.0));
    /// ```
    pub fn abs(&self) -> Value {
        self.unary(Op::Abs, 0.0)
    }

    /// The n-ary sum behind [`std::iter::Sum`]: one node with every term as a parent,
    /// added left to right from 0 as Python's `sum()` does. d/dxᵢ = 1 for every term.
    fn sum_of(terms: Box<[Value]>) -> Value {
        let out = terms.iter().fold(0.0, |acc, t| acc + t.data());
        let backward = |out: &Node| {
            for t in out.parents() {
                t.add_grad(out.grad);
            }
        };
        Value::from_op(out, Op::Sum, Parents::Many(terms), 0.0, Box::new(backward))
    }
}

/// The backward rule of every unary node: `x.grad += d out / d x * out.grad`.
fn unary_rule(out: &Node) {
    let x = &out.parents()[0];
    let (dx, _) = out.op.local_grads(x.data(), 0.0, out.data, out.param());
    x.add_grad(dx * out.grad);
}

/// The backward rule of every binary node: `a.grad += d out / d a * out.grad`, then the
/// same for `b` (for `a * a` both add to the same grad, as in Python).
fn binary_rule(out: &Node) {
    let [a, b] = out.parents() else {
        unreachable!("a binary node has two parents")
    };
    let (da, db) = out.op.local_grads(a.data(), b.data(), out.data, 0.0);
    a.add_grad(da * out.grad);
    b.add_grad(db * out.grad);
}

/// `values.into_iter().sum()`: ONE node whose parents are all the terms (Python's
/// `sum()` builds a chain of `+` nodes instead; the numbers are the same).
///
/// Derivative: 1 with respect to every term. An empty sum is a leaf holding 0.
///
/// ```
/// use micrograd::Value;
/// let xs = [Value::new(1.0), Value::new(2.0), Value::new(3.0)];
/// let s: Value = xs.iter().sum();
/// assert_eq!((s.data(), s.op(), s.parents().len()), (6.0, "sum", 3));
/// s.backward();
/// assert!(xs.iter().all(|x| x.grad() == 1.0));
/// ```
impl std::iter::Sum<Value> for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        let terms: Box<[Value]> = iter.collect();
        if terms.is_empty() {
            return Value::new(0.0);
        }
        Value::sum_of(terms)
    }
}

/// `values.iter().sum()`: the same single n-ary node as `Sum<Value>`.
impl<'a> std::iter::Sum<&'a Value> for Value {
    fn sum<I: Iterator<Item = &'a Value>>(iter: I) -> Value {
        iter.cloned().sum()
    }
}

//! The operations: each forward computation with its backward rule right under it, as
//! in micrograd's `engine.py`.
//!
//! Every rule has the same shape: `parent.grad += d out / d parent * out.grad`. The two
//! helpers [`Value::unary`] and [`Value::binary`] hold that shape once, so each op only
//! states its forward value and its local derivative. The closures capture nothing (the
//! constant of `powf` / `leaky_relu` is read from the node), so boxing them allocates
//! nothing.

use super::op::Op;
use super::value::{Node, Parents, Value};

impl Value {
    /// A node with the single parent `self`. `local(x, out, param)` is the local
    /// derivative `d out / d x`; the backward rule adds `local * out.grad` to `x.grad`.
    fn unary<F>(&self, op: Op, param: f64, data: f64, local: F) -> Value
    where
        F: Fn(f64, f64, f64) -> f64 + 'static,
    {
        let backward = move |out: &Node| {
            let x = &out.parents()[0];
            x.add_grad(local(x.data(), out.data, out.param()) * out.grad);
        };
        Value::from_op(
            data,
            op,
            Parents::One([self.clone()]),
            param,
            Box::new(backward),
        )
    }

    /// A node with the parents `self` and `other`. `da(a, b, out)` and `db(a, b, out)`
    /// are the local derivatives `d out / d a` and `d out / d b`.
    pub(crate) fn binary<F, G>(&self, other: &Value, op: Op, data: f64, da: F, db: G) -> Value
    where
        F: Fn(f64, f64, f64) -> f64 + 'static,
        G: Fn(f64, f64, f64) -> f64 + 'static,
    {
        let backward = move |out: &Node| {
            let [a, b] = out.parents() else {
                unreachable!("a binary node has two parents")
            };
            let (x, y) = (a.data(), b.data());
            a.add_grad(da(x, y, out.data) * out.grad);
            b.add_grad(db(x, y, out.data) * out.grad);
        };
        let parents = Parents::Two([self.clone(), other.clone()]);
        Value::from_op(data, op, parents, 0.0, Box::new(backward))
    }

    // ----- the binary operators (their `std::ops` impls are in `operators.rs`) -----

    /// `a + b`: d/da = 1, d/db = 1.
    pub(crate) fn add_value(&self, other: &Value) -> Value {
        let out = self.data() + other.data();
        self.binary(other, Op::Add, out, |_, _, _| 1.0, |_, _, _| 1.0)
    }

    /// `a - b`: d/da = 1, d/db = -1 (Python builds it as `a + (-b)`; same numbers).
    pub(crate) fn sub_value(&self, other: &Value) -> Value {
        let out = self.data() - other.data();
        self.binary(other, Op::Sub, out, |_, _, _| 1.0, |_, _, _| -1.0)
    }

    /// `a * b`: d/da = b, d/db = a.
    pub(crate) fn mul_value(&self, other: &Value) -> Value {
        let out = self.data() * other.data();
        self.binary(other, Op::Mul, out, |_, b, _| b, |a, _, _| a)
    }

    /// `a / b`: d/da = 1/b, d/db = -a/b² (Python builds it as `a * b**-1`).
    pub(crate) fn div_value(&self, other: &Value) -> Value {
        let out = self.data() / other.data();
        self.binary(
            other,
            Op::Div,
            out,
            |_, b, _| 1.0 / b,
            |a, b, _| -a / (b * b),
        )
    }

    /// `-a`: d/da = -1 (Python builds it as `a * -1`; same numbers).
    pub(crate) fn neg_value(&self) -> Value {
        self.unary(Op::Neg, 0.0, -self.data(), |_, _, _| -1.0)
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
        let x = self.data();
        // Python: Value(0 if self.data < 0 else self.data, (self,), 'ReLU')
        let out = if x < 0.0 { 0.0 } else { x };
        // Python: self.grad += (out.data > 0) * out.grad
        self.unary(
            Op::Relu,
            0.0,
            out,
            |_, out, _| if out > 0.0 { 1.0 } else { 0.0 },
        )
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
        let x = self.data();
        let out = if x > 0.0 { x } else { slope * x };
        self.unary(
            Op::LeakyRelu,
            slope,
            out,
            |x, _, slope| {
                if x > 0.0 {
                    1.0
                } else {
                    slope
                }
            },
        )
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
        let out = self.data().tanh();
        self.unary(Op::Tanh, 0.0, out, |_, t, _| 1.0 - t * t)
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
        let x = self.data();
        let out = if x >= 0.0 {
            1.0 / (1.0 + (-x).exp())
        } else {
            let e = x.exp();
            e / (1.0 + e)
        };
        self.unary(Op::Sigmoid, 0.0, out, |_, s, _| s * (1.0 - s))
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
        let out = self.data().exp();
        self.unary(Op::Exp, 0.0, out, |_, e, _| e)
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
        let out = self.data().ln();
        self.unary(Op::Ln, 0.0, out, |x, _, _| 1.0 / x)
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
        let out = self.data().powf(n);
        // Python: self.grad += (other * self.data**(other-1)) * out.grad
        self.unary(Op::Powf, n, out, |x, _, n| n * x.powf(n - 1.0))
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
        let out = self.data().powf(exponent.data());
        self.binary(
            exponent,
            Op::Pow,
            out,
            |a, b, _| b * a.powf(b - 1.0),
            |a, _, out| if out == 0.0 { 0.0 } else { out * a.ln() },
        )
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
        let out = self.data().sqrt();
        self.unary(Op::Sqrt, 0.0, out, |_, r, _| 0.5 / r)
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
        let out = self.data().abs();
        self.unary(Op::Abs, 0.0, out, |x, _, _| {
            if x > 0.0 {
                1.0
            } else if x < 0.0 {
                -1.0
            } else {
                0.0
            }
        })
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

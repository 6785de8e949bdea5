//! The elementary functions: `exp`, `ln`, `log1p`, `sqrt`, `sin`, `cos`. Each method is
//! followed by its rule: its forward value and, right under it, its local derivative.
//! Python micrograd's package has none of them (the lecture's `Value` has `exp`).

use super::op::Op;
use super::rules::{Rule1, NO_CONSTS};
use super::value::Value;

impl Value {
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
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn exp(&self) -> Value {
        self.unary(Op::Exp, NO_CONSTS)
    }
}

/// `exp`.
pub(crate) const EXP: Rule1 = Rule1 {
    // Python (lecture): out = Value(math.exp(x), (self, ), 'exp')
    forward: |x, _| x.exp(),
    // Python (lecture): self.grad += out.data * out.grad
    local_grad: |_x, out, _| out,
};

impl Value {
    /// The natural logarithm. As for `f64`, `ln(0)` is -∞ and the logarithm of a
    /// negative number is NaN ([`try_backward`](Value::try_backward) reports it).
    ///
    /// Derivative: 1 / x (+∞ at 0, and at -0.0, whose logarithm is -∞ as well).
    ///
    /// ```
    /// let x = micrograd::Value::new(2.0);
    /// let y = x.ln();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (2f64.ln(), 0.5));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn ln(&self) -> Value {
        self.unary(Op::Ln, NO_CONSTS)
    }
}

/// `ln`.
pub(crate) const LN: Rule1 = Rule1 {
    forward: |x, _| x.ln(),
    // (`x + 0.0` is `x`, but +0.0 for -0.0: the slope at ±0 is +∞, not -∞.)
    local_grad: |x, _out, _| 1.0 / (x + 0.0),
};

impl Value {
    /// ln(1 + x), accurate for small x (`f64::ln_1p`): `log1p(1e-20)` is 1e-20 where
    /// `(1 + x).ln()` gives 0. -∞ at x = -1, NaN below.
    ///
    /// Derivative: 1 / (1 + x).
    ///
    /// ```
    /// let x = micrograd::Value::new(1e-20);
    /// let y = x.log1p();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (1e-20, 1.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn log1p(&self) -> Value {
        self.unary(Op::Log1p, NO_CONSTS)
    }
}

/// `log1p`.
pub(crate) const LOG1P: Rule1 = Rule1 {
    forward: |x, _| x.ln_1p(),
    local_grad: |x, _out, _| 1.0 / (1.0 + x),
};

impl Value {
    /// The square root; NaN for negative numbers, as for `f64`.
    ///
    /// Derivative: 1 / (2·√x) (+∞ at 0, and at -0.0, whose square root is -0.0).
    ///
    /// ```
    /// let x = micrograd::Value::new(4.0);
    /// let y = x.sqrt();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (2.0, 0.25));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn sqrt(&self) -> Value {
        self.unary(Op::Sqrt, NO_CONSTS)
    }
}

/// `sqrt`.
pub(crate) const SQRT: Rule1 = Rule1 {
    forward: |x, _| x.sqrt(),
    // (`out + 0.0` is `out`, but +0.0 for -0.0: the slope at ±0 is +∞, not -∞.)
    local_grad: |_x, out, _| 0.5 / (out + 0.0),
};

impl Value {
    /// The sine (x in radians).
    ///
    /// Derivative: cos x.
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.sin();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.0, 1.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn sin(&self) -> Value {
        self.unary(Op::Sin, NO_CONSTS)
    }
}

/// `sin`.
pub(crate) const SIN: Rule1 = Rule1 {
    forward: |x, _| x.sin(),
    local_grad: |x, _out, _| x.cos(),
};

impl Value {
    /// The cosine (x in radians).
    ///
    /// Derivative: -sin x.
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.cos();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (1.0, -0.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn cos(&self) -> Value {
        self.unary(Op::Cos, NO_CONSTS)
    }
}

/// `cos`.
pub(crate) const COS: Rule1 = Rule1 {
    forward: |x, _| x.cos(),
    local_grad: |x, _out, _| -x.sin(),
};

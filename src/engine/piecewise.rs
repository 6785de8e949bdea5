//! The piecewise ops: `abs`, `clamp`, `max`, `min`. Each method is followed by its
//! rule: its forward value and, right under it, its local derivatives. At a kink the
//! derivative is one of the two one-sided ones, and each method's doc says which.
//! Python micrograd has none of them.

use super::op::Op;
use super::rules::{Rule1, Rule2, NO_CONSTS};
use super::value::Value;

impl Value {
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
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn abs(&self) -> Value {
        self.unary(Op::Abs, NO_CONSTS)
    }
}

/// `abs`.
pub(crate) const ABS: Rule1 = Rule1 {
    forward: |x, _| x.abs(),
    local_grad: |x, _out, _| sign(x),
};

/// 1 for x > 0, -1 for x < 0, 0 at 0 (and for NaN, which the forward pass reports).
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

impl Value {
    /// x limited to `[lo, hi]`: `lo` below it, `hi` above it, x inside (`f64::clamp`).
    ///
    /// Derivative: 1 for lo ≤ x ≤ hi, **bounds included** (a value sitting exactly on
    /// a bound still gets its gradient, so it can move back inside), 0 outside.
    ///
    /// # Panics
    ///
    /// If `lo > hi` or either is NaN (as `f64::clamp`).
    ///
    /// ```
    /// use micrograd::Value;
    /// let (x, y) = (Value::new(3.0), Value::new(1.0));
    /// let (cx, cy) = (x.clamp(0.0, 1.0), y.clamp(0.0, 1.0));
    /// (&cx + &cy).backward();
    /// assert_eq!((cx.data(), x.grad()), (1.0, 0.0));   // above: hi, no gradient
    /// assert_eq!((cy.data(), y.grad()), (1.0, 1.0));   // on the bound: gradient 1
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn clamp(&self, lo: f64, hi: f64) -> Value {
        assert!(
            lo <= hi,
            "clamp({lo}, {hi}): the lower bound must not be above the upper one, and neither may be NaN"
        );
        self.unary(Op::Clamp, [lo, hi])
    }
}

/// `clamp(lo, hi)`: `c` is `[lo, hi]`.
pub(crate) const CLAMP: Rule1 = Rule1 {
    forward: |x, c| x.clamp(c[0], c[1]),
    local_grad: |x, _out, c| if c[0] <= x && x <= c[1] { 1.0 } else { 0.0 },
};

impl Value {
    /// The larger of `self` and `other`; NaN if either is NaN (unlike `f64::max`, which
    /// would hide it).
    ///
    /// Derivatives: 1 for the larger one and 0 for the other. **At a tie** (a = b) the
    /// whole gradient goes to `self`, the first operand, and `other` gets 0 (the
    /// one-sided derivative; a central difference at a tie gives 0.5 to each).
    ///
    /// ```
    /// use micrograd::Value;
    /// let (a, b) = (Value::new(2.0), Value::new(2.0));
    /// let m = a.max(&b);
    /// m.backward();
    /// assert_eq!((m.data(), a.grad(), b.grad()), (2.0, 1.0, 0.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn max(&self, other: &Value) -> Value {
        self.binary(other, Op::Max)
    }
}

/// `max`: `self` wins ties, and a NaN `self` is kept.
pub(crate) const MAX: Rule2 = Rule2 {
    forward: |a, b| if a >= b || a.is_nan() { a } else { b },
    local_grads: |a, b, _out| {
        if a >= b || a.is_nan() {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        }
    },
};

impl Value {
    /// The smaller of `self` and `other`; NaN if either is NaN (unlike `f64::min`).
    ///
    /// Derivatives: 1 for the smaller one and 0 for the other. **At a tie** the whole
    /// gradient goes to `self`, the first operand, as for [`max`](Value::max).
    ///
    /// ```
    /// use micrograd::Value;
    /// let (a, b) = (Value::new(-1.0), Value::new(4.0));
    /// let m = a.min(&b);
    /// m.backward();
    /// assert_eq!((m.data(), a.grad(), b.grad()), (-1.0, 1.0, 0.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn min(&self, other: &Value) -> Value {
        self.binary(other, Op::Min)
    }
}

/// `min`: `self` wins ties, and a NaN `self` is kept.
pub(crate) const MIN: Rule2 = Rule2 {
    forward: |a, b| if a <= b || a.is_nan() { a } else { b },
    local_grads: |a, b, _out| {
        if a <= b || a.is_nan() {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        }
    },
};

//! Further powers: `powi` (an integer exponent) and `pow` (a `Value` exponent). Each
//! method is followed by its rule: its forward value and, right under it, its local
//! derivatives.

use crate::engine::value::{Node, Value};
use crate::rules::forms::PythonSource::NotInMicrograd;
use crate::rules::forms::{CFunction, RuleText, BINARY_A, BINARY_B, UNARY};
use crate::rules::powers::zeroth_or;
use crate::rules::Named;
use crate::rules::{Rule, Rule1, Rule2};

impl Value {
    /// xⁿ for a constant integer exponent, as `f64::powi` computes it (by repeated
    /// multiplication: `x.powi(2)` is `x * x` exactly). micrograd writes `x ** 2`;
    /// [`powf`](Value::powf) is that op, with micrograd's numbers.
    ///
    /// Derivative: n·xⁿ⁻¹, and 0 for n = 0 (also at x = 0, where 0·x⁻¹ would be NaN).
    ///
    /// ```
    /// let x = micrograd::Value::new(-2.0);
    /// let y = x.powi(3);
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (-8.0, 12.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn powi(&self, n: i32) -> Value {
        let c = [f64::from(n), 0.0];
        let out = (POWI.forward)(self.data(), c);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (POWI.local_grad)(x.data(), out.data, out.consts());
            x.add_grad(dx * out.grad);
        };
        self.unary::<Powi>(out, c, backward)
    }
}

/// `powi(n)`: `c[0]` is n (an `i32`, exactly representable as `f64`).
pub(crate) const POWI: Rule1 = Rule1 {
    name: "powi",
    // (`black_box`: a constant `n` would let the compiler unroll the product in an
    // order of its own; the tape's `n` is a run-time number.)
    forward: |x, c| x.powi(std::hint::black_box(c[0] as i32)),
    local_grad: |x, _out, c| match c[0] as i32 {
        0 => 0.0,
        // (n - 1 does not fit in an i32: x^(n-1) = x^n / x.)
        i32::MIN => c[0] * x.powi(i32::MIN) / x,
        n => c[0] * x.powi(n - 1),
    },
    c_forward: |w, a, c| w.c_function(CFunction::Powi, format!("powi({a}, {})", c[0] as i32)),
    c_local_grad: |w, a, _out, c| match c[0] as i32 {
        0 => w.num(0.0),
        // (n - 1 does not fit in an int: x^(n-1) = x^n / x.)
        i32::MIN => {
            let call = format!("({} * powi({a}, -2147483647 - 1) / {a})", w.num(c[0]));
            w.c_function(CFunction::Powi, call)
        }
        p => {
            let call = format!("{} * powi({a}, {})", w.num(c[0]), p - 1);
            w.c_function(CFunction::Powi, call)
        }
    },
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += (n * self.data**(n-1)) * out.grad"],
        rust: &["n => c[0] * x.powi(n - 1),", UNARY],
    },
};

/// Names `powi`'s closure (see `Named`).
struct Powi;

impl Named for Powi {
    const RULE: Rule = Rule::One(&POWI);
}

impl Value {
    /// aᵇ with a `Value` exponent, which micrograd refuses (`assert isinstance(other,
    /// (int, float))`); here the exponent gets a gradient too.
    ///
    /// Derivatives: d/da = b·aᵇ⁻¹, taken as 0 at a = b = 0 (as for
    /// [`powf`](Value::powf)); d/db = aᵇ·ln(a), taken as 0 where aᵇ = 0 with a ≥ 0
    /// (a = 0 with b > 0, or aᵇ too small for an `f64`), and NaN for every a < 0, where
    /// aᵇ has no derivative in b (also where aᵇ underflows to 0, as (-1e-200)² does;
    /// Python's `math.log(a)` raises for a < 0, and
    /// [`try_backward`](Value::try_backward) reports the NaN).
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
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn pow(&self, exponent: &Value) -> Value {
        let out = (POW.forward)(self.data(), exponent.data());
        let backward = |out: &Node| {
            let (a, b) = out.a_b();
            let (da, db) = (POW.local_grads)(a.data(), b.data(), out.data);
            a.add_grad(da * out.grad);
            b.add_grad(db * out.grad);
        };
        self.binary::<Pow>(exponent, out, backward)
    }
}

/// `pow` with a `Value` exponent.
pub(crate) const POW: Rule2 = Rule2 {
    name: "pow",
    forward: |a, b| a.powf(b),
    // d/db = a^b ln a, taken as 0 where a^b = 0 for a >= 0 (a = 0, b > 0, or an
    // underflow); NaN (ln a) for every a < 0, one whose a^b underflows to 0 too.
    local_grads: |a, b, out| {
        let flat = out == 0.0 && a >= 0.0;
        let db = if flat { 0.0 } else { out * a.ln() };
        (zeroth_or(b, a, |b| b * a.powf(b - 1.0)), db)
    },
    c_forward: |w, a, b| w.call("pow", &format!("{a}, {b}")),
    c_local_grads: |w, a, b, out| {
        let (zero, one) = (w.num(0.0), w.num(1.0));
        let ln_a = w.call("log", a);
        let db = format!("({out} == {zero} && {a} >= {zero} ? {zero} : {out} * {ln_a})");
        let rule = format!("{b} * {}", w.call("pow", &format!("{a}, {b} - {one}")));
        // (zeroth_or: 0 for b = 0 at a = 0.)
        let da = format!("({b} == {zero} && {a} == {zero} ? {zero} : {rule})");
        (da, db)
    },
    text: RuleText {
        source: NotInMicrograd,
        python: &[
            "self.grad += other.data * self.data**(other.data-1) * out.grad",
            "other.grad += out.data * math.log(self.data) * out.grad",
        ],
        rust: &[
            "let flat = out == 0.0 && a >= 0.0;",
            "let db = if flat { 0.0 } else { out * a.ln() };",
            "(zeroth_or(b, a, |b| b * a.powf(b - 1.0)), db)",
            BINARY_A,
            BINARY_B,
        ],
    },
};

/// Names `pow`'s closure (see `Named`).
struct Pow;

impl Named for Pow {
    const RULE: Rule = Rule::Two(&POW);
}

//! `powf`, micrograd's `x ** n`: the method, then its rule (its forward value and, right
//! under it, its local derivative), then the type that names it. `powi` and `pow` with a
//! `Value` exponent are in `src/ops/powers.rs`.

use super::rules::Named;
use super::rules::{Rule, Rule1};
use super::value::{Node, Value};
use crate::forms::PythonSource::Engine;
use crate::forms::{RuleText, UNARY};

impl Value {
    /// xⁿ for a constant exponent: micrograd's `x ** n` (shown as op `"**"`).
    ///
    /// Derivative: n·xⁿ⁻¹, and 0 for n = 0 at x = 0, where x⁰ is flat but 0·0⁻¹ would
    /// be NaN (Python raises `ZeroDivisionError` there; everywhere else the numbers are
    /// Python's).
    ///
    /// ```
    /// let x = micrograd::Value::new(3.0);
    /// let y = x.powf(2.0);
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (9.0, 6.0));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn powf(&self, n: f64) -> Value {
        let c = [n, 0.0];
        let out = (POWF.forward)(self.data(), c);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (POWF.local_grad)(x.data(), out.data, out.consts());
            x.add_grad(dx * out.grad);
        };
        self.unary::<Powf>(out, c, backward)
    }
}

/// `powf(n)`: `c[0]` is n.
pub(crate) const POWF: Rule1 = Rule1 {
    name: "**",
    method: |x, c| x.powf(c[0]),
    // Python: out = Value(self.data**other, (self,), f'**{other}')
    // (`black_box`: where the method sees the exponent, the compiler would turn
    // `pow(x, 2.0)` into `x * x`, which can differ from libm's `pow`, the one Python's
    // `**` and the tape call, by an ulp.)
    forward: |x, c| x.powf(std::hint::black_box(c[0])),
    // Python: self.grad += (other * self.data**(other-1)) * out.grad
    local_grad: |x, _out, c| zeroth_or(c[0], x, |n| n * x.powf(n - 1.0)),
    c_forward: |w, a, c| w.call("pow", &format!("{a}, {}", w.num(c[0]))),
    c_local_grad: |w, a, _out, c| {
        let (zero, one) = (w.num(0.0), w.num(1.0));
        let n = w.num(c[0]);
        let rule = format!("{n} * {}", w.call("pow", &format!("{a}, {n} - {one}")));
        // (zeroth_or: 0 for n = 0 at x = 0.)
        match c[0] == 0.0 {
            true => format!("({a} == {zero} ? {zero} : {rule})"),
            false => rule,
        }
    },
    text: RuleText {
        source: Engine,
        python: &["self.grad += (other * self.data**(other-1)) * out.grad"],
        rust: &[
            "local_grad: |x, _out, c| zeroth_or(c[0], x, |n| n * x.powf(n - 1.0)),",
            UNARY,
        ],
    },
};

/// Names `powf`'s closure (see `Named`).
pub(crate) struct Powf;

impl Named for Powf {
    const RULE: Rule = Rule::One(&POWF);
}

/// d xⁿ / dx = n·xⁿ⁻¹ by `power_rule(n)`, except for n = 0 at x = 0: 0 there (x⁰ is flat;
/// 0·0⁻¹ would be NaN). Elsewhere `power_rule`'s number as it is (for n = 0, x < 0 it is
/// -0.0, Python's `0 * x**-1`).
#[inline(always)]
pub(crate) fn zeroth_or(n: f64, x: f64, power_rule: impl Fn(f64) -> f64) -> f64 {
    if n == 0.0 && x == 0.0 {
        0.0
    } else {
        power_rule(n)
    }
}

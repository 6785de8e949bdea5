//! The rule of `powf`, micrograd's `x ** n` (its method: `src/engine/powers.rs`), and the
//! power rule's one exception, which `powi` and `pow` share.

use super::forms::PythonSource::Engine;
use super::forms::{RuleText, UNARY};
use super::{Named, Rule, Rule1};

/// `powf(n)`: `c[0]` is n.
pub(crate) const POWF: Rule1 = Rule1 {
    name: "**",
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

//! Every op of the engine as C: its forward value and its local derivatives, written
//! with the formulas of its Rust rule (`src/engine/*.rs`, the same operations in the
//! same order), so that the C computes the same numbers bit for bit.

use std::collections::BTreeSet;

use crate::engine::op::Op;
use crate::engine::rules::Consts;

/// The floating-point type the C computes in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Precision {
    /// `double`: the tape's numbers, bit for bit (with `-ffp-contract=off`, no fast-math).
    #[default]
    F64,
    /// `float`: half the memory and about twice the vector width; the numbers differ from
    /// the tape's (rounded to 24 bits instead of 53 at every operation), see
    /// `docs/codegen.md`.
    F32,
}

/// The small C functions that some ops need, written into the source only when used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Helper {
    /// `sigmoid`, `softplus`'s derivative.
    Logistic,
    /// `powi`.
    Powi,
    /// `abs`'s derivative.
    Sign,
}

/// Writes numbers, math calls and op formulas as C of one [`Precision`], noting the
/// helpers they use.
pub(super) struct Real {
    pub(super) precision: Precision,
    pub(super) helpers: BTreeSet<Helper>,
}

impl Real {
    pub(super) fn new(precision: Precision) -> Real {
        Real {
            precision,
            helpers: BTreeSet::new(),
        }
    }

    /// The C type: `double` or `float`.
    pub(super) fn c_type(&self) -> &'static str {
        match self.precision {
            Precision::F64 => "double",
            Precision::F32 => "float",
        }
    }

    /// `x` as a C constant of the precision: the shortest decimal that reads back as
    /// `x` (rounded to `float` first in `F32`, where a number beyond float's range is
    /// infinite: `HUGE_VALF`), in parentheses if negative.
    pub(super) fn num(&self, x: f64) -> String {
        let f32 = self.precision == Precision::F32;
        // (Rounded to float first: 1e300 is inf there, and `inff` is no C.)
        let infinite = x.is_infinite() || (f32 && (x as f32).is_infinite());
        let text = match (x.is_nan(), infinite, f32) {
            (true, _, _) => "NAN".to_owned(),
            (_, true, false) => "HUGE_VAL".to_owned(),
            (_, true, true) => "HUGE_VALF".to_owned(),
            (_, _, false) => format!("{:?}", x.abs()),
            (_, _, true) => format!("{:?}f", (x as f32).abs()),
        };
        if x.is_sign_negative() && !x.is_nan() {
            format!("(-{text})")
        } else {
            text
        }
    }

    /// The math.h function `name` of the precision: `exp` or `expf`.
    pub(super) fn call(&self, name: &str, args: &str) -> String {
        match self.precision {
            Precision::F64 => format!("{name}({args})"),
            Precision::F32 => format!("{name}f({args})"),
        }
    }

    fn helper(&mut self, helper: Helper, call: String) -> String {
        self.helpers.insert(helper);
        call
    }

    /// The C expression of `op`'s value from its operands' expressions `a` and `b`
    /// (`b` unused by one-parent ops) and its constants `c` (the forward half of the
    /// op's rule).
    pub(super) fn forward(&mut self, op: Op, a: &str, b: &str, c: Consts) -> String {
        let n = |x: f64| self.num(x);
        let zero = n(0.0);
        match op {
            Op::Add => format!("{a} + {b}"),
            Op::Sub => format!("{a} - {b}"),
            Op::Mul => format!("{a} * {b}"),
            Op::Div => format!("{a} / {b}"),
            Op::Neg => format!("-{a}"),
            Op::Relu => format!("{a} < {zero} ? {zero} : {a}"),
            Op::LeakyRelu => format!("{a} > {zero} ? {a} : {} * {a}", n(c[0])),
            Op::Tanh => self.call("tanh", a),
            Op::Sigmoid => self.helper(Helper::Logistic, format!("logistic({a})")),
            Op::Softplus => format!(
                "{a} > {zero} ? {a} + {} : {}",
                self.call("log1p", &self.call("exp", &format!("-{a}"))),
                self.call("log1p", &self.call("exp", a))
            ),
            Op::Exp => self.call("exp", a),
            Op::Ln => self.call("log", a),
            Op::Log1p => self.call("log1p", a),
            Op::Sqrt => self.call("sqrt", a),
            Op::Sin => self.call("sin", a),
            Op::Cos => self.call("cos", a),
            Op::Powf => self.call("pow", &format!("{a}, {}", n(c[0]))),
            Op::Pow => self.call("pow", &format!("{a}, {b}")),
            Op::Powi => self.helper(Helper::Powi, format!("powi({a}, {})", c[0] as i32)),
            Op::Abs => self.call("fabs", a),
            // (f64::clamp: below lo gives lo, then above hi gives hi; NaN stays NaN.)
            Op::Clamp => format!(
                "{a} < {lo} ? {lo} : {a} > {hi} ? {hi} : {a}",
                lo = n(c[0]),
                hi = n(c[1])
            ),
            Op::Max => format!("{a} >= {b} || isnan({a}) ? {a} : {b}"),
            Op::Min => format!("{a} <= {b} || isnan({a}) ? {a} : {b}"),
            Op::Sum | Op::Neuron(_) | Op::Leaf | Op::Custom => {
                unreachable!("{op:?} is no one- or two-parent op")
            }
        }
    }

    /// The C expressions of `op`'s local derivatives `(d out / d a, d out / d b)` from
    /// its operands' expressions `a`, `b`, its value's `out` and its constants `c` (the
    /// backward half of the op's rule; `None` for `b` of a one-parent op).
    pub(super) fn local_grads(
        &mut self,
        op: Op,
        (a, b, out): (&str, &str, &str),
        c: Consts,
    ) -> (String, Option<String>) {
        let n = |x: f64| self.num(x);
        let (zero, one) = (n(0.0), n(1.0));
        let one_parent = |d: String| (d, None);
        match op {
            Op::Add => (one.clone(), Some(one)),
            Op::Sub => (one, Some(n(-1.0))),
            Op::Mul => (b.to_owned(), Some(a.to_owned())),
            Op::Div => (format!("{one} / {b}"), Some(format!("-{out} / {b}"))),
            Op::Neg => one_parent(n(-1.0)),
            Op::Relu => one_parent(format!("({out} > {zero} ? {one} : {zero})")),
            Op::LeakyRelu => one_parent(format!("({a} > {zero} ? {one} : {})", n(c[0]))),
            Op::Tanh => one_parent(format!("({one} - {out} * {out})")),
            Op::Sigmoid => one_parent(format!("{out} * ({one} - {out})")),
            Op::Softplus => one_parent(self.helper(Helper::Logistic, format!("logistic({a})"))),
            Op::Exp => one_parent(out.to_owned()),
            // (functions.rs: `x + 0.0`, +0.0 for -0.0; not folded without fast-math.)
            Op::Ln => one_parent(format!("({one} / ({a} + {zero}))")),
            Op::Log1p => one_parent(format!("({one} / ({one} + {a}))")),
            // (functions.rs: `out + 0.0`, +0.0 for -0.0; not folded without fast-math.)
            Op::Sqrt => one_parent(format!("({} / ({out} + {zero}))", n(0.5))),
            Op::Sin => one_parent(self.call("cos", a)),
            Op::Cos => one_parent(format!("-{}", self.call("sin", a))),
            Op::Powf => {
                let rule = format!(
                    "{} * {}",
                    n(c[0]),
                    self.call("pow", &format!("{a}, {} - {one}", n(c[0])))
                );
                // (powers.rs: zeroth_or, 0 for n = 0 at x = 0.)
                one_parent(match c[0] == 0.0 {
                    true => format!("({a} == {zero} ? {zero} : {rule})"),
                    false => rule,
                })
            }
            Op::Powi => one_parent(match c[0] as i32 {
                0 => zero,
                // (n - 1 does not fit in an int: x^(n-1) = x^n / x.)
                i32::MIN => self.helper(
                    Helper::Powi,
                    format!("({} * powi({a}, -2147483647 - 1) / {a})", n(c[0])),
                ),
                p => self.helper(Helper::Powi, format!("{} * powi({a}, {})", n(c[0]), p - 1)),
            }),
            Op::Abs => one_parent(self.helper(Helper::Sign, format!("sign({a})"))),
            Op::Clamp => one_parent(format!(
                "({} <= {a} && {a} <= {} ? {one} : {zero})",
                n(c[0]),
                n(c[1])
            )),
            Op::Max | Op::Min => {
                let wins = if op == Op::Max { ">=" } else { "<=" };
                let first = format!("({a} {wins} {b} || isnan({a}))");
                (
                    format!("({first} ? {one} : {zero})"),
                    Some(format!("({first} ? {zero} : {one})")),
                )
            }
            Op::Pow => {
                // (powers.rs: 0 where a^b = 0 for a >= 0; NaN for every a < 0.)
                let db = format!(
                    "({out} == {zero} && {a} >= {zero} ? {zero} : {out} * {})",
                    self.call("log", a)
                );
                let rule = format!("{b} * {}", self.call("pow", &format!("{a}, {b} - {one}")));
                // (powers.rs: zeroth_or, 0 for b = 0 at a = 0.)
                let da = format!("({b} == {zero} && {a} == {zero} ? {zero} : {rule})");
                (da, Some(db))
            }
            Op::Sum | Op::Neuron(_) | Op::Leaf | Op::Custom => {
                unreachable!("{op:?} is no one- or two-parent op")
            }
        }
    }

    /// The C definition of `helper`, with a comment naming the Rust it mirrors.
    pub(super) fn helper_source(&self, helper: Helper) -> String {
        let n = |x: f64| self.num(x);
        let (zero, one) = (n(0.0), n(1.0));
        match helper {
            Helper::Logistic => format!(
                "/* 1 / (1 + e^-x) in two branches, so that e^-x never overflows\n   \
                 (activations.rs: logistic) */\n\
                 static real logistic(real x) {{\n    \
                 real e;\n    \
                 if (x >= {zero}) return {one} / ({one} + {});\n    \
                 e = {};\n    \
                 return e / ({one} + e);\n}}\n",
                self.call("exp", "-x"),
                self.call("exp", "x")
            ),
            Helper::Powi => format!(
                "/* x^n by repeated squaring: Rust's powi (compiler-rt's __powidf2),\n   \
                 multiplication for multiplication */\n\
                 static real powi(real x, long n) {{\n    \
                 unsigned long m = n < 0 ? 0UL - (unsigned long)n : (unsigned long)n;\n    \
                 real y = (m & 1UL) ? x : {one};\n    \
                 while (m >>= 1) {{\n        \
                 x = x * x;\n        \
                 if (m & 1UL) y = y * x;\n    \
                 }}\n    \
                 return n < 0 ? {one} / y : y;\n}}\n"
            ),
            Helper::Sign => format!(
                "/* 1 for x > 0, -1 for x < 0, 0 at 0 and for NaN (piecewise.rs: sign) */\n\
                 static real sign(real x) {{\n    \
                 return x > {zero} ? {one} : x < {zero} ? {m1} : {zero};\n}}\n",
                m1 = n(-1.0)
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_back_exactly_in_either_precision() {
        let r = Real::new(Precision::F64);
        assert_eq!(r.num(0.1), "0.1");
        assert_eq!(r.num(-2.0), "(-2.0)");
        assert_eq!(r.num(-0.0), "(-0.0)");
        assert_eq!(r.num(f64::NEG_INFINITY), "(-HUGE_VAL)");
        assert_eq!(Real::new(Precision::F32).num(0.1), "0.1f");
    }

    // A double beyond float's range rounds to an infinite float: HUGE_VALF, not `inff`.
    #[test]
    fn numbers_beyond_floats_range_are_huge_valf_in_float_c() {
        let r = Real::new(Precision::F32);
        assert_eq!(r.num(1e300), "HUGE_VALF");
        assert_eq!(r.num(-1e39), "(-HUGE_VALF)");
        assert_eq!(r.num(f64::from(f32::MAX)), format!("{:?}f", f32::MAX));
        assert_eq!(Real::new(Precision::F64).num(1e300), "1e300");
    }
}

//! The C of the engine's ops, in `double` or `float`: numbers, math calls and the small
//! static functions. Each op's own C (its forward value and its local derivatives) is
//! written with its Rust rule (`src/rules/`, `src/ops/`: the same operations in the same
//! order, so that the C computes the same numbers bit for bit), through [`CWriter`].

use std::collections::BTreeSet;

use crate::rules::forms::CWriter;
use crate::rules::{Consts, Rule};

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
pub(super) use crate::rules::forms::CFunction;

/// Writes numbers, math calls and op formulas as C of one [`Precision`], noting the
/// static functions they use.
pub(super) struct Real {
    pub(super) precision: Precision,
    pub(super) c_functions: BTreeSet<CFunction>,
}

impl Real {
    pub(super) fn new(precision: Precision) -> Real {
        Real {
            precision,
            c_functions: BTreeSet::new(),
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

    /// The math.h function `name` of the precision: `exp` or `expf`. Every function
    /// the C calls is exactly rounded (`sqrt`, `fabs`) or kept a call by
    /// [`C_FLAGS`](super::C_FLAGS) (`-fno-builtin-<f>`), so that a compiler never works
    /// it out on a constant with other rounding than libm's.
    pub(super) fn call(&self, name: &str, args: &str) -> String {
        debug_assert!(
            ["sqrt", "fabs"].contains(&name)
                || super::C_FLAGS.contains(&format!("-fno-builtin-{name}").as_str()),
            "the C calls {name}: add -fno-builtin-{name} to C_FLAGS"
        );
        match self.precision {
            Precision::F64 => format!("{name}({args})"),
            Precision::F32 => format!("{name}f({args})"),
        }
    }

    /// The C expression of `op`'s value from its operands' expressions `a` and `b`
    /// (`b` unused by one-parent ops) and its constants `c`: the op's own C, written
    /// with its rule.
    pub(super) fn forward(&mut self, op: Rule, a: &str, b: &str, c: Consts) -> String {
        op.c_forward(self, a, b, c)
    }

    /// The C expressions of `op`'s local derivatives `(d out / d a, d out / d b)` from
    /// its operands' expressions `a`, `b`, its value's `out` and its constants `c`
    /// (`None` for `b` of a one-parent op): the op's own C, written with its rule.
    pub(super) fn local_grads(
        &mut self,
        op: Rule,
        operands: (&str, &str, &str),
        c: Consts,
    ) -> (String, Option<String>) {
        op.c_local_grads(self, operands, c)
    }

    /// The C definition of `function`, with a comment naming the Rust it mirrors.
    pub(super) fn c_function_source(&self, function: CFunction) -> String {
        let n = |x: f64| self.num(x);
        let (zero, one) = (n(0.0), n(1.0));
        match function {
            CFunction::Logistic => format!(
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
            CFunction::Powi => format!(
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
            CFunction::Sign => format!(
                "/* 1 for x > 0, -1 for x < 0, 0 at 0 and for NaN (src/ops/piecewise.rs: sign) */\n\
                 static real sign(real x) {{\n    \
                 return x > {zero} ? {one} : x < {zero} ? {m1} : {zero};\n}}\n",
                m1 = n(-1.0)
            ),
        }
    }
}

impl CWriter for Real {
    fn num(&self, x: f64) -> String {
        Real::num(self, x)
    }

    fn call(&self, name: &str, args: &str) -> String {
        Real::call(self, name, args)
    }

    fn c_function(&mut self, function: CFunction, call: String) -> String {
        self.c_functions.insert(function);
        call
    }
}

/// An op's C, from its rule.
impl Rule {
    /// The C expression of [`forward`](Rule::forward) from the operands' C `a` and `b`.
    pub(crate) fn c_forward(self, w: &mut dyn CWriter, a: &str, b: &str, c: Consts) -> String {
        match self {
            Rule::One(r) => (r.c_forward)(w, a, c),
            Rule::Two(r) => (r.c_forward)(w, a, b),
        }
    }

    /// The C expressions of [`local_grads`](Rule::local_grads) from the C of `a`, `b`
    /// and `out` (`None` for `b` of a one-parent op).
    pub(crate) fn c_local_grads(
        self,
        w: &mut dyn CWriter,
        (a, b, out): (&str, &str, &str),
        c: Consts,
    ) -> (String, Option<String>) {
        match self {
            Rule::One(r) => ((r.c_local_grad)(w, a, out, c), None),
            Rule::Two(r) => {
                let (da, db) = (r.c_local_grads)(w, a, b, out);
                (da, Some(db))
            }
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

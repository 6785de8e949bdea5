//! Further elementary functions: `ln`, `log1p`, `sqrt`, `sin`, `cos`, `atan`. Each
//! method is followed by its rule: its forward value and, right under it, its local
//! derivative. Python micrograd has none of them.

use crate::engine::value::{Node, Value};
use crate::rules::forms::PythonSource::NotInMicrograd;
use crate::rules::forms::{RuleText, UNARY};
use crate::rules::Named;
use crate::rules::{Rule, Rule1, NO_CONSTS};

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
        let out = (LN.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (LN.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Ln>(out, NO_CONSTS, backward)
    }
}

/// `ln`.
pub(crate) const LN: Rule1 = Rule1 {
    name: "ln",
    forward: |x, _| x.ln(),
    // (`x + 0.0` is `x`, but +0.0 for -0.0: the slope at ±0 is +∞, not -∞.)
    local_grad: |x, _out, _| 1.0 / (x + 0.0),
    c_forward: |w, a, _| w.call("log", a),
    // (`x + 0.0` as above; C does not fold it either without fast-math.)
    c_local_grad: |w, a, _out, _| {
        format!(
            "({one} / ({a} + {zero}))",
            one = w.num(1.0),
            zero = w.num(0.0)
        )
    },
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += (1 / self.data) * out.grad"],
        rust: &["local_grad: |x, _out, _| 1.0 / (x + 0.0),", UNARY],
    },
};

/// Names `ln`'s closure (see `Named`).
struct Ln;

impl Named for Ln {
    const RULE: Rule = Rule::One(&LN);
}

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
        let out = (LOG1P.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (LOG1P.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Log1p>(out, NO_CONSTS, backward)
    }
}

/// `log1p`.
pub(crate) const LOG1P: Rule1 = Rule1 {
    name: "log1p",
    forward: |x, _| x.ln_1p(),
    local_grad: |x, _out, _| 1.0 / (1.0 + x),
    c_forward: |w, a, _| w.call("log1p", a),
    c_local_grad: |w, a, _out, _| format!("({one} / ({one} + {a}))", one = w.num(1.0)),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += 1 / (1 + self.data) * out.grad"],
        rust: &["local_grad: |x, _out, _| 1.0 / (1.0 + x),", UNARY],
    },
};

/// Names `log1p`'s closure (see `Named`).
struct Log1p;

impl Named for Log1p {
    const RULE: Rule = Rule::One(&LOG1P);
}

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
        let out = (SQRT.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (SQRT.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Sqrt>(out, NO_CONSTS, backward)
    }
}

/// `sqrt`.
pub(crate) const SQRT: Rule1 = Rule1 {
    name: "sqrt",
    forward: |x, _| x.sqrt(),
    // (`out + 0.0` is `out`, but +0.0 for -0.0: the slope at ±0 is +∞, not -∞.)
    local_grad: |_x, out, _| 0.5 / (out + 0.0),
    c_forward: |w, a, _| w.call("sqrt", a),
    // (`out + 0.0` as above; C does not fold it either without fast-math.)
    c_local_grad: |w, _a, out, _| format!("({} / ({out} + {zero}))", w.num(0.5), zero = w.num(0.0)),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += 0.5 / out.data * out.grad"],
        rust: &["local_grad: |_x, out, _| 0.5 / (out + 0.0),", UNARY],
    },
};

/// Names `sqrt`'s closure (see `Named`).
struct Sqrt;

impl Named for Sqrt {
    const RULE: Rule = Rule::One(&SQRT);
}

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
        let out = (SIN.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (SIN.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Sin>(out, NO_CONSTS, backward)
    }
}

/// `sin`.
pub(crate) const SIN: Rule1 = Rule1 {
    name: "sin",
    forward: |x, _| x.sin(),
    local_grad: |x, _out, _| x.cos(),
    c_forward: |w, a, _| w.call("sin", a),
    c_local_grad: |w, a, _out, _| w.call("cos", a),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += math.cos(self.data) * out.grad"],
        rust: &["local_grad: |x, _out, _| x.cos(),", UNARY],
    },
};

/// Names `sin`'s closure (see `Named`).
struct Sin;

impl Named for Sin {
    const RULE: Rule = Rule::One(&SIN);
}

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
        let out = (COS.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (COS.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Cos>(out, NO_CONSTS, backward)
    }
}

/// `cos`.
pub(crate) const COS: Rule1 = Rule1 {
    name: "cos",
    forward: |x, _| x.cos(),
    local_grad: |x, _out, _| -x.sin(),
    c_forward: |w, a, _| w.call("cos", a),
    c_local_grad: |w, a, _out, _| format!("-{}", w.call("sin", a)),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += -math.sin(self.data) * out.grad"],
        rust: &["local_grad: |x, _out, _| -x.sin(),", UNARY],
    },
};

/// Names `cos`'s closure (see `Named`).
struct Cos;

impl Named for Cos {
    const RULE: Rule = Rule::One(&COS);
}

impl Value {
    /// The arc tangent, in radians (`f64::atan`): between -π/2 and π/2.
    ///
    /// Derivative: 1 / (1 + x²) (0 where x² overflows, as the slope does in the limit).
    ///
    /// ```
    /// let x = micrograd::Value::new(1.0);
    /// let y = x.atan();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (std::f64::consts::FRAC_PI_4, 0.5));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn atan(&self) -> Value {
        let out = (ATAN.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (ATAN.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Atan>(out, NO_CONSTS, backward)
    }
}

/// `atan`.
pub(crate) const ATAN: Rule1 = Rule1 {
    name: "atan",
    forward: |x, _| x.atan(),
    local_grad: |x, _out, _| 1.0 / (1.0 + x * x),
    c_forward: |w, a, _| w.call("atan", a),
    c_local_grad: |w, a, _out, _| format!("({one} / ({one} + {a} * {a}))", one = w.num(1.0)),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += 1 / (1 + self.data**2) * out.grad"],
        rust: &["local_grad: |x, _out, _| 1.0 / (1.0 + x * x),", UNARY],
    },
};

/// Names `atan`'s closure (see `Named`).
struct Atan;

impl Named for Atan {
    const RULE: Rule = Rule::One(&ATAN);
}

//! Further activations: `sigmoid`, `leaky_relu` and `softplus`. Each method is followed by
//! its rule: its forward value and, right under it, its local derivative.

use crate::engine::value::{Node, Value};
use crate::rules::forms::PythonSource::NotInMicrograd;
use crate::rules::forms::{CFunction, RuleText, UNARY};
use crate::rules::Named;
use crate::rules::{Rule, Rule1, NO_CONSTS};

impl Value {
    /// The logistic function 1 / (1 + e⁻ˣ), computed without overflow for large |x|.
    /// Python micrograd has no such op.
    ///
    /// Derivative: σ(x)·(1 - σ(x)).
    ///
    /// ```
    /// let x = micrograd::Value::new(0.0);
    /// let y = x.sigmoid();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (0.5, 0.25));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn sigmoid(&self) -> Value {
        let out = (SIGMOID.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (SIGMOID.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Sigmoid>(out, NO_CONSTS, backward)
    }
}

/// `sigmoid`.
pub(crate) const SIGMOID: Rule1 = Rule1 {
    name: "sigmoid",
    forward: |x, _| logistic(x),
    local_grad: |_x, out, _| out * (1.0 - out),
    c_forward: |w, a, _| w.c_function(CFunction::Logistic, format!("logistic({a})")),
    c_local_grad: |w, _a, out, _| format!("{out} * ({one} - {out})", one = w.num(1.0)),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += out.data * (1 - out.data) * out.grad"],
        rust: &["local_grad: |_x, out, _| out * (1.0 - out),", UNARY],
    },
};

/// Names `sigmoid`'s closure (see `Named`).
struct Sigmoid;

impl Named for Sigmoid {
    const RULE: Rule = Rule::One(&SIGMOID);
}

/// 1 / (1 + e⁻ˣ) in two branches, so that e^(-x) never overflows.
pub(crate) fn logistic(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

impl Value {
    /// `x` where x > 0, else `slope * x`. Python micrograd has no such op.
    ///
    /// Derivative: 1 where x > 0, else `slope` (at 0 it is `slope`, like ReLU'(0) = 0).
    ///
    /// # Panics
    ///
    /// If `slope` is NaN or infinite (a programming error, as `clamp` with NaN bounds
    /// is: the output would be NaN, or ±∞, for every x ≤ 0, perhaps only once the data
    /// reaches that side; [`Neuron::new`](crate::nn::Neuron::new) refuses such a
    /// [`LeakyRelu`](crate::nn::Activation::LeakyRelu) too). A slope read from data can
    /// be checked with `f64::is_finite` first.
    ///
    /// ```
    /// let x = micrograd::Value::new(-2.0);
    /// let y = x.leaky_relu(0.1);
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (-0.2, 0.1));
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn leaky_relu(&self, slope: f64) -> Value {
        assert!(
            slope.is_finite(),
            "leaky_relu({slope}): the slope must be a finite number, such as leaky_relu(0.01)"
        );
        let c = [slope, 0.0];
        let out = (LEAKY_RELU.forward)(self.data(), c);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (LEAKY_RELU.local_grad)(x.data(), out.data, out.consts());
            x.add_grad(dx * out.grad);
        };
        self.unary::<LeakyRelu>(out, c, backward)
    }
}

/// `leaky_relu(slope)`: `c[0]` is the slope.
pub(crate) const LEAKY_RELU: Rule1 = Rule1 {
    name: "leaky_relu",
    forward: |x, c| if x > 0.0 { x } else { c[0] * x },
    local_grad: |x, _out, c| if x > 0.0 { 1.0 } else { c[0] },
    c_forward: |w, a, c| {
        format!(
            "{a} > {zero} ? {a} : {} * {a}",
            w.num(c[0]),
            zero = w.num(0.0)
        )
    },
    c_local_grad: |w, a, _out, c| {
        let (zero, one) = (w.num(0.0), w.num(1.0));
        format!("({a} > {zero} ? {one} : {})", w.num(c[0]))
    },
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += (1 if self.data > 0 else slope) * out.grad"],
        rust: &[
            "local_grad: |x, _out, c| if x > 0.0 { 1.0 } else { c[0] },",
            UNARY,
        ],
    },
};

/// Names `leaky_relu`'s closure (see `Named`).
struct LeakyRelu;

impl Named for LeakyRelu {
    const RULE: Rule = Rule::One(&LEAKY_RELU);
}

impl Value {
    /// ln(1 + eˣ), a smooth ReLU, computed without overflow: as x + ln(1 + e⁻ˣ) for
    /// x > 0 and ln(1 + eˣ) otherwise, so `softplus(800)` is 800 (not ∞) and
    /// `softplus(-800)` is 0. Python micrograd has no such op.
    ///
    /// Derivative: σ(x) = 1 / (1 + e⁻ˣ) (computed as [`sigmoid`](Value::sigmoid) is):
    /// 1 at x = 800, 0 at x = -800, 0.5 at 0.
    ///
    /// ```
    /// let x = micrograd::Value::new(800.0);
    /// let y = x.softplus();
    /// y.backward();
    /// assert_eq!((y.data(), x.grad()), (800.0, 1.0));
    /// let z = micrograd::Value::new(0.0).softplus();
    /// assert_eq!(z.data(), 2f64.ln());
    /// ```
    #[must_use = "an op returns a new Value and leaves `self` unchanged"]
    pub fn softplus(&self) -> Value {
        let out = (SOFTPLUS.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (SOFTPLUS.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Softplus>(out, NO_CONSTS, backward)
    }
}

/// `softplus`.
pub(crate) const SOFTPLUS: Rule1 = Rule1 {
    name: "softplus",
    forward: |x, _| {
        if x > 0.0 {
            x + (-x).exp().ln_1p()
        } else {
            x.exp().ln_1p()
        }
    },
    local_grad: |x, _out, _| logistic(x),
    c_forward: |w, a, _| {
        format!(
            "{a} > {zero} ? {a} + {} : {}",
            w.call("log1p", &w.call("exp", &format!("-{a}"))),
            w.call("log1p", &w.call("exp", a)),
            zero = w.num(0.0)
        )
    },
    c_local_grad: |w, a, _out, _| w.c_function(CFunction::Logistic, format!("logistic({a})")),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += sigmoid(self.data) * out.grad"],
        rust: &["local_grad: |x, _out, _| logistic(x),", UNARY],
    },
};

/// Names `softplus`'s closure (see `Named`).
struct Softplus;

impl Named for Softplus {
    const RULE: Rule = Rule::One(&SOFTPLUS);
}

//! The piecewise ops: `abs`, `clamp`, `max`, `min`. Each method is followed by its
//! rule: its forward value and, right under it, its local derivatives. At a kink the
//! derivative is one of the two one-sided ones, and each method's doc says which.
//! Python micrograd has none of them.

use crate::engine::value::{Node, Value};
use crate::rules::forms::PythonSource::NotInMicrograd;
use crate::rules::forms::{CFunction, CWriter, RuleText, BINARY_A, BINARY_B, UNARY};
use crate::rules::Named;
use crate::rules::{Rule, Rule1, Rule2, NO_CONSTS};

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
        let out = (ABS.forward)(self.data(), NO_CONSTS);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (ABS.local_grad)(x.data(), out.data, NO_CONSTS);
            x.add_grad(dx * out.grad);
        };
        self.unary::<Abs>(out, NO_CONSTS, backward)
    }
}

/// `abs`.
pub(crate) const ABS: Rule1 = Rule1 {
    name: "abs",
    forward: |x, _| x.abs(),
    local_grad: |x, _out, _| sign(x),
    c_forward: |w, a, _| w.call("fabs", a),
    c_local_grad: |w, a, _out, _| w.c_function(CFunction::Sign, format!("sign({a})")),
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += sign(self.data) * out.grad"],
        rust: &["local_grad: |x, _out, _| sign(x),", UNARY],
    },
};

/// Names `abs`'s closure (see `Named`).
struct Abs;

impl Named for Abs {
    const RULE: Rule = Rule::One(&ABS);
}

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
        let c = [lo, hi];
        let out = (CLAMP.forward)(self.data(), c);
        let backward = |out: &Node| {
            let x = out.x();
            let dx = (CLAMP.local_grad)(x.data(), out.data, out.consts());
            x.add_grad(dx * out.grad);
        };
        self.unary::<Clamp>(out, c, backward)
    }
}

/// `clamp(lo, hi)`: `c` is `[lo, hi]`.
pub(crate) const CLAMP: Rule1 = Rule1 {
    name: "clamp",
    forward: |x, c| x.clamp(c[0], c[1]),
    local_grad: |x, _out, c| if c[0] <= x && x <= c[1] { 1.0 } else { 0.0 },
    // (f64::clamp: below lo gives lo, then above hi gives hi; NaN stays NaN.)
    c_forward: |w, a, c| {
        let (lo, hi) = (w.num(c[0]), w.num(c[1]));
        format!("{a} < {lo} ? {lo} : {a} > {hi} ? {hi} : {a}")
    },
    c_local_grad: |w, a, _out, c| {
        let (zero, one) = (w.num(0.0), w.num(1.0));
        let (lo, hi) = (w.num(c[0]), w.num(c[1]));
        format!("({lo} <= {a} && {a} <= {hi} ? {one} : {zero})")
    },
    text: RuleText {
        source: NotInMicrograd,
        python: &["self.grad += (lo <= self.data <= hi) * out.grad"],
        rust: &[
            "local_grad: |x, _out, c| if c[0] <= x && x <= c[1] { 1.0 } else { 0.0 },",
            UNARY,
        ],
    },
};

/// Names `clamp`'s closure (see `Named`).
struct Clamp;

impl Named for Clamp {
    const RULE: Rule = Rule::One(&CLAMP);
}

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
        let out = (MAX.forward)(self.data(), other.data());
        let backward = |out: &Node| {
            let (a, b) = out.a_b();
            let (da, db) = (MAX.local_grads)(a.data(), b.data(), out.data);
            a.add_grad(da * out.grad);
            b.add_grad(db * out.grad);
        };
        self.binary::<Max>(other, out, backward)
    }
}

/// `max`: `self` wins ties, and a NaN `self` is kept.
pub(crate) const MAX: Rule2 = Rule2 {
    name: "max",
    forward: |a, b| if a >= b || a.is_nan() { a } else { b },
    local_grads: |a, b, _out| {
        if a >= b || a.is_nan() {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        }
    },
    c_forward: |_, a, b| format!("{a} >= {b} || isnan({a}) ? {a} : {b}"),
    c_local_grads: |w, a, b, _out| first_wins(w, &format!("({a} >= {b} || isnan({a}))")),
    text: RuleText {
        source: NotInMicrograd,
        python: &[
            "self.grad += (self.data >= other.data) * out.grad",
            "other.grad += (self.data < other.data) * out.grad",
        ],
        rust: &[
            "if a >= b || a.is_nan() {",
            "(1.0, 0.0)",
            "(0.0, 1.0)",
            BINARY_A,
            BINARY_B,
        ],
    },
};

/// Names `max`'s closure (see `Named`).
struct Max;

impl Named for Max {
    const RULE: Rule = Rule::Two(&MAX);
}

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
        let out = (MIN.forward)(self.data(), other.data());
        let backward = |out: &Node| {
            let (a, b) = out.a_b();
            let (da, db) = (MIN.local_grads)(a.data(), b.data(), out.data);
            a.add_grad(da * out.grad);
            b.add_grad(db * out.grad);
        };
        self.binary::<Min>(other, out, backward)
    }
}

/// `min`: `self` wins ties, and a NaN `self` is kept.
pub(crate) const MIN: Rule2 = Rule2 {
    name: "min",
    forward: |a, b| if a <= b || a.is_nan() { a } else { b },
    local_grads: |a, b, _out| {
        if a <= b || a.is_nan() {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        }
    },
    c_forward: |_, a, b| format!("{a} <= {b} || isnan({a}) ? {a} : {b}"),
    c_local_grads: |w, a, b, _out| first_wins(w, &format!("({a} <= {b} || isnan({a}))")),
    text: RuleText {
        source: NotInMicrograd,
        python: &[
            "self.grad += (self.data <= other.data) * out.grad",
            "other.grad += (self.data > other.data) * out.grad",
        ],
        rust: &[
            "if a <= b || a.is_nan() {",
            "(1.0, 0.0)",
            "(0.0, 1.0)",
            BINARY_A,
            BINARY_B,
        ],
    },
};

/// Names `min`'s closure (see `Named`).
struct Min;

impl Named for Min {
    const RULE: Rule = Rule::Two(&MIN);
}

/// The C of `max`'s and `min`'s local derivatives, given the C condition under which
/// `self` wins: `(1, 0)` then, else `(0, 1)`.
fn first_wins(w: &mut dyn CWriter, first: &str) -> (String, String) {
    let (zero, one) = (w.num(0.0), w.num(1.0));
    (
        format!("({first} ? {one} : {zero})"),
        format!("({first} ? {zero} : {one})"),
    )
}

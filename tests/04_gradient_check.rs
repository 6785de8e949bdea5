//! Lesson 4: every backward rule is checked against the definition of a derivative.
//!
//! The central difference `(f(x + h) - f(x - h)) / 2h` approximates `df/dx` with an
//! error of order h². If a backward rule were wrong, the two would disagree.

use approx::relative_eq;
use micrograd::Value;

const H: f64 = 1e-6;

/// Checks the gradient of `f` with respect to each of its inputs at `point`.
fn check(name: &str, f: impl Fn(&[Value]) -> Value, point: &[f64]) {
    let inputs: Vec<Value> = point.iter().map(|&x| Value::new(x)).collect();
    f(&inputs).backward();
    for (i, input) in inputs.iter().enumerate() {
        let at = |delta: f64| {
            let mut shifted = point.to_vec();
            shifted[i] += delta;
            let values: Vec<Value> = shifted.iter().map(|&x| Value::new(x)).collect();
            f(&values).data()
        };
        let numeric = (at(H) - at(-H)) / (2.0 * H);
        let analytic = input.grad();
        assert!(
            relative_eq!(analytic, numeric, epsilon = 1e-6, max_relative = 1e-5),
            "{name}: d/dx{i} at {point:?}: backward gives {analytic}, finite difference {numeric}"
        );
    }
}

/// Points away from each op's kinks (0 for relu/abs) and poles.
const POINTS: [[f64; 2]; 4] = [[1.3, 0.7], [-0.8, 2.1], [2.5, -1.6], [-1.9, -0.45]];

#[test]
fn arithmetic_operators_match_finite_differences() {
    for p in POINTS {
        check("+", |v| &v[0] + &v[1], &p);
        check("-", |v| &v[0] - &v[1], &p);
        check("*", |v| &v[0] * &v[1], &p);
        check("/", |v| &v[0] / &v[1], &p);
        check("neg", |v| -&v[0], &p);
    }
}

#[test]
fn activations_match_finite_differences() {
    for p in POINTS {
        check("relu", |v| v[0].relu(), &p);
        check("leaky_relu", |v| v[0].leaky_relu(0.05), &p);
        check("tanh", |v| v[0].tanh(), &p);
        check("sigmoid", |v| v[0].sigmoid(), &p);
        check("abs", |v| v[0].abs(), &p);
    }
}

#[test]
fn exp_ln_sqrt_match_finite_differences() {
    for p in POINTS {
        check("exp", |v| v[0].exp(), &p);
        let positive = [p[0].abs(), p[1].abs()];
        check("ln", |v| v[0].ln(), &positive);
        check("sqrt", |v| v[0].sqrt(), &positive);
    }
}

// x**2, x**-0.5 (micrograd's __pow__ with a number), and a Value exponent
#[test]
fn powers_match_finite_differences() {
    for p in POINTS {
        check("powf 3", |v| v[0].powf(3.0), &p);
        check("powf -2", |v| v[0].powf(-2.0), &p);
        let positive = [p[0].abs(), p[1]];
        check("powf -0.5", |v| v[0].powf(-0.5), &positive);
        check("pow", |v| v[0].pow(&v[1]), &positive);
    }
}

// x = Value(0.0); y = x**0; y.backward()  ->  ZeroDivisionError in Python (0 * 0.0**-1)
// x⁰ is 1 on both sides of 0: its derivative is 0 there too (the central difference is
// (1 - 1) / 2h = 0), as powi(0) already gives; n·xⁿ⁻¹ = 0·∞ was NaN. The same for
// a.pow(&b) in a at a = b = 0.
#[test]
fn the_zeroth_power_has_derivative_zero_at_zero() {
    check("powf 0", |v| v[0].powf(0.0), &[0.0]);
    check("powf 0 at -0", |v| v[0].powf(0.0), &[-0.0]);
    let x = Value::new(0.0);
    let y = x.powf(0.0);
    y.try_backward()
        .expect("a flat function has a finite gradient");
    assert_eq!((y.data(), x.grad()), (1.0, 0.0));
    let (a, b) = (Value::new(0.0), Value::new(0.0));
    let y = a.pow(&b);
    y.backward();
    assert_eq!((y.data(), a.grad()), (1.0, 0.0));
    // a tape computes the same
    let x = Value::new(0.0);
    let mut tape = micrograd::tape::Tape::compile(&x.powf(0.0)).unwrap();
    tape.forward().unwrap();
    tape.backward().unwrap();
    assert_eq!(tape.grad_of(&x).unwrap(), 0.0);
}

// Python (the lecture's rule for a Value exponent, which micrograd's package refuses):
// other.grad += out.data * math.log(self.data) * out.grad  ->  ValueError for a < 0
// aᵇ has no derivative in b for a < 0 (it is NaN for b not an integer): d/db is NaN there,
// for a tiny a too, whose aᵇ underflows to 0 (it was 0 there, as at a = 0, silently).
#[test]
fn the_exponents_gradient_is_nan_for_every_negative_base() {
    for a0 in [-2.0, -1e-200] {
        let (a, b) = (Value::new(a0), Value::new(2.0));
        let y = a.pow(&b);
        y.backward();
        assert!(b.grad().is_nan(), "at a = {a0:e}: d/db = {}", b.grad());
        assert_eq!(a.grad(), 2.0 * a0, "at a = {a0:e}");
        assert!(a.pow(&b).try_backward().is_err(), "at a = {a0:e}");
    }
    // at a = ±0 (b > 0) aᵇ is 0 for every b near: d/db is 0
    for a0 in [0.0, -0.0] {
        let (a, b) = (Value::new(a0), Value::new(2.0));
        a.pow(&b).backward();
        assert_eq!(b.grad(), 0.0, "at a = {a0:?}");
    }
}

// √x rises from 0 with an infinite slope: 1/(2√x) is +∞ at 0, and at -0.0 (which
// relu(-0.0), -x or x * 0.0 can give) too. sqrt(-0.0) is -0.0, and 0.5 / -0.0 was -∞,
// the wrong sign.
#[test]
fn the_slope_of_sqrt_at_minus_zero_is_plus_infinity() {
    for x0 in [0.0, -0.0] {
        let x = Value::new(x0);
        let y = x.sqrt();
        y.backward();
        assert_eq!((y.data(), x.grad()), (0.0, f64::INFINITY), "at {x0:?}");
    }
}

// ln x rises from -∞ at 0 with an infinite slope: 1/x is +∞ at 0, and at -0.0 too
// (ln(-0.0) is -∞, as ln(0.0)). 1 / -0.0 was -∞, the wrong sign.
#[test]
fn the_slope_of_ln_at_minus_zero_is_plus_infinity() {
    for x0 in [0.0, -0.0] {
        let x = Value::new(x0);
        let y = x.ln();
        y.backward();
        assert_eq!(
            (y.data(), x.grad()),
            (f64::NEG_INFINITY, f64::INFINITY),
            "at {x0:?}"
        );
    }
}

#[test]
fn sum_matches_finite_differences() {
    check("sum", |v| v.iter().sum(), &[0.5, -1.5, 2.0, 3.25]);
    check(
        "sum of products",
        |v| v.iter().map(|x| x * x).sum(),
        &[0.5, -1.5, 2.0],
    );
}

// One long expression through every op at once (in the spirit of micrograd's
// test_more_ops, with the ops it lacks: tanh, sigmoid, exp, ln, sqrt, abs, leaky_relu)
#[test]
fn a_long_expression_matches_finite_differences() {
    let f = |v: &[Value]| {
        let (a, b) = (&v[0], &v[1]);
        let c = a * b + b.powf(3.0) - a.tanh() * 2.0;
        let d = (c.sigmoid() + a.exp() / (b.abs() + 1.0)).ln();
        (&d * &d).sqrt() + a.leaky_relu(0.1) * b.relu() + a.pow(&Value::new(2.0))
    };
    for p in POINTS {
        check("expression", f, &p);
    }
}

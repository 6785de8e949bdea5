//! Lesson 13: more ops: `sin`, `cos`, `log1p`, `softplus`, `powi`, `clamp`, `max`, `min`.
//!
//! Python micrograd has none of them (its `Value` has `+ - * / **`, `relu`; the lecture
//! adds `tanh` and `exp`). Each is one method with its rule right under it (see
//! `src/ops/piecewise.rs` for `max`), checked here three ways: against the
//! definition of the derivative (a central difference), at its edges (ties, bounds,
//! huge inputs), and on a compiled tape against the graph, bit for bit.

use micrograd::engine::check_gradients;
use micrograd::tape::Tape;
use micrograd::Value;

/// Every new op as a function of two values, with points away from its kinks.
type Op2 = fn(&Value, &Value) -> Value;
const OPS: [(&str, Op2); 10] = [
    ("sin", |a, b| a.sin() * b),
    ("cos", |a, b| a.cos() * b),
    ("log1p", |a, b| a.abs().log1p() * b),
    ("softplus", |a, b| a.softplus() * b),
    ("powi 3", |a, b| a.powi(3) * b),
    ("powi -2", |a, b| a.powi(-2) * b),
    ("clamp", |a, b| a.clamp(-1.0, 1.5) * b),
    ("max", |a, b| a.max(b) * b),
    ("min", |a, b| a.min(b) * b),
    ("atan", |a, b| a.atan() * b),
];

/// Points where no op above sits on a kink (no ties, nothing on a clamp bound, a ≠ 0).
const SMOOTH: [[f64; 2]; 5] = [
    [0.3, 1.7],
    [-2.2, 0.4],
    [1.9, -1.1],
    [-0.6, -2.5],
    [4.0, 3.1],
];

// Python: the lecture's numerical estimate, (f(x + h) - f(x - h)) / 2h, for every leaf
#[test]
fn every_new_op_matches_finite_differences() {
    for (name, op) in OPS {
        for [x, y] in SMOOTH {
            let (a, b) = (Value::new(x).with_label("a"), Value::new(y).with_label("b"));
            let check = check_gradients(&[&a, &b], 1e-6, || op(&a, &b)).unwrap();
            assert!(check.max_error() < 1e-7, "{name} at ({x}, {y}): {check}");
        }
    }
}

// d/dx atan(x) = 1 / (1 + x²): at 0 it is 1, at ±1 one half, and it goes to 0 far out
// (where x² overflows, the slope is 0, the limit)
#[test]
fn atans_slope_is_one_over_one_plus_x_squared() {
    for (x, slope) in [
        (0.0, 1.0),
        (1.0, 0.5),
        (-1.0, 0.5),
        (3.0, 0.1),
        (1e200, 0.0),
    ] {
        let v = Value::new(x);
        let y = v.atan();
        y.backward();
        assert_eq!((y.data(), v.grad()), (f64::atan(x), slope), "at {x}");
    }
}

/// Compiles `f(a, b)` once, then at each point compares the tape's value and gradients
/// with those of a graph built afresh there: they must be equal, bit for bit, or both
/// engines must report the same NaN or infinity.
fn tape_equals_graph(name: &str, points: &[[f64; 2]], f: impl Fn(&Value, &Value) -> Value) {
    let (a, b) = (Value::new(points[0][0]), Value::new(points[0][1]));
    let mut tape = Tape::compile(&f(&a, &b)).unwrap();
    for &[x, y] in points {
        a.set_data(x);
        b.set_data(y);
        let (ga, gb) = (Value::new(x), Value::new(y));
        let graph = f(&ga, &gb);
        let run_tape = |tape: &mut Tape| tape.forward().and_then(|v| tape.backward().map(|_| v));
        match (graph.try_backward(), run_tape(&mut tape)) {
            (Ok(()), Ok(value)) => {
                let tape_says = [value, tape.grad_of(&a).unwrap(), tape.grad_of(&b).unwrap()];
                let graph_says = [graph.data(), ga.grad(), gb.grad()];
                let bits = |v: [f64; 3]| v.map(f64::to_bits);
                assert_eq!(bits(tape_says), bits(graph_says), "{name} at ({x}, {y})");
            }
            (Err(g), Err(t)) => assert_eq!(g.to_string(), t.to_string(), "{name} at ({x}, {y})"),
            (g, t) => panic!("{name} at ({x}, {y}): graph {g:?}, tape {t:?}"),
        }
    }
}

/// Points on the kinks too: ties, clamp bounds, 0.
const EDGES: [[f64; 2]; 6] = [
    [0.0, 1.0],
    [1.5, 1.5],
    [-1.0, 2.0],
    [1.5, -1.0],
    [-3.0, -3.0],
    [700.0, 0.5],
];

#[test]
fn every_new_op_on_a_tape_gives_the_graphs_numbers_bit_for_bit() {
    for (name, op) in OPS {
        let points: Vec<[f64; 2]> = SMOOTH.iter().chain(&EDGES).copied().collect();
        tape_equals_graph(name, &points, op);
    }
}

#[test]
fn softplus_of_large_inputs_is_finite_with_the_right_gradient() {
    for (x, value, grad) in [
        (800.0, 800.0, 1.0),
        (-800.0, 0.0, 0.0),
        (0.0, 2f64.ln(), 0.5),
    ] {
        let v = Value::new(x);
        let y = v.softplus();
        y.try_backward().unwrap();
        assert_eq!((y.data(), v.grad()), (value, grad), "softplus({x})");
    }
}

#[test]
fn max_and_min_give_the_whole_gradient_to_the_first_operand_at_a_tie() {
    let (a, b) = (Value::new(2.0), Value::new(2.0));
    a.max(&b).backward();
    assert_eq!((a.grad(), b.grad()), (1.0, 0.0));
    let (a, b) = (Value::new(2.0), Value::new(2.0));
    b.min(&a).backward();
    assert_eq!((b.grad(), a.grad()), (1.0, 0.0));
    // away from a tie, the larger (smaller) one gets it
    let (a, b) = (Value::new(1.0), Value::new(2.0));
    (a.max(&b) + a.min(&b) * 10.0).backward();
    assert_eq!((a.grad(), b.grad()), (10.0, 1.0));
}

// f64::max(NaN, 1.0) is 1.0: a NaN would vanish without a trace.
#[test]
fn max_and_min_keep_a_nan_so_try_backward_can_find_it() {
    let one = Value::new(1.0);
    for nan in [Value::new(0.0).ln() * 0.0 - 1.0, Value::new(-1.0).sqrt()] {
        for m in [nan.max(&one), one.max(&nan), nan.min(&one), one.min(&nan)] {
            assert!(m.data().is_nan(), "{} lost the NaN", m.op());
        }
    }
}

#[test]
fn clamp_passes_the_gradient_inside_and_on_its_bounds_but_not_outside() {
    let xs = [-2.0, -1.0, 0.5, 1.0, 3.0].map(Value::new);
    let ys: Vec<Value> = xs.iter().map(|x| x.clamp(-1.0, 1.0)).collect();
    ys.iter().sum::<Value>().backward();
    assert_eq!(
        ys.iter().map(Value::data).collect::<Vec<_>>(),
        [-1.0, -1.0, 0.5, 1.0, 1.0]
    );
    assert_eq!(xs.map(|x| x.grad()), [0.0, 1.0, 1.0, 1.0, 0.0]);
}

#[test]
#[should_panic(expected = "clamp(1, 0)")]
fn clamp_with_bounds_the_wrong_way_round_is_a_programming_error() {
    let _ = Value::new(0.5).clamp(1.0, 0.0);
}

// A slope that is not a number would give NaN for every x ≤ 0, first on the tape or
// only once the data reaches the negative side: refused at once, as clamp's NaN bounds
// are (and as Neuron::new refuses Activation::LeakyRelu(f64::NAN)).
#[test]
#[should_panic(expected = "leaky_relu(NaN): the slope must be a finite number")]
fn leaky_relu_with_a_nan_slope_is_a_programming_error() {
    let _ = Value::new(1.0).leaky_relu(f64::NAN);
}

#[test]
fn leaky_relu_with_an_infinite_slope_is_a_programming_error() {
    for slope in [f64::INFINITY, f64::NEG_INFINITY] {
        let refused = std::panic::catch_unwind(|| Value::new(1.0).leaky_relu(slope));
        assert!(refused.is_err(), "leaky_relu({slope}) was accepted");
    }
}

#[test]
fn powi_is_repeated_multiplication_and_its_zeroth_power_has_no_gradient() {
    let x = Value::new(1.1);
    assert_eq!(x.powi(2).data(), 1.1 * 1.1);
    let zero = Value::new(0.0);
    let y = zero.powi(0); // 0^0 = 1, flat: d/dx = 0, not 0 * 0^-1 = NaN
    y.try_backward().unwrap();
    assert_eq!((y.data(), zero.grad()), (1.0, 0.0));
}

#[test]
fn log1p_keeps_the_digits_that_ln_of_one_plus_x_loses() {
    let x = Value::new(1e-20);
    assert_eq!(x.log1p().data(), 1e-20);
    assert_eq!((&x + 1.0).ln().data(), 0.0);
}

#[test]
fn the_new_ops_name_themselves_and_their_constants() {
    let x = Value::new(0.5);
    let names: Vec<&str> = [
        x.sin(),
        x.cos(),
        x.log1p(),
        x.softplus(),
        x.powi(2),
        x.clamp(0.0, 1.0),
        x.max(&x),
        x.min(&x),
    ]
    .iter()
    .map(Value::op)
    .collect();
    assert_eq!(
        names,
        ["sin", "cos", "log1p", "softplus", "powi", "clamp", "max", "min"]
    );
    assert!(x.powi(-2).to_dot().contains("label=\"powi -2\""));
    assert!(x
        .clamp(-1.0, 2.5)
        .to_dot()
        .contains("label=\"clamp -1 2.5\""));
}

/// A small seeded generator (xorshift64*), so that this lesson needs no optional feature.
struct Rng(u64);

impl Rng {
    fn seed(n: u64) -> Rng {
        Rng(n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// A number in [a, b).
    fn uniform(&mut self, a: f64, b: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let bits = self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11;
        a + (b - a) * (bits as f64 / (1u64 << 53) as f64)
    }
}

/// A random expression of `leaves` through every op (built-in and custom), `depth`
/// levels deep, from a seeded generator: the same expression for the same seed.
fn random_expression(rng: &mut Rng, leaves: &[Value], depth: u32) -> Value {
    let pick = |rng: &mut Rng, n: usize| ((rng.uniform(0.0, 1.0) * n as f64) as usize).min(n - 1);
    if depth == 0 {
        return leaves[pick(rng, leaves.len())].clone();
    }
    let a = random_expression(rng, leaves, depth - 1);
    let b = random_expression(rng, leaves, depth - 1);
    match pick(rng, 16) {
        0 => &a + &b,
        1 => &a * &b,
        2 => &a - &b,
        3 => &a / (b.abs() + 1.0),
        4 => a.sin() + b.cos(),
        5 => a.abs().log1p() * &b,
        6 => a.softplus() - b.tanh(),
        7 => a.powi(2) + b.powi(-1),
        8 => a.clamp(-0.5, 0.5) * &b,
        9 => a.max(&b),
        10 => a.min(&b),
        11 => a.sigmoid() * b.relu(),
        12 => Value::custom(
            "wave",
            &[&a, &b],
            |p| (p[0] * p[1]).sin(),
            |p, _, d| {
                let c = (p[0] * p[1]).cos();
                d[0] = p[1] * c;
                d[1] = p[0] * c;
            },
        ),
        13 => a.leaky_relu(0.1) + b.exp().ln(),
        14 => [a.clone(), b.clone(), &a * 0.5].into_iter().sum(),
        _ => (a.powf(2.0) + 1.0).sqrt() * b.clamp(-2.0, 2.0),
    }
}

// Values and gradients bit for bit: the tape adds a leaf's contributions in the order
// the dynamic graph does (see "The same numbers, bit for bit" in docs/tape.md).
#[test]
fn random_expressions_through_every_op_give_the_same_numbers_on_a_tape() {
    let mut rng = Rng::seed(13);
    for round in 0..40 {
        let build = |leaves: &[Value]| random_expression(&mut Rng::seed(round), leaves, 4);
        let leaves: Vec<Value> = (0..3).map(|_| Value::new(rng.uniform(-2.0, 2.0))).collect();
        let mut tape = Tape::compile(&build(&leaves)).unwrap();
        for _ in 0..3 {
            let point: Vec<f64> = (0..3).map(|_| rng.uniform(-2.0, 2.0)).collect();
            for (leaf, &x) in leaves.iter().zip(&point) {
                leaf.set_data(x);
            }
            let graph_leaves: Vec<Value> = point.iter().map(|&x| Value::new(x)).collect();
            let graph = build(&graph_leaves);
            if graph.try_backward().is_err() {
                continue; // a NaN or infinity: compared in tape_equals_graph and lesson 25
            }
            assert_eq!(
                tape.forward().unwrap().to_bits(),
                graph.data().to_bits(),
                "round {round}"
            );
            tape.backward().unwrap();
            for (leaf, g) in leaves.iter().zip(&graph_leaves) {
                // (A leaf the expression happens not to use is not on the tape: 0.)
                let (t, g) = (tape.grad_of(leaf).unwrap_or(0.0), g.grad());
                assert_eq!(t.to_bits(), g.to_bits(), "round {round}: {t} vs {g}");
            }
        }
    }
}

// `-0.0` is a constant like any other: `leaky_relu(-0.0)` keeps its slope's sign, and the
// tape, which reads the slope back from the node, gives the graph's number to the bit.
#[test]
fn a_constant_of_minus_zero_is_kept_to_the_bit() {
    let x = Value::new(-3.0);
    let y = x.leaky_relu(-0.0); // -0.0 * -3.0 = +0.0
    let mut tape = Tape::compile(&y).unwrap();
    assert_eq!(tape.forward().unwrap().to_bits(), y.data().to_bits());
}

//! Lesson 24: a compiled tape runs the same graph many times, with the same numbers as
//! the dynamic engine.
//!
//! Python has no tape; where a test mirrors a micrograd line, the line is above it.

use approx::assert_relative_eq;
use micrograd::tape::Tape;
use micrograd::Value;

/// The tolerance of the tape against the dynamic engine (gradients may be added up in
/// another order).
const REL: f64 = 1e-12;

/// Builds `f(a, b)` once as a tape, then at each point compares the tape's value and
/// gradients with a dynamic graph built afresh at that point.
fn same_as_dynamic(points: &[(f64, f64)], f: impl Fn(&Value, &Value) -> Value) {
    let (a, b) = (Value::new(points[0].0), Value::new(points[0].1));
    let mut tape = Tape::compile(&f(&a, &b)).unwrap();
    for &(x, y) in points {
        a.set_data(x);
        b.set_data(y);
        a.zero_grad();
        b.zero_grad();
        let value = tape.forward().unwrap();
        tape.backward().unwrap();

        let (da, db) = (Value::new(x), Value::new(y));
        let out = f(&da, &db);
        out.backward();
        assert_relative_eq!(value, out.data(), max_relative = REL);
        assert_relative_eq!(tape.grad_of(&a).unwrap(), da.grad(), max_relative = REL);
        assert_relative_eq!(a.grad(), da.grad(), max_relative = REL);
        assert_relative_eq!(b.grad(), db.grad(), max_relative = REL);
    }
}

/// Points anywhere, including 0 (the kink of relu, leaky_relu and abs).
const ANY: &[(f64, f64)] = &[
    (-2.5, 0.7),
    (-0.3, 1.9),
    (0.0, 0.5),
    (0.4, -1.2),
    (3.0, 2.0),
];
/// Points where ln, sqrt and pow are defined.
const POSITIVE: &[(f64, f64)] = &[(0.3, 0.7), (1.0, 2.5), (2.0, -1.5), (7.5, 0.5)];

// out = Value(self.data + other.data, (self, other), '+'), and so on for each op;
// each result is multiplied by b so that out.grad is not 1.
#[test]
fn every_binary_op_matches_the_dynamic_engine() {
    same_as_dynamic(ANY, |a, b| (a + b) * b);
    same_as_dynamic(ANY, |a, b| (a - b) * b);
    same_as_dynamic(ANY, |a, b| (a * b) * b);
    same_as_dynamic(ANY, |a, b| (a / b) * b);
    same_as_dynamic(POSITIVE, |a, b| a.pow(b) * b);
}

// out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU'), and the other
// one-argument ops.
#[test]
fn every_unary_op_matches_the_dynamic_engine() {
    same_as_dynamic(ANY, |a, b| -a * b);
    same_as_dynamic(ANY, |a, b| a.relu() * b);
    same_as_dynamic(ANY, |a, b| a.leaky_relu(0.01) * b);
    same_as_dynamic(ANY, |a, b| a.tanh() * b);
    same_as_dynamic(ANY, |a, b| a.sigmoid() * b);
    same_as_dynamic(&[(-800.0, 1.0), (800.0, 1.0)], |a, b| a.sigmoid() * b);
    same_as_dynamic(ANY, |a, b| a.exp() * b);
    same_as_dynamic(ANY, |a, b| a.powf(3.0) * b);
    same_as_dynamic(POSITIVE, |a, b| a.powf(-0.5) * b);
    same_as_dynamic(POSITIVE, |a, b| a.ln() * b);
    same_as_dynamic(POSITIVE, |a, b| a.sqrt() * b);
    same_as_dynamic(ANY, |a, b| a.abs() * b);
}

// sum([a, b, a, a * b]): an n-ary node whose terms repeat
#[test]
fn a_sum_with_repeated_terms_matches_the_dynamic_engine() {
    same_as_dynamic(ANY, |a, b| {
        [a.clone(), b.clone(), a.clone(), a * b].iter().sum()
    });
}

// x = Value(7.2249061795510094); y = (x - 0.0)**2   (Python: y.data == 52.19926930331436)
#[test]
fn a_square_is_pythons_pow_on_the_graph_and_the_tape() {
    // Python's `**` calls libm's pow, which here is one ulp below x * x
    // (52.19926930331437). The crate's own mse squares with powf(2.0), where the
    // compiler sees the exponent and would write x * x.
    let x = Value::new(7.2249061795510094);
    let target = Value::new(0.0).no_grad();
    let y = micrograd::loss::mse_targets(&[x], &[target]).unwrap();
    assert_eq!(y.data(), 52.19926930331436);
    assert_eq!(
        Tape::compile(&y).unwrap().forward().unwrap(),
        52.19926930331436
    );
}

// c = a * a; d = c + a; e = c * d  (reuse and a diamond)
#[test]
fn shared_nodes_add_up_their_gradients() {
    same_as_dynamic(ANY, |a, _| a * a);
    same_as_dynamic(ANY, |a, b| {
        let c = a * b;
        let d = c.tanh() + &c * a;
        &d * &c + d.relu()
    });
}

// def test_sanity_check(): ... the same graph, run through a tape
#[test]
fn test_sanity_check_through_a_tape() {
    let x = Value::new(0.0);
    let z = 2.0 * &x + 2.0 + &x;
    let q = z.relu() + &z * &x;
    let h = (&z * &z).relu();
    let y = &h + &q + &q * &x;
    let mut tape = Tape::compile(&y).unwrap();
    // x = Value(-4.0)
    x.set_data(-4.0);
    // assert ymg.data == ypt.data.item()  (-20.0, from PyTorch in test_engine.py)
    assert_eq!(tape.forward().unwrap(), -20.0);
    tape.backward().unwrap();
    // assert xmg.grad == xpt.grad.item()  (46.0)
    assert_eq!(x.grad(), 46.0);
}

// def test_more_ops(): ... the same graph, run through a tape
#[test]
fn test_more_ops_through_a_tape() {
    let a = Value::new(1.0);
    let b = Value::new(1.0);
    let mut c = &a + &b;
    let mut d = &a * &b + b.powf(3.0);
    c += &c + 1.0;
    c += 1.0 + &c + (-&a);
    d += &d * 2.0 + (&b + &a).relu();
    d += 3.0 * &d + (&b - &a).relu();
    let e = &c - &d;
    let f = e.powf(2.0);
    let mut g = &f / 2.0;
    g += 10.0 / &f;
    let mut tape = Tape::compile(&g).unwrap();
    // a = Value(-4.0); b = Value(2.0)
    a.set_data(-4.0);
    b.set_data(2.0);
    let value = tape.forward().unwrap();
    tape.backward().unwrap();
    // the PyTorch numbers of test_engine.py (tol = 1e-6 there)
    assert_relative_eq!(value, 24.70408163265306, max_relative = REL);
    assert_relative_eq!(a.grad(), 138.83381924198252, max_relative = REL);
    assert_relative_eq!(b.grad(), 645.5772594752186, max_relative = REL);
}

/// 17 fixed parameters in [-1, 1) for `tiny_mlp` (a small linear congruential
/// generator: any fixed numbers will do).
fn parameters() -> Vec<Value> {
    let mut state: u64 = 7;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..17).map(|_| Value::new(next())).collect()
}

/// The squared error of a 2-4-1 tanh network, written with plain values.
fn tiny_mlp(p: &[Value], x: &[Value; 2], target: &Value) -> Value {
    let hidden = p[..12]
        .chunks(3)
        .map(|w| (&w[0] * &x[0] + &w[1] * &x[1] + &w[2]).tanh());
    let out: Value = hidden.zip(&p[12..16]).map(|(h, w)| h * w).sum();
    (out + &p[16] - target).powf(2.0)
}

// for k in range(steps): ... total_loss.backward(); p.data -= learning_rate * p.grad
#[test]
fn training_through_a_tape_matches_rebuilding_the_graph_each_step() {
    let data = [([0.5, -1.0], 1.0), ([-0.3, 0.8], -1.0), ([1.2, 0.1], 0.5)];
    let (taped, dynamic) = (parameters(), parameters());
    let x = [Value::new(0.0), Value::new(0.0)];
    let target = Value::new(0.0);
    let mut tape = Tape::compile(&tiny_mlp(&taped, &x, &target)).unwrap();

    for _ in 0..20 {
        for (xs, y) in data {
            let loss = tiny_mlp(&dynamic, &xs.map(Value::new), &Value::new(y));
            loss.backward();

            x[0].set_data(xs[0]);
            x[1].set_data(xs[1]);
            target.set_data(y);
            assert_relative_eq!(tape.forward().unwrap(), loss.data(), max_relative = REL);
            tape.backward().unwrap();

            for p in taped.iter().chain(&dynamic) {
                p.set_data(p.data() - 0.1 * p.grad());
                p.zero_grad();
            }
        }
    }
    for (t, d) in taped.iter().zip(&dynamic) {
        assert_relative_eq!(t.data(), d.data(), max_relative = 1e-10);
    }
}

// p.grad accumulates across backward calls until zero_grad, as in micrograd
#[test]
fn backward_adds_into_leaf_grads_and_grad_of_holds_the_last_pass() {
    let x = Value::new(3.0);
    let mut tape = Tape::compile(&(&x * &x)).unwrap();
    tape.backward().unwrap();
    tape.backward().unwrap();
    assert_eq!(x.grad(), 12.0); // 6 + 6
    assert_eq!(tape.grad_of(&x).unwrap(), 6.0);
    x.zero_grad();
    tape.backward().unwrap();
    assert_eq!(x.grad(), 6.0);
}

// grad_of is the last backward's gradient, also after the next forward, or an error
#[test]
fn grad_of_after_the_next_forward_is_the_last_pass_or_an_error() {
    let x = Value::new(3.0);
    let mut tape = Tape::compile(&(&x * &x)).unwrap();
    tape.backward().unwrap(); // from x.grad = 0: the tape keeps this pass
    x.set_data(10.0);
    tape.forward().unwrap();
    assert_eq!(tape.grad_of(&x).unwrap(), 6.0); // 2 * 3, not 2 * 10
    tape.backward().unwrap(); // from x.grad = 6: the pass alone is made when asked
    assert_eq!(tape.grad_of(&x).unwrap(), 20.0);
    x.set_data(1.0);
    tape.forward().unwrap();
    assert_eq!(tape.grad_of(&x).unwrap(), 20.0); // asked before: kept
    tape.backward().unwrap(); // d/dx at 1, not asked for
    x.set_data(2.0);
    tape.forward().unwrap(); // its values are gone: not 4, the pass at 2
    let err = tape.grad_of(&x).unwrap_err();
    assert!(err
        .to_string()
        .contains("call grad_of before the next forward"));
}

// as in the graph, a leaf marked no_grad keeps its grad, also when marked after compiling
#[test]
fn a_leaf_marked_no_grad_after_compiling_gets_nothing_from_backward() {
    let (w, x) = (Value::new(2.0), Value::new(3.0));
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    x.set_grad(5.0);
    let x = x.no_grad();
    tape.backward().unwrap();
    assert_eq!((w.grad(), x.grad()), (3.0, 5.0)); // the graph's: y.backward() on w * x
    assert_eq!(
        (tape.grad_of(&w).unwrap(), tape.grad_of(&x).unwrap()),
        (3.0, 0.0)
    );
}

#[test]
fn a_new_tape_holds_the_values_of_the_graph() {
    let x = Value::new(3.0);
    let y = x.exp() + 1.0;
    let tape = Tape::compile(&y).unwrap();
    assert_eq!(tape.value(), y.data());
    assert_eq!(tape.node_count(), 4); // x, exp, the constant 1, +
    assert_eq!(
        format!("{tape:?}"),
        format!("Tape {{ nodes: 4, leaves: 2, value: {} }}", y.data())
    );
}

#[test]
fn a_chain_of_a_million_nodes_compiles_and_runs_on_a_small_stack() {
    let worker = std::thread::Builder::new().stack_size(256 * 1024);
    let handle = worker
        .spawn(|| {
            let x = Value::new(0.5);
            let mut y = x.clone();
            for _ in 0..1_000_000 {
                y = &y + &x;
            }
            let mut tape = Tape::compile(&y).unwrap();
            drop(y); // the tape does not need the graph
            assert_eq!(tape.node_count(), 1_000_001);
            x.set_data(2.0);
            // y = (n + 1) x, dy/dx = n + 1: exact in f64
            assert_eq!(tape.forward().unwrap(), 2_000_002.0);
            tape.backward().unwrap();
            assert_eq!(x.grad(), 1_000_001.0);
        })
        .unwrap();
    handle.join().unwrap();
}

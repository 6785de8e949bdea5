//! Lesson 11: backpropagation by hand, as in the first half of the Zero-to-Hero lecture.
//!
//! The lecture sets `o.grad = 1.0` and calls `_backward()` node by node before it writes
//! `backward()`. Here that is [`Value::set_grad`] and [`Value::backward_step`], with
//! [`Value::topo`] for the order, and [`check_gradients`] for the lecture's numerical
//! estimate. The lecture's numbers are quoted as it prints them (rounded), so they are
//! compared with a tolerance; the chain rule itself is compared exactly.

use approx::assert_relative_eq;
use micrograd::engine::check_gradients;
use micrograd::{Error, Value};

/// The lecture's first expression: `L = (a*b + c) * f`, with every node labelled.
fn lecture_l() -> [Value; 7] {
    // a = Value(2.0, label='a'); b = Value(-3.0, label='b'); c = Value(10.0, label='c')
    let a = Value::new(2.0).with_label("a");
    let b = Value::new(-3.0).with_label("b");
    let c = Value::new(10.0).with_label("c");
    // e = a*b; e.label = 'e'; d = e + c; d.label = 'd'
    let e = (&a * &b).with_label("e");
    let d = (&e + &c).with_label("d");
    // f = Value(-2.0, label='f'); L = d * f; L.label = 'L'
    let f = Value::new(-2.0).with_label("f");
    let l = (&d * &f).with_label("L");
    [a, b, c, d, e, f, l]
}

/// The lecture's neuron: `o = tanh(x1*w1 + x2*w2 + b)`.
fn lecture_neuron() -> [Value; 6] {
    // x1 = Value(2.0, label='x1'); x2 = Value(0.0, label='x2')
    let x1 = Value::new(2.0).with_label("x1");
    let x2 = Value::new(0.0).with_label("x2");
    // w1 = Value(-3.0, label='w1'); w2 = Value(1.0, label='w2')
    let w1 = Value::new(-3.0).with_label("w1");
    let w2 = Value::new(1.0).with_label("w2");
    // b = Value(6.8813735870195432, label='b')   (the same f64 as 6.881373587019543)
    let b = Value::new(6.881_373_587_019_543).with_label("b");
    // n = x1w1x2w2 + b; o = n.tanh()
    let n = (&x1 * &w1 + &x2 * &w2 + &b).with_label("n");
    let o = n.tanh().with_label("o");
    [x1, x2, w1, w2, n, o]
}

// L.grad = 1.0; f.grad = 4.0; d.grad = -2.0; c.grad = -2.0; e.grad = -2.0
// a.grad = 6.0; b.grad = -4.0   (the lecture's gradients, worked out with the chain rule)
#[test]
fn gradients_set_by_hand_are_the_ones_backward_computes() {
    let [a, b, c, d, e, f, l] = lecture_l();
    let by_hand = [6.0, -4.0, -2.0, -2.0, -2.0, 4.0, 1.0];
    let all = [&a, &b, &c, &d, &e, &f, &l];
    for (v, g) in all.iter().zip(by_hand) {
        v.set_grad(g);
    }
    let set: Vec<f64> = all.iter().map(|v| v.grad()).collect();
    l.zero_grad_graph();
    l.backward();
    let computed: Vec<f64> = all.iter().map(|v| v.grad()).collect();
    assert_eq!(set, computed);
}

// def lol(): h = 0.001; ... L2 = ...; print((L2 - L1)/h)
#[test]
fn the_numerical_estimate_agrees_with_backward_for_every_leaf() {
    let [a, b, c, _, _, f, _] = lecture_l();
    let check = check_gradients(&[&a, &b, &c, &f], 1e-6, || (&a * &b + &c) * &f).unwrap();
    assert!(check.max_error() < 1e-8, "{check}");
    let numerical: Vec<f64> = check.leaves.iter().map(|l| l.numerical).collect();
    for (n, exact) in numerical.iter().zip([6.0, -4.0, -2.0, 4.0]) {
        assert_relative_eq!(*n, exact, max_relative = 1e-8);
    }
}

// A wrong derivative (planted with a custom op: d/dx x² = x instead of 2x) is caught,
// and the report names the leaf.
#[test]
fn the_numerical_check_names_the_leaf_whose_gradient_is_wrong() {
    let x = Value::new(3.0).with_label("x");
    let y = Value::new(1.0).with_label("y");
    let wrong_square =
        |v: &Value| Value::custom("square", &[v], |p| p[0] * p[0], |p, _, d| d[0] = p[0]);
    let check = check_gradients(&[&y, &x], 1e-6, || wrong_square(&x) + &y).unwrap();
    let worst = check.worst();
    assert_eq!((worst.index, worst.label.as_deref()), (1, Some("x")));
    assert_relative_eq!(worst.numerical, 6.0, max_relative = 1e-8);
    assert_eq!(worst.backward, 3.0);
    assert!(
        check.to_string().starts_with("worst leaf: x (#1)"),
        "{check}"
    );
}

// An error that is NaN is the worst there is: here x's central difference overflows
// ((1.7e308 - -1.7e308) / 2 = inf, and |1.7e308 - inf| / inf is NaN). It must not hide
// behind y's error of 0, or the check would say "fine" past it.
#[test]
fn the_numerical_check_reports_a_nan_error_as_the_worst() {
    let y = Value::new(1.0).with_label("y");
    let x = Value::new(0.0).with_label("x");
    let check = check_gradients(&[&y, &x], 1.0, || &x * 1.7e308 + &y).unwrap();
    assert_eq!(check.leaves[0].error, 0.0);
    assert!(check.leaves[1].error.is_nan(), "{:?}", check.leaves[1]);
    assert_eq!(check.worst().label.as_deref(), Some("x"));
    assert!(check.max_error().is_nan(), "{check}");
    let fine = check.max_error() < 1e-8; // the usual test of a check: false past a NaN
    assert!(!fine, "{check}");
}

// A check built by hand with no leaves (the field is public) prints as such instead of
// panicking in Display.
#[test]
fn a_check_with_no_leaves_prints_that_it_checked_none() {
    let check = micrograd::engine::GradientCheck { leaves: Vec::new() };
    assert_eq!(check.to_string(), "no leaves checked");
}

// A right gradient at a large x is no error: the nudge is relative to x there. With a
// fixed h = 1e-6, x = 1e10 moves by 1.9e-6 each way (x ± h rounds to the nearest double)
// and x² has an ulp of 16384, so the estimate was 39% off; at x = 1e12, x ± h is x and
// the estimate was 0.
#[test]
fn the_numerical_check_of_a_right_gradient_at_a_large_x_finds_no_error() {
    for x0 in [1e10, 1e12, -3e15] {
        let x = Value::new(x0).with_label("x");
        let check = check_gradients(&[&x], 1e-6, || &x * &x).unwrap();
        assert_eq!(check.leaves[0].backward, 2.0 * x0);
        assert!(check.max_error() < 1e-8, "x = {x0}: {check}");
        assert_eq!(x.data(), x0, "put back");
    }
}

// An h too small to move x at all is refused, naming the leaf (the estimate would be
// 0 / 0).
#[test]
fn the_numerical_check_refuses_an_h_too_small_to_move_the_leaf() {
    let x = Value::new(0.5).with_label("x");
    let err = check_gradients(&[&x], 1e-300, || &x * &x).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    assert!(err.to_string().contains("(label \"x\")"), "{err}");
    assert!(err.to_string().contains("h = 1e-300"), "{err}");
}

// A leaf marked no_grad() gets no gradient from backward(): comparing its 0 with the
// central difference would report a wrong gradient that is only an untracked leaf.
#[test]
fn the_numerical_check_refuses_a_leaf_that_needs_no_gradient() {
    let x = Value::new(3.0).with_label("x").no_grad();
    let err = check_gradients(&[&x], 1e-6, || &x * &x).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("#0 (label \"x\")") && msg.contains("no_grad"),
        "{msg}"
    );
}

#[test]
fn the_numerical_check_refuses_a_value_that_is_not_a_leaf() {
    let x = Value::new(3.0);
    let y = (&x * 2.0).with_label("y");
    let err = check_gradients(&[&x, &y], 1e-6, || &y * &y).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)));
    assert!(
        err.to_string()
            .contains("#1 (label \"y\") was computed by `*`"),
        "{err}"
    );
    let err = check_gradients(&[&x], 0.0, || &x * &x).unwrap_err();
    assert!(err.to_string().contains("h = 0"), "{err}");
}

// o.grad = 1.0; o._backward(); n._backward(); b._backward(); x1w1x2w2._backward()
// x2w2._backward(); x1w1._backward()
// -> x1.grad = -1.5, w1.grad = 1.0, x2.grad = 0.5, w2.grad = 0.0
#[test]
fn backprop_node_by_node_gives_the_lectures_gradients() {
    let [x1, x2, w1, w2, n, o] = lecture_neuron();
    // The nodes between them: n = (x1w1 + x2w2) + b
    let sum = &n.parents()[0];
    let [x1w1, x2w2] = [&sum.parents()[0], &sum.parents()[1]];
    o.set_grad(1.0);
    for node in [&o, &n, sum, x1w1, x2w2] {
        node.backward_step();
    }
    // o.grad * (1 - o.data**2) = 0.5, the lecture's n.grad
    assert_relative_eq!(n.grad(), 0.5, max_relative = 1e-15);
    assert_eq!(n.grad(), 1.0 - o.data() * o.data());
    // x1.grad = w1.data * x1w1.grad, and so on: exactly the chain rule
    assert_eq!(x1.grad(), -3.0 * n.grad());
    assert_eq!(w1.grad(), 2.0 * n.grad());
    assert_eq!((x2.grad(), w2.grad()), (n.grad(), 0.0));
    assert_relative_eq!(x1.grad(), -1.5, max_relative = 1e-15);
    assert_relative_eq!(w1.grad(), 1.0, max_relative = 1e-15);
    assert_relative_eq!(x2.grad(), 0.5, max_relative = 1e-15);
}

// The same neuron in Python micrograd 0.1.0 with the lecture's tanh method, computed
// with math.tanh (the lecture's formula of exp can differ by an ulp):
// scripts/ci/python_reference.py prints, in scripts/ci/python_reference.out,
// lecture_neuron: o.data, n.grad, x1.grad, w1.grad, x2.grad, w2.grad
#[test]
fn backward_on_the_neuron_gives_python_micrograds_numbers_exactly() {
    let [x1, x2, w1, w2, n, o] = lecture_neuron();
    o.backward();
    assert_eq!(o.data(), 0.7071067811865477);
    assert_eq!(n.grad(), 0.4999999999999998);
    assert_eq!(
        [x1.grad(), w1.grad()],
        [-1.4999999999999993, 0.9999999999999996]
    );
    assert_eq!([x2.grad(), w2.grad()], [0.4999999999999998, 0.0]);
}

// o._backward() alone touches only o's parent, n
#[test]
fn a_backward_step_runs_only_that_nodes_rule_once() {
    let [x1, _, _, _, n, o] = lecture_neuron();
    o.set_grad(1.0);
    o.backward_step();
    let once = n.grad();
    assert_eq!(x1.grad(), 0.0);
    // Twice adds twice (grads accumulate, as in Python).
    o.backward_step();
    assert_eq!(n.grad(), 2.0 * once);
    // A leaf has no rule.
    x1.backward_step();
    assert_eq!(x1.grad(), 0.0);
}

// topo = []; build_topo(o)   (leaves before what is computed from them, o last)
#[test]
fn topo_lists_every_node_once_after_its_parents() {
    let [x1, x2, w1, w2, _, o] = lecture_neuron();
    let topo = o.topo();
    // x1, w1, x1*w1, x2, w2, x2*w2, +, b, n, o
    assert_eq!(topo.len(), 10);
    assert!(Value::ptr_eq(topo.last().unwrap(), &o));
    let at = |v: &Value| topo.iter().position(|t| Value::ptr_eq(t, v)).unwrap();
    for (i, v) in topo.iter().enumerate() {
        assert!(
            v.parents().iter().all(|p| at(p) < i),
            "node {i} before a parent"
        );
    }
    assert!([&x1, &w1, &x2, &w2].iter().all(|leaf| at(leaf) < at(&o)));
}

// o.grad = 1.0; for node in reversed(topo): node._backward()   is   o.backward()
#[test]
fn backward_steps_in_reverse_topological_order_are_backward() {
    let [x1, x2, w1, w2, _, o] = lecture_neuron();
    o.set_grad(1.0);
    for node in o.topo().iter().rev() {
        node.backward_step();
    }
    let by_hand = [&x1, &x2, &w1, &w2].map(Value::grad);
    let [y1, y2, v1, v2, _, p] = lecture_neuron();
    p.backward();
    assert_eq!(by_hand, [&y1, &y2, &v1, &v2].map(Value::grad));
}

// A chain of a million nodes: topo is built without recursion.
#[test]
fn topo_of_a_deep_chain_does_not_recurse() {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let x = Value::new(1.0);
            let mut y = x.clone();
            for _ in 0..1_000_000 {
                y = y.relu();
            }
            let topo = y.topo();
            assert_eq!(topo.len(), 1_000_001);
            assert!(Value::ptr_eq(&topo[0], &x));
        })
        .unwrap()
        .join()
        .expect("topo must not overflow a 256 KiB stack");
}

// A panic in the closure that builds the expression, caught by the caller, leaves the
// leaf as it was, not nudged by h.
#[test]
fn the_numerical_check_puts_the_leaf_back_when_the_expression_panics() {
    let x = Value::new(2.0);
    let builds = std::cell::Cell::new(0);
    let build = || {
        builds.set(builds.get() + 1);
        // (The first build is for backward(); the second sees x + h.)
        assert!(builds.get() < 2, "boom");
        &x * &x
    };
    let check = std::panic::AssertUnwindSafe(|| check_gradients(&[&x], 1e-6, build));
    assert!(std::panic::catch_unwind(check).is_err());
    assert_eq!(x.data(), 2.0);
}

//! Lesson 6: a value used twice gets the sum of both gradients.
//!
//! This is why Python writes `self.grad += ...` and not `self.grad = ...`: the
//! "multivariate chain rule" adds the contributions of every path.

use micrograd::Value;

// a = Value(-3.0); y = a * a  ->  a.grad == 2 * a == -6.0  (scripts/ci/python_reference.py)
#[test]
fn a_times_a_gets_both_contributions() {
    let a = Value::new(-3.0);
    let y = &a * &a;
    y.backward();
    assert_eq!((y.data(), a.grad()), (9.0, -6.0));
}

// b = a + a; c = b + b  ->  dc/da == 4
#[test]
fn doubling_twice_gives_a_gradient_of_four() {
    let a = Value::new(-3.0);
    let b = &a + &a;
    let c = &b + &b;
    c.backward();
    assert_eq!((c.data(), a.grad(), b.grad()), (-12.0, 4.0, 2.0));
}

// a = Value(2.0); d = (a * 3) * (a ** 2)  ->  d = 3a³, dd/da = 9a² = 36
#[test]
fn a_diamond_adds_the_gradients_of_both_branches() {
    let a = Value::new(2.0);
    let left = &a * 3.0;
    let right = a.powf(2.0);
    let d = &left * &right;
    d.backward();
    assert_eq!((d.data(), a.grad()), (24.0, 36.0));
}

// s = sum([a, a, a]); s.backward()  ->  a.grad == 3
#[test]
fn a_value_summed_with_itself_counts_once_per_term() {
    let a = Value::new(1.5);
    let s: Value = [&a, &a, &a].into_iter().sum();
    s.backward();
    assert_eq!((s.data(), a.grad()), (4.5, 3.0));
}

// A node reached by many paths runs its backward rule once, after all its consumers.
#[test]
fn a_shared_subexpression_runs_its_rule_once() {
    let x = Value::new(0.5);
    let shared = x.tanh();
    let y = (&shared * 2.0) + (&shared * 3.0) + shared.exp();
    y.backward();
    let t = 0.5f64.tanh();
    let dy_dshared = 2.0 + 3.0 + t.exp();
    assert!((shared.grad() - dy_dshared).abs() < 1e-15);
    assert!((x.grad() - dy_dshared * (1.0 - t * t)).abs() < 1e-15);
}

// The same graph differentiated twice: y.backward(); every grad in y's graph = 0;
// y.backward()  ->  x.grad == 10 (without the reset the second backward adds: 20)
#[test]
fn zero_grad_graph_resets_a_graph_for_another_backward() {
    let x = Value::new(3.0);
    let y = (&x * 2.0) * 5.0;
    y.backward();
    y.zero_grad_graph();
    y.backward();
    assert_eq!(x.grad(), 10.0);
}

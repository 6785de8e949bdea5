//! Exercise 08: backward() from the topological order (yours/08_backward.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/08_backward.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/08_backward.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::backward;
use micrograd::Value;

// Lecture: o.backward() on the neuron  -> x1.grad = -1.5, w1.grad = 1.0, x2.grad = 0.5, w2.grad = 0.0
#[test]
fn backward_fills_in_the_neurons_gradients() {
    let (x1, x2) = (Value::new(2.0), Value::new(0.0));
    let (w1, w2) = (Value::new(-3.0), Value::new(1.0));
    let b = Value::new(6.881_373_587_019_543);
    let o = (&x1 * &w1 + &x2 * &w2 + &b).tanh();
    backward(&o);
    assert_eq!(
        o.grad(),
        1.0,
        "backward starts by setting the root's grad to 1 (o.grad = 1.0); yours left it at {}",
        o.grad()
    );
    for (name, v, want, why) in [
        ("x1", &x1, -1.5, "w1 · n.grad = −3 · 0.5"),
        ("w1", &w1, 1.0, "x1 · n.grad = 2 · 0.5"),
        ("x2", &x2, 0.5, "w2 · n.grad = 1 · 0.5"),
        ("w2", &w2, 0.0, "x2 · n.grad = 0 · 0.5"),
    ] {
        assert!(
            (v.grad() - want).abs() < 1e-9,
            "after backward(&o), {name}.grad should be {want} (that is {why}); yours is {}: \
             run backward_step() on every node, the root first",
            v.grad()
        );
    }
}

// It gives what the crate's backward() gives, on a graph where a value is used twice.
#[test]
fn backward_agrees_with_the_crates_on_a_reused_value() {
    let grads = |run: fn(&Value)| {
        let (a, b) = (Value::new(-2.0), Value::new(3.0));
        let f = (&a * &b) * (&a + &b);
        run(&f);
        (a.grad(), b.grad())
    };
    let (mine, theirs) = (grads(backward), grads(|f| f.backward()));
    assert_eq!(mine, theirs, "f = (a*b) * (a+b) at a = −2, b = 3: (a.grad, b.grad) should be {theirs:?}; yours are {mine:?}");
}

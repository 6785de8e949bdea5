//! Exercise 03: L = (a*b + c) * f backpropagated by hand (yours/03_backprop_by_hand.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/03_backprop_by_hand.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/03_backprop_by_hand.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::{backprop_by_hand, Expression};
use micrograd::engine::check_gradients;

/// Asserts that `node`'s grad, set by hand, is `want`, and says why it is.
fn expect(name: &str, got: f64, want: f64, why: &str) {
    assert!(
        (got - want).abs() < 1e-12,
        "dL/d{name} should be {want} (that is {why}); your {name}.grad is {got}"
    );
}

// Lecture: L.grad = 1; f.grad = 4.0; d.grad = -2.0; c.grad = e.grad = -2.0;
// a.grad = -2.0 * -3.0 = 6.0; b.grad = -2.0 * 2.0 = -4.0
#[test]
fn every_gradient_follows_from_the_chain_rule() {
    let x = Expression::new();
    backprop_by_hand(&x);
    expect("L", x.l.grad(), 1.0, "where backpropagation starts");
    expect("f", x.f.grad(), 4.0, "d · dL/dL = 4 · 1, as L = d * f");
    expect("d", x.d.grad(), -2.0, "f · dL/dL = −2 · 1");
    expect(
        "c",
        x.c.grad(),
        -2.0,
        "dL/dd · dd/dc = −2 · 1: a sum passes the grad through",
    );
    expect("e", x.e.grad(), -2.0, "dL/dd · dd/de = −2 · 1");
    expect("a", x.a.grad(), 6.0, "dL/de · de/da = e.grad · b = −2 · −3");
    expect("b", x.b.grad(), -4.0, "dL/de · de/db = e.grad · a = −2 · 2");
}

// The lecture's lol(): nudging each leaf by h and measuring L agrees with your grads.
#[test]
fn the_leaves_grads_agree_with_nudging_them() {
    let x = Expression::new();
    backprop_by_hand(&x);
    let by_hand = [x.a.grad(), x.b.grad(), x.c.grad(), x.f.grad()];
    let y = Expression::new();
    let check = check_gradients(&[&y.a, &y.b, &y.c, &y.f], 1e-6, || {
        (&y.a * &y.b + &y.c) * &y.f
    })
    .expect("the lecture's expression is finite");
    for (leaf, mine) in check.leaves.iter().zip(by_hand) {
        let name = leaf.label.as_deref().unwrap_or("?");
        assert!(
            (leaf.numerical - mine).abs() < 1e-6,
            "nudging {name} by h moves L by {:.4} per unit of h, so {name}.grad should be that; \
             yours is {mine}",
            leaf.numerical
        );
    }
}

//! Exercise 09: the `+=` that reused nodes need (yours/09_reused_nodes.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/09_reused_nodes.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/09_reused_nodes.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::{add_rule, mul_rule};
use micrograd::Value;

/// Backpropagates from `root` with your two rules, in reverse topological order.
fn backward_with_your_rules(root: &Value) {
    root.set_grad(1.0);
    for node in root.topo().iter().rev() {
        match node.op() {
            "+" => add_rule(node),
            "*" => mul_rule(node),
            _ => {} // a leaf
        }
    }
}

// Lecture: a = Value(3.0); b = a + a; b.backward(); a.grad   -> 2.0 once fixed (1.0 with the bug)
#[test]
fn a_plus_a_gives_a_grad_of_two() {
    let a = Value::new(3.0);
    let b = &a + &a;
    backward_with_your_rules(&b);
    assert_eq!(
        a.grad(),
        2.0,
        "b = a + a: a.grad should be 2 (1 from each use of a); yours is {}: the second use \
         overwrote the first; add to a grad instead of setting it",
        a.grad()
    );
}

// a * a: d(a²)/da = 2a
#[test]
fn a_times_a_gives_two_a() {
    let a = Value::new(3.0);
    let b = &a * &a;
    backward_with_your_rules(&b);
    assert_eq!(
        a.grad(),
        6.0,
        "b = a * a at a = 3: a.grad should be 6 (that is 2a: 3 from each use); yours is {}",
        a.grad()
    );
}

// Lecture: a = Value(-2.0); b = Value(3.0); d = a * b; e = a + b; f = d * e; f.backward()
//   -> a.grad = -3.0, b.grad = -8.0
#[test]
fn the_lectures_example_of_reused_values() {
    let (a, b) = (Value::new(-2.0), Value::new(3.0));
    let f = (&a * &b) * (&a + &b);
    backward_with_your_rules(&f);
    assert_eq!(
        (a.grad(), b.grad()),
        (-3.0, -8.0),
        "f = (a*b) * (a+b) at a = −2, b = 3: a.grad should be −3 (b·e + d = 3·1 − 6) and b.grad −8 \
         (a·e + d = −2·1 − 6); yours are {} and {}",
        a.grad(),
        b.grad()
    );
}

//! Exercise 07: the topological order, without recursion (yours/07_topological_order.rs).
//!
//! If this test program stops with "has overflowed its stack", your function recursed
//! once per node of the deep chain: use a loop and a `Vec` as the stack.

#[cfg_attr(not(feature = "solutions"), path = "../yours/07_topological_order.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/07_topological_order.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use std::collections::HashMap;

use exercise::topological_order;
use micrograd::Value;

/// Checks that `order` holds each node of `root`'s graph once, each after its parents,
/// `root` last; `what` names the graph in the messages.
fn check_order(root: &Value, order: &[Value], what: &str) {
    let all = root.topo().len();
    let place: HashMap<usize, usize> = order.iter().enumerate().map(|(i, v)| (v.id(), i)).collect();
    assert!(
        place.len() == order.len(),
        "{what}: your order lists a node twice ({} entries, {} different nodes); remember the \
         visited ones",
        order.len(),
        place.len()
    );
    assert!(
        order.len() == all,
        "{what} has {all} nodes; your order has {}",
        order.len()
    );
    for (i, v) in order.iter().enumerate() {
        for p in v.parents() {
            assert!(
                place[&p.id()] < i,
                "{what}: a node `{}` comes at place {i}, before its parent (at place {}): \
                 a node goes in only after all its parents",
                v.op(),
                place[&p.id()]
            );
        }
    }
    assert!(
        order.last().is_some_and(|v| Value::ptr_eq(v, root)),
        "{what}: the root must come last"
    );
}

// Lecture: topo = []; build_topo(L)   -> a, b, e, c, d, f, L (7 nodes)
#[test]
fn the_lectures_expression_in_order() {
    let (a, b, c, f) = (
        Value::new(2.0),
        Value::new(-3.0),
        Value::new(10.0),
        Value::new(-2.0),
    );
    let l = (&a * &b + &c) * &f;
    check_order(&l, &topological_order(&l), "L = (a*b + c) * f");
}

// A value used twice is one node: listed once.
#[test]
fn a_reused_value_is_listed_once() {
    let a = Value::new(3.0);
    let b = &a * &a + &a;
    check_order(&b, &topological_order(&b), "b = a*a + a");
}

// 100,000 nodes deep: Python's recursive build_topo dies at about 1,000.
#[test]
fn a_chain_a_hundred_thousand_deep() {
    let x = Value::new(1.0);
    let mut y = x.clone();
    for _ in 0..100_000 {
        y = &y * 1.0;
    }
    check_order(
        &y,
        &topological_order(&y),
        "a chain of 100,000 multiplications",
    );
}

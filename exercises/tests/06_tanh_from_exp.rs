//! Exercise 06: tanh from exp and division (yours/06_tanh_from_exp.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/06_tanh_from_exp.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/06_tanh_from_exp.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::tanh_from_exp;
use micrograd::engine::check_gradients;
use micrograd::Value;

// e = (2*n).exp(); o = (e - 1) / (e + 1)   -> 0.7071067811865477 at the lecture's n
#[test]
fn it_computes_tanh() {
    for x in [0.881_373_587_019_543_2, -1.0, 0.25] {
        let o = tanh_from_exp(&Value::new(x));
        assert!(
            (o.data() - x.tanh()).abs() < 1e-12,
            "tanh({x}) should be {}; your tanh_from_exp gives {}",
            x.tanh(),
            o.data()
        );
    }
}

// The graph is made of the small ops: an exp somewhere, a division last.
#[test]
fn it_is_built_from_exp_and_division() {
    let o = tanh_from_exp(&Value::new(0.5));
    let ops: Vec<&str> = o.topo().iter().map(Value::op).collect();
    assert!(
        ops.contains(&"exp") && o.op() == "/",
        "build it from .exp() and ends with a division; your graph's ops are {ops:?}"
    );
}

// Lecture: the neuron with tanh broken up gives the same grads: x1.grad = -1.5, w1.grad = 1.0
#[test]
fn backward_through_it_gives_the_lectures_gradients() {
    let (x1, w1) = (Value::new(2.0), Value::new(-3.0));
    let (x2, w2) = (Value::new(0.0), Value::new(1.0));
    let b = Value::new(6.881_373_587_019_543);
    let o = tanh_from_exp(&(&x1 * &w1 + &x2 * &w2 + &b));
    o.backward();
    assert!(
        (x1.grad() + 1.5).abs() < 1e-9 && (w1.grad() - 1.0).abs() < 1e-9,
        "with o = tanh_from_exp(x1*w1 + x2*w2 + b), o.backward() should give x1.grad = −1.5 and \
         w1.grad = 1 as with the one tanh op; you get {} and {}: is n a parent of your result?",
        x1.grad(),
        w1.grad()
    );
    let n = Value::new(-0.7).with_label("n");
    let check = check_gradients(&[&n], 1e-6, || tanh_from_exp(&n)).expect("finite");
    assert!(check.max_error() < 1e-6, "{check}");
}

//! Exercise 05: tanh as your own op, called as a method (yours/05_tanh_op.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/05_tanh_op.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/05_tanh_op.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::MyTanh;
use micrograd::engine::check_gradients;
use micrograd::Value;

// Lecture: n = 0.8813735870195432; o = n.tanh()  -> 0.7071067811865476
#[test]
fn my_tanh_computes_tanh() {
    for x in [0.881_373_587_019_543_2, -2.0, 0.3] {
        let o = Value::new(x).my_tanh();
        assert!(
            (o.data() - x.tanh()).abs() < 1e-12,
            "tanh({x}) should be {}; your my_tanh gives {}",
            x.tanh(),
            o.data()
        );
        assert_eq!(
            o.op(),
            "tanh",
            "name the op \"tanh\" (the first argument of Value::custom)"
        );
    }
}

// Lecture: o.backward(); n.grad  -> 0.5 (that is 1 - o.data**2)
#[test]
fn my_tanh_has_tanhs_derivative() {
    let n = Value::new(0.881_373_587_019_543_2);
    let o = n.my_tanh();
    o.backward();
    let want = 1.0 - 0.881_373_587_019_543_2f64.tanh().powi(2);
    assert!(
        (n.grad() - want).abs() < 1e-9,
        "d tanh(n)/dn at n = 0.8814 should be {want:.4} (that is 1 − tanh(n)²); after o.backward(), \
         n.grad is {}: write it into d[0] in the second closure",
        n.grad()
    );
}

// The gradient check: at several points, backward() agrees with nudging the input.
#[test]
fn my_tanh_passes_the_gradient_check() {
    for x in [-1.5, 0.2, 2.5] {
        let n = Value::new(x).with_label("n");
        let check = check_gradients(&[&n], 1e-6, || n.my_tanh());
        let check = check.expect("tanh is finite everywhere");
        assert!(
            check.max_error() < 1e-6,
            "at n = {x}, nudging n says d my_tanh/dn = {:.6}, your local derivative says {:.6}",
            check.worst().numerical,
            check.worst().backward
        );
    }
}

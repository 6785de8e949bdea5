//! Exercise 10: a neuron built from `Value`s (yours/10_neuron.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/10_neuron.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/10_neuron.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::Neuron;
use micrograd::random::PythonRandom;
use micrograd::Value;

/// The lecture's neuron: w = [−3, 1], b = 6.8813735870195432.
fn lectures_neuron() -> Neuron {
    Neuron {
        w: vec![Value::new(-3.0), Value::new(1.0)],
        b: Value::new(6.881_373_587_019_543),
    }
}

// Lecture: tanh(x1*w1 + x2*w2 + b) at x = [2, 0]   -> 0.7071067811865476
#[test]
fn forward_is_tanh_of_w_dot_x_plus_b() {
    let n = lectures_neuron();
    let x = [Value::new(2.0), Value::new(0.0)];
    let out = n.forward(&x);
    let want = (2.0f64 * -3.0 + 0.0 * 1.0 + 6.881_373_587_019_543).tanh();
    assert!(
        (out.data() - want).abs() < 1e-12,
        "the neuron with w = [−3, 1], b = 6.8814 at x = [2, 0] should give tanh(2·−3 + 0·1 + 6.8814) = \
         {want:.4}; your forward gives {}",
        out.data()
    );
    out.backward();
    assert!(
        (x[0].grad() + 1.5).abs() < 1e-9,
        "backward() through your neuron should give x1.grad = −1.5 (the lecture's); you get {}: \
         build the output from the Values w, x and b, so the graph links them",
        x[0].grad()
    );
}

// Python: n = Neuron(3); len(n.parameters())   -> 4, the weights then the bias
#[test]
fn parameters_are_the_weights_then_the_bias() {
    let n = Neuron::new(3, &mut PythonRandom::seed(1));
    let p = n.parameters();
    assert_eq!(
        p.len(),
        4,
        "a neuron with 3 inputs has 4 parameters (3 weights and the bias); yours lists {}",
        p.len()
    );
    let same =
        p[..3].iter().zip(&n.w).all(|(a, b)| Value::ptr_eq(a, b)) && Value::ptr_eq(&p[3], &n.b);
    assert!(
        same,
        "parameters() should be the neuron's own Values (clones of the handles), weights then bias"
    );
}

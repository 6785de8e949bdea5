//! Exercise 04: the lecture's neuron backpropagated by hand (yours/04_neuron_by_hand.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/04_neuron_by_hand.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/04_neuron_by_hand.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::{backprop_neuron, Neuron};

/// Asserts a grad set by hand; the lecture's numbers are rounded (0.5 is
/// 0.4999999999999998 in floating point), so within 1e-9.
fn expect(name: &str, got: f64, want: f64, why: &str) {
    assert!(
        (got - want).abs() < 1e-9,
        "{name}.grad should be {want} (that is {why}); yours is {got}"
    );
}

// Lecture: o.grad = 1.0; n.grad = 1 - o.data**2 = 0.5; b.grad = x1w1x2w2.grad = 0.5;
// x1w1.grad = x2w2.grad = 0.5; x1.grad = w1.data * x1w1.grad = -1.5;
// w1.grad = x1.data * x1w1.grad = 1.0; x2.grad = 0.5; w2.grad = 0.0
#[test]
fn the_neurons_gradients_are_the_lectures() {
    let v = Neuron::new();
    backprop_neuron(&v);
    expect("o", v.o.grad(), 1.0, "where backpropagation starts");
    expect(
        "n",
        v.n.grad(),
        0.5,
        "(1 − o²) · o.grad = (1 − 0.7071²) · 1: tanh's derivative",
    );
    expect("b", v.b.grad(), 0.5, "n.grad: n = x1w1x2w2 + b is a sum");
    expect("x1w1x2w2", v.x1w1x2w2.grad(), 0.5, "n.grad: n is a sum");
    expect("x1w1", v.x1w1.grad(), 0.5, "x1w1x2w2.grad: a sum again");
    expect("x2w2", v.x2w2.grad(), 0.5, "x1w1x2w2.grad: a sum again");
    expect("x1", v.x1.grad(), -1.5, "w1.data · x1w1.grad = −3 · 0.5");
    expect("w1", v.w1.grad(), 1.0, "x1.data · x1w1.grad = 2 · 0.5");
    expect("x2", v.x2.grad(), 0.5, "w2.data · x2w2.grad = 1 · 0.5");
    expect(
        "w2",
        v.w2.grad(),
        0.0,
        "x2.data · x2w2.grad = 0 · 0.5: x2 is 0, so w2 cannot matter",
    );
}

// backward() computes what you did by hand.
#[test]
fn your_gradients_are_what_backward_computes() {
    let (mine, theirs) = (Neuron::new(), Neuron::new());
    backprop_neuron(&mine);
    theirs.o.backward();
    for (m, t) in [
        (&mine.x1, &theirs.x1),
        (&mine.w1, &theirs.w1),
        (&mine.x2, &theirs.x2),
        (&mine.w2, &theirs.w2),
    ] {
        let name = t.label().unwrap_or_default();
        assert!(
            (m.grad() - t.grad()).abs() < 1e-12,
            "backward() gives {name}.grad = {}; yours is {}",
            t.grad(),
            m.grad()
        );
    }
}

//! Exercise 12: an MLP from layers (yours/12_mlp.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/12_mlp.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/12_mlp.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::Mlp;
use micrograd::nn::{Activation, Module, MLP};
use micrograd::random::PythonRandom;
use micrograd::Value;

// Lecture: n = MLP(3, [4, 4, 1]); len(n.parameters())   -> 41
#[test]
fn the_lectures_mlp_has_41_parameters() {
    let n = Mlp::new(3, &[4, 4, 1], &mut PythonRandom::seed(1337));
    let shape: Vec<(usize, usize)> = n.layers.iter().map(|l| (l.nin(), l.nout())).collect();
    assert_eq!(
        shape,
        [(3, 4), (4, 4), (4, 1)],
        "MLP(3, [4, 4, 1]) has layers of (inputs, neurons) (3, 4), (4, 4), (4, 1); yours are {shape:?}"
    );
    let p = n.parameters().len();
    assert_eq!(
        p, 41,
        "MLP(3, [4, 4, 1]) has 4·(3+1) + 4·(4+1) + 1·(4+1) = 41 parameters; yours lists {p}"
    );
}

// Lecture: n(x) for x = [2.0, 3.0, -1.0]: the same as the crate's all-tanh MLP with the same weights
#[test]
fn forward_feeds_each_layer_the_one_before() {
    let mine = Mlp::new(3, &[4, 4, 1], &mut PythonRandom::seed(1337));
    let tanh = [
        (4, Activation::Tanh),
        (4, Activation::Tanh),
        (1, Activation::Tanh),
    ];
    let theirs = MLP::with_activations(3, &tanh, &mut PythonRandom::seed(1337));
    let x = [2.0, 3.0, -1.0].map(Value::new);
    let out = mine.forward(&x).expect("three inputs");
    let want = theirs.forward(&x).expect("three inputs")[0].data();
    assert_eq!(
        out.len(),
        1,
        "the last layer has one neuron, so one output; yours gave {}",
        out.len()
    );
    assert_eq!(
        out[0].data(),
        want,
        "n([2, 3, −1]) should be {want}; yours is {}",
        out[0].data()
    );
    let same = mine
        .parameters()
        .iter()
        .zip(theirs.parameters())
        .all(|(a, b)| a.data() == b.data());
    assert!(
        same,
        "parameters() should list layer 0's, then layer 1's, then layer 2's"
    );
}

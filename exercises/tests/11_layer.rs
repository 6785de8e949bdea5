//! Exercise 11: a layer of neurons (yours/11_layer.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/11_layer.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/11_layer.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::Layer;
use micrograd::nn::{Activation, Module};
use micrograd::random::PythonRandom;
use micrograd::Value;

// Python: layer = Layer(2, 3)   -> 3 neurons of 2 inputs, tanh
#[test]
fn new_makes_nout_tanh_neurons_of_nin_inputs() {
    let layer = Layer::new(2, 3, &mut PythonRandom::seed(1));
    assert_eq!(
        layer.neurons.len(),
        3,
        "Layer::new(2, 3, ..) should make 3 neurons; yours has {}",
        layer.neurons.len()
    );
    for n in &layer.neurons {
        assert_eq!(
            n.nin(),
            2,
            "each neuron of Layer::new(2, 3, ..) takes 2 inputs; one of yours takes {}",
            n.nin()
        );
        assert_eq!(
            n.activation(),
            Activation::Tanh,
            "the lecture's neurons use tanh: Neuron::new(nin, Activation::Tanh, rng)"
        );
    }
}

// [n(x) for n in self.neurons]
#[test]
fn forward_gives_one_output_per_neuron() {
    let layer = Layer::new(2, 3, &mut PythonRandom::seed(1));
    let x = [Value::new(0.5), Value::new(-1.0)];
    let out = layer
        .forward(&x)
        .expect("two inputs for neurons of two inputs");
    assert_eq!(
        out.len(),
        3,
        "a layer of 3 neurons gives 3 outputs; yours gave {}",
        out.len()
    );
    for (i, (o, n)) in out.iter().zip(&layer.neurons).enumerate() {
        let want = n.forward(&x).expect("two inputs").data();
        assert_eq!(
            o.data(),
            want,
            "output {i} should be neuron {i}'s output on x, {want}; yours is {}",
            o.data()
        );
    }
    assert!(
        layer.forward(&[Value::new(1.0)]).is_err(),
        "one input for neurons of two: forward should pass on the neuron's error"
    );
}

// [p for n in self.neurons for p in n.parameters()]
#[test]
fn parameters_are_every_neurons_in_order() {
    let layer = Layer::new(2, 3, &mut PythonRandom::seed(1));
    let mine = layer.parameters();
    let want: Vec<Value> = layer.neurons.iter().flat_map(Module::parameters).collect();
    assert_eq!(
        mine.len(),
        9,
        "3 neurons of 2 weights and a bias have 9 parameters; yours lists {}",
        mine.len()
    );
    assert!(
        mine.iter().zip(&want).all(|(a, b)| Value::ptr_eq(a, b)),
        "parameters() should list neuron 0's (its weights, then its bias), then neuron 1's, ..."
    );
}

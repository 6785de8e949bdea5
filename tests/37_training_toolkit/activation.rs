//! An activation of your own, written once with `Value::custom`: in a model, on the
//! tape, in a model file.

use micrograd::nn::{Activation, CustomActivation};
use micrograd::prelude::*;
use micrograd::tape::Tape;
use rand::{rngs::StdRng, SeedableRng};

/// √(2/π)
const C: f64 = 0.7978845608028654;

/// GELU's tanh approximation, as PyTorch's `gelu(x, approximate='tanh')` defines it:
/// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))).
fn gelu_number(x: f64) -> f64 {
    0.5 * x * (1.0 + (C * (x + 0.044715 * x * x * x)).tanh())
}

/// GELU as one op of the user's, its derivative by the product and chain rules.
fn gelu(x: &Value) -> Value {
    Value::custom(
        "gelu",
        &[x],
        |p| gelu_number(p[0]),
        |p, _out, d| {
            let x = p[0];
            let t = (C * (x + 0.044715 * x * x * x)).tanh();
            d[0] = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * C * (1.0 + 3.0 * 0.044715 * x * x);
        },
    )
}

fn gelu_activation() -> Activation {
    Activation::Custom(CustomActivation::new("GELU", gelu))
}

/// MLP(3, [4 GELU, 1 Linear]).
fn gelu_model(seed: u64) -> MLP {
    let layers = [(4, gelu_activation()), (1, Activation::Linear)];
    MLP::with_activations(3, &layers, &mut StdRng::seed_from_u64(seed))
}

#[test]
fn a_neuron_applies_your_activation_to_its_sum() {
    let model = gelu_model(1);
    let x = [0.5, -1.5, 2.0];
    let hidden = model.layers()[0].forward_f64(&x).unwrap();
    for (n, h) in model.layers()[0].neurons().iter().zip(&hidden) {
        let w: Vec<f64> = n.weights().iter().map(Value::data).collect();
        let sum = 0.0 + n.bias().data() + w[0] * x[0] + w[1] * x[1] + w[2] * x[2];
        assert_eq!(h.data(), gelu_number(sum));
        assert_eq!(h.op(), "gelu");
    }
    assert_eq!(model.to_string().matches("GELUNeuron(3)").count(), 4);
}

// The one-node neuron takes your activation too: the sum, then your function of it.
#[test]
fn a_one_node_neuron_applies_your_activation_to_its_sum() {
    let (b, w, x) = (
        Value::new(0.25),
        [Value::new(-0.5), Value::new(2.0)],
        [Value::new(1.5), Value::new(-0.75)],
    );
    let out = Value::neuron(&b, &w, &x, gelu_activation()).unwrap();
    let sum = 0.0 + 0.25 + -0.5 * 1.5 + 2.0 * -0.75;
    assert_eq!(out.data(), gelu_number(sum));
    assert_eq!(out.op(), "gelu");
}

#[test]
fn your_activation_passes_a_numerical_gradient_check() {
    for x in [-2.0, -0.3, 0.7, 3.0] {
        let x = Value::new(x);
        let check = micrograd::engine::check_gradients(&[&x], 1e-6, || gelu(&x)).unwrap();
        assert!(check.max_error() < 1e-8, "{check}");
    }
}

#[test]
fn a_model_with_your_activation_compiles_onto_the_tape_with_the_graphs_numbers() {
    let model = gelu_model(2);
    let leaves: Vec<Value> = (0..4).map(|_| Value::new(0.0).no_grad()).collect();
    let build =
        || -> Result<Value, Error> { Ok((&model.forward(&leaves[..3])?[0] - &leaves[3]).powi(2)) };
    let mut tape = Tape::compile(&build().unwrap()).unwrap();
    let inputs = tape.inputs(&leaves).unwrap();
    for sample in [[0.5, -1.5, 2.0, 1.0], [-0.25, 3.0, 0.125, -2.0]] {
        tape.set_inputs(&inputs, &sample).unwrap();
        // Every node's value and gradient, the tape's against the graph built anew.
        tape.check(build).unwrap();
        let graph = (&model.forward_f64(&sample[..3]).unwrap()[0] - sample[3]).powi(2);
        assert_eq!(tape.evaluate().unwrap(), graph.data());
    }
}

#[test]
fn a_model_file_names_your_activation_and_the_loader_needs_it() {
    let path = std::env::temp_dir().join(format!("micrograd-37-gelu-{}", std::process::id()));
    let model = gelu_model(3);
    model.save(&path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\nlayer 4 GELU\n"), "{text}");

    let err = MLP::from_file(&path).unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, Error::Parse { line: 3, .. }), "{message}");
    assert!(message.contains("unknown activation `GELU`"), "{message}");
    assert!(message.contains("from_file_with_activations"), "{message}");

    let gelu = CustomActivation::new("GELU", gelu);
    let loaded = MLP::from_file_with_activations(&path, &[gelu]).unwrap();
    assert_eq!(loaded.to_saved(), model.to_saved());
    // A model that has the activation loads its own file without being told.
    let other = gelu_model(4);
    other.load(&path).unwrap();
    std::fs::remove_file(&path).ok();
    assert_eq!(other.params(), model.params());
}

#[test]
#[should_panic(expected = "not a built-in activation's")]
fn your_activation_cannot_take_a_built_in_name() {
    let _ = CustomActivation::new("Tanh", gelu);
}

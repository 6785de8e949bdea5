//! Lesson 14: `micrograd::nn`: neurons, layers and MLPs as in micrograd's `nn.py`.

use micrograd::nn::{Layer, Neuron};
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use rand::rngs::StdRng;
use rand::SeedableRng;

fn rng() -> StdRng {
    StdRng::seed_from_u64(42)
}

fn data(values: &[Value]) -> Vec<f64> {
    values.iter().map(Value::data).collect()
}

// Python: n = Neuron(3); len(n.parameters()) == 4; n.b.data == 0
#[test]
fn a_neuron_has_one_weight_per_input_in_minus_one_one_and_a_zero_bias() {
    let n = Neuron::new(3, Activation::Relu, &mut rng());
    assert_eq!(n.num_parameters(), 4);
    assert!(n.weights().iter().all(|w| (-1.0..=1.0).contains(&w.data())));
    assert_eq!(n.bias().data(), 0.0);
    // parameters() is the weights, then the bias
    assert!(Value::ptr_eq(&n.parameters()[3], n.bias()));
}

// Python: act = sum((wi*xi for wi,xi in zip(self.w, x)), self.b)  (hand-computed here)
#[test]
fn a_neuron_computes_its_activation_of_bias_plus_weighted_sum() {
    let n = Neuron::new(2, Activation::Linear, &mut rng());
    n.bias().set_data(0.5);
    n.weights()[0].set_data(2.0);
    n.weights()[1].set_data(-3.0);
    let x = [Value::new(1.0), Value::new(1.0)];
    assert_eq!(n.forward(&x).unwrap().data(), 0.5 + 2.0 - 3.0);
    let relu = Neuron::new(2, Activation::Relu, &mut rng());
    relu.weights()[0].set_data(2.0);
    relu.weights()[1].set_data(-3.0);
    assert_eq!(relu.forward(&x).unwrap().data(), 0.0); // relu(-1)
}

// Python: Layer(2, 3)(x) has 3 outputs; MLP(2, [16, 16, 1]) has 16*3 + 16*17 + 17 = 337 parameters
#[test]
fn layer_and_mlp_shapes_and_parameter_counts() {
    let layer = Layer::new(2, 3, Activation::Relu, &mut rng());
    assert_eq!((layer.nin(), layer.nout()), (2, 3));
    assert_eq!(layer.forward_f64(&[1.0, 2.0]).unwrap().len(), 3);
    assert_eq!(layer.num_parameters(), 9);

    let model = MLP::new(2, &[16, 16, 1], &mut rng());
    assert_eq!(model.num_parameters(), 337);
    assert_eq!(model.nouts(), [16, 16, 1]);
    assert_eq!((model.nin(), model.nout()), (2, 1));
    assert_eq!(model.shape(), "MLP(2, [16, 16, 1])");
    // one output is still a Vec (Python would return the bare Value)
    assert_eq!(model.forward_f64(&[0.1, 0.2]).unwrap().len(), 1);
}

// Python: [p for layer in self.layers for p in layer.parameters()] (layer, neuron, w then b)
#[test]
fn mlp_parameters_are_listed_layer_by_layer_neuron_by_neuron() {
    let model = MLP::new(2, &[3, 1], &mut rng());
    let from_parts: Vec<Value> = model
        .layers()
        .iter()
        .flat_map(|l| l.neurons().iter().flat_map(|n| n.parameters()))
        .collect();
    let params = model.parameters();
    assert_eq!(params.len(), from_parts.len());
    assert!(params
        .iter()
        .zip(&from_parts)
        .all(|(a, b)| Value::ptr_eq(a, b)));
}

// Python: model([Value(1.0)]) silently uses only part of the weights (zip); Rust says why
#[test]
fn a_wrong_input_width_is_an_error_not_a_truncation() {
    let model = MLP::new(2, &[4, 1], &mut rng());
    let err = model.forward_f64(&[1.0]).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InputWidth {
                expected: 2,
                got: 1
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("expects 2"), "{err}");
    let neuron = Neuron::new(3, Activation::Relu, &mut rng());
    let x: Vec<Value> = (0..4).map(|_| Value::new(1.0)).collect();
    assert!(matches!(
        neuron.forward(&x),
        Err(Error::InputWidth {
            expected: 3,
            got: 4
        })
    ));
}

// Python: Layer(..., nonlin=i!=len(nouts)-1): ReLU everywhere but the last layer
#[test]
fn mlp_new_uses_relu_in_hidden_layers_and_linear_in_the_last() {
    let model = MLP::new(3, &[4, 4, 2], &mut rng());
    let activations: Vec<Activation> = model
        .layers()
        .iter()
        .map(|l| l.neurons()[0].activation())
        .collect();
    assert_eq!(
        activations,
        [Activation::Relu, Activation::Relu, Activation::Linear]
    );
}

#[test]
fn each_activation_applies_its_function() {
    let x = Value::new(-2.0);
    let cases = [
        (Activation::Relu, 0.0),
        (Activation::LeakyRelu(0.1), -0.2),
        (Activation::Tanh, (-2.0f64).tanh()),
        (Activation::Sigmoid, 1.0 / (1.0 + 2.0f64.exp())),
        (Activation::Linear, -2.0),
    ];
    for (activation, want) in cases {
        let got = activation.apply(&x).data();
        assert!((got - want).abs() < 1e-15, "{activation}: {got} != {want}");
    }
}

#[test]
fn with_activations_sets_each_layers_activation_and_draws_like_new() {
    let layers = [(4, Activation::Relu), (1, Activation::Linear)];
    let a = MLP::with_activations(2, &layers, &mut PythonRandom::seed(1));
    let b = MLP::new(2, &[4, 1], &mut PythonRandom::seed(1));
    assert_eq!(data(&a.parameters()), data(&b.parameters()));
    let tanh = MLP::with_activations(2, &[(3, Activation::Tanh)], &mut rng());
    let out = tanh.forward_f64(&[100.0, -100.0]).unwrap();
    assert!(out.iter().all(|y| y.data().abs() <= 1.0));
}

#[test]
#[should_panic(expected = "LeakyReLU(NaN)")]
fn a_leaky_relu_slope_that_is_not_finite_is_a_programming_error() {
    let layers = [
        (2, Activation::LeakyRelu(f64::NAN)),
        (1, Activation::Linear),
    ];
    MLP::with_activations(2, &layers, &mut rng());
}

// Python: model.zero_grad() sets p.grad = 0 for every parameter
#[test]
fn zero_grad_resets_every_parameter_gradient() {
    let model = MLP::new(2, &[4, 1], &mut rng());
    let y = model.forward_f64(&[1.0, -1.0]).unwrap()[0].clone();
    (&y * &y).backward();
    let last_bias = model.parameters().last().unwrap().clone();
    assert_eq!(last_bias.grad(), 2.0 * y.data()); // d(y²)/db = 2y
    model.zero_grad();
    assert!(model.parameters().iter().all(|p| p.grad() == 0.0));
}

// Python: print(MLP(2, [2, 1])) -> MLP of [Layer of [ReLUNeuron(2), ReLUNeuron(2)], Layer of [LinearNeuron(2)]]
#[test]
fn display_and_debug_match_pythons_repr() {
    let model = MLP::new(2, &[2, 1], &mut rng());
    let python = "MLP of [Layer of [ReLUNeuron(2), ReLUNeuron(2)], Layer of [LinearNeuron(2)]]";
    assert_eq!(model.to_string(), python);
    assert_eq!(format!("{model:?}"), python);
    let leaky = Neuron::new(3, Activation::LeakyRelu(0.01), &mut rng());
    assert_eq!(leaky.to_string(), "LeakyReLU(0.01)Neuron(3)");
}

// Python: MLP(3, []) has no layers and returns its input
#[test]
fn an_mlp_without_layers_returns_its_input() {
    let model = MLP::new(3, &[], &mut rng());
    assert_eq!(model.num_parameters(), 0);
    assert_eq!(
        data(&model.forward_f64(&[1.0, 2.0, 3.0]).unwrap()),
        [1.0, 2.0, 3.0]
    );
}

// random.seed(s); MLP(2, [8, 1]) twice  ->  the same weights (here StdRng, seed 42)
#[test]
fn the_same_seed_builds_the_same_model() {
    let a = MLP::new(2, &[8, 1], &mut rng());
    let b = MLP::new(2, &[8, 1], &mut rng());
    assert_eq!(data(&a.parameters()), data(&b.parameters()));
}

/// The loss of `model` on the four points of micrograd's README-style toy problem.
fn toy_loss(model: &MLP) -> Value {
    let xs = [[2.0, 3.0], [3.0, -1.0], [0.5, 1.0], [1.0, 1.0]];
    let preds: Vec<Value> = xs
        .iter()
        .map(|x| model.forward_f64(x).unwrap().remove(0))
        .collect();
    micrograd::loss::mse(&preds, &[1.0, -1.0, -1.0, 1.0]).unwrap()
}

// Python: best = copy.deepcopy(model)  (whenever the loss improves)
#[test]
fn a_cloned_model_is_a_snapshot_that_later_training_does_not_move() {
    let model = MLP::new(2, &[4, 4, 1], &mut PythonRandom::seed(1337));
    let mut sgd = Sgd::new(model.parameters(), 0.05).unwrap();
    let (mut best, mut best_loss) = (model.clone(), f64::INFINITY);
    for _ in 0..30 {
        let loss = toy_loss(&model);
        if loss.data() < best_loss {
            (best, best_loss) = (model.clone(), loss.data());
        }
        sgd.zero_grad();
        loss.backward();
        sgd.step().unwrap();
    }
    assert_eq!(
        toy_loss(&best).data(),
        best_loss,
        "the snapshot kept its weights"
    );
    assert_ne!(
        toy_loss(&model).data(),
        best_loss,
        "training went on without it"
    );
    let shared = model
        .parameters()
        .iter()
        .zip(best.parameters())
        .any(|(a, b)| Value::ptr_eq(a, &b));
    assert!(!shared, "a clone shares no parameter with its original");
}

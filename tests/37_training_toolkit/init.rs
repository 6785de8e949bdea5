//! Initialisers: micrograd's uniform(-1, 1) by default, Glorot and He on request.

use micrograd::nn::{Activation, Init};
use micrograd::prelude::*;
use micrograd::random::PythonRandom;

/// An MLP(3, [2, 1]) whose hidden layer is ReLU, its weights drawn by `init`.
fn small(init: Init) -> MLP {
    let layers = [(2, Activation::Relu), (1, Activation::Linear)];
    MLP::with_init(3, &layers, init, &mut PythonRandom::seed(42))
}

/// The model's weights (not its biases, which start at 0), in parameter order.
fn weights(model: &MLP) -> Vec<f64> {
    let neurons = model.layers().iter().flat_map(|l| l.neurons());
    neurons
        .flat_map(|n| n.weights().iter().map(Value::data))
        .collect()
}

#[test]
fn the_default_init_is_micrograds_so_pythons_numbers_stay() {
    // random.seed(1337); MLP(2, [16, 16, 1])
    let new = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let layers = [
        (16, Activation::Relu),
        (16, Activation::Relu),
        (1, Activation::Linear),
    ];
    let with = MLP::with_init(2, &layers, Init::default(), &mut PythonRandom::seed(1337));
    assert_eq!(with.params(), new.params());
}

// random.seed(42)
// a = math.sqrt(6 / (3 + 2)); [random.uniform(-a, a) for _ in range(6)]     # layer 1
// a = math.sqrt(6 / (2 + 1)); [random.uniform(-a, a) for _ in range(2)]     # layer 2
#[test]
fn glorot_uniform_draws_pythons_uniform_within_the_glorot_bound() {
    let python = [
        0.30546881054443764,
        -1.0406492957475528,
        -0.492886068426186,
        -0.6064148895643756,
        0.5180824727930589,
        0.3871291806445156,
        1.1092513270676199,
        -1.1683134099702854,
    ];
    assert_eq!(weights(&small(Init::GlorotUniform)), python);
    assert!(
        small(Init::GlorotUniform).layers()[0].neurons()[0]
            .bias()
            .data()
            == 0.0
    );
}

// random.seed(42)
// s = math.sqrt(2 / 3); [random.normalvariate(0, s) for _ in range(6)]      # layer 1
// s = math.sqrt(2 / 2); [random.normalvariate(0, s) for _ in range(2)]      # layer 2
#[test]
fn he_normal_draws_pythons_normalvariate_with_the_he_deviation() {
    let python = [
        0.20030811921597746,
        -0.40567181379308365,
        1.0245284225046316,
        -0.11272475269559233,
        -0.7967539657353868,
        0.46136157051463217,
        -1.1676450138299292,
        1.7380254673355275,
    ];
    assert_eq!(weights(&small(Init::HeNormal)), python);
}

/// The mean and the standard deviation (population) of `xs`.
fn mean_std(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[test]
fn each_initialiser_has_its_documented_spread() {
    // A layer of 200 inputs and 50 neurons: 10,000 weights.
    let (fan_in, fan_out) = (200.0_f64, 50.0_f64);
    let cases = [
        (Init::Uniform, 1.0 / 3.0_f64.sqrt()), // uniform(-a, a) has deviation a/√3
        (
            Init::GlorotUniform,
            (6.0 / (fan_in + fan_out)).sqrt() / 3.0_f64.sqrt(),
        ),
        (Init::GlorotNormal, (2.0 / (fan_in + fan_out)).sqrt()),
        (Init::HeUniform, (6.0 / fan_in).sqrt() / 3.0_f64.sqrt()),
        (Init::HeNormal, (2.0 / fan_in).sqrt()),
    ];
    for (init, std) in cases {
        let layers = [(50, Activation::Relu)];
        let model = MLP::with_init(200, &layers, init, &mut PythonRandom::seed(7));
        let (mean, got) = mean_std(&weights(&model));
        assert!(mean.abs() < 0.05 * std, "{init:?}: mean {mean}");
        assert!(
            (got / std - 1.0).abs() < 0.03,
            "{init:?}: deviation {got}, expected {std}"
        );
    }
}

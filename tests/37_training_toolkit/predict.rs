//! Predicting with a model, on the graph or the tape, and scoring it: scikit-learn's
//! confusion matrix, accuracy, mean squared and mean absolute error.

use micrograd::data::Dataset;
use micrograd::metrics::{predicted_classes, ConfusionMatrix, RegressionMetrics};
use micrograd::nn::Predictor;
use micrograd::prelude::*;
use rand::{rngs::StdRng, SeedableRng};

// sklearn.metrics.confusion_matrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2])
// -> [[2, 0, 0], [0, 0, 1], [1, 0, 2]]   (scikit-learn's documented example)
// accuracy_score(...) -> 4 / 6
#[test]
fn the_confusion_matrix_counts_true_classes_by_row_and_predictions_by_column() {
    let m = ConfusionMatrix::new(&[2, 0, 2, 2, 0, 1], &[0, 0, 2, 2, 0, 2], 3).unwrap();
    assert_eq!(m.counts(), &[vec![2, 0, 0], vec![0, 0, 1], vec![1, 0, 2]]);
    assert_eq!(m.accuracy(), 4.0 / 6.0);
    assert_eq!(m.to_string(), "2 0 0\n0 0 1\n1 0 2\n");
    assert!(ConfusionMatrix::new(&[0, 3], &[0, 0], 3).is_err()); // no class 3
}

#[test]
fn a_confusion_matrix_too_large_to_hold_is_an_error_not_an_abort() {
    // A class outside 0..classes is named before the matrix is made; a count whose
    // square does not fit in memory's addresses is refused.
    let err = ConfusionMatrix::new(&[0], &[0], 1 << 32).unwrap_err();
    assert!(err.to_string().contains("classes = 4294967296"), "{err}");
    let err = ConfusionMatrix::new(&[0, 7], &[0, 0], 5).unwrap_err();
    assert!(err.to_string().contains("sample 1"), "{err}");
}

// sklearn.metrics.mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]) -> 0.375
// sklearn.metrics.mean_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]) -> 0.5
#[test]
fn regression_errors_are_scikit_learns_means() {
    let m = RegressionMetrics::new(&[3.0, -0.5, 2.0, 7.0], &[2.5, 0.0, 2.0, 8.0]).unwrap();
    assert_eq!((m.mse, m.mae), (0.375, 0.5));
    assert!(RegressionMetrics::new(&[1.0], &[1.0, 2.0]).is_err());
}

// sklearn: mean_squared_error([1, nan], [1, 2]) raises "Input contains NaN"
#[test]
fn a_target_or_prediction_that_is_not_finite_is_named_not_averaged() {
    let err = RegressionMetrics::new(&[1.0, f64::NAN], &[1.0, 2.0]).unwrap_err();
    assert!(err.to_string().contains("sample 1 has target NaN"), "{err}");
    let err = RegressionMetrics::new(&[1.0], &[f64::INFINITY]).unwrap_err();
    assert!(err.to_string().contains("prediction inf"), "{err}");
}

// A single score's class is its sign; a NaN label has none, and is refused by name
// (as loss::binary_accuracy refuses it).
#[test]
fn a_nan_label_of_a_one_output_classifier_is_refused() {
    let model = MLP::new(2, &[4, 1], &mut StdRng::seed_from_u64(1337));
    let data = Dataset {
        inputs: vec![vec![0.5, 0.5], vec![1.0, -1.0]],
        labels: vec![f64::NAN, 1.0],
    };
    let err = model.evaluate_classifier(&data).unwrap_err();
    assert!(err.to_string().contains("label NaN of sample 0"), "{err}");
}

// numpy.argmax([0.1, 2.0, 2.0]) -> 1 (the first of equal largest)
#[test]
fn a_prediction_is_the_first_largest_output_or_the_sign_of_one_score() {
    let classes = predicted_classes(&[vec![0.1, 2.0, 2.0], vec![-1.0, -3.0, -2.0]]).unwrap();
    assert_eq!(classes, [1, 0]);
    assert_eq!(
        predicted_classes(&[[0.5], [0.0], [-0.5]]).unwrap(),
        [1, 0, 0]
    );
    assert!(predicted_classes(&[vec![f64::NAN, 1.0]]).is_err());
}

/// Twenty points of three classes in the plane.
fn three_classes() -> Dataset {
    let inputs: Vec<Vec<f64>> = (0..20)
        .map(|i| {
            let t = f64::from(i);
            vec![(0.9 * t).sin(), (1.3 * t).cos()]
        })
        .collect();
    let labels = (0..20).map(|i| f64::from(i % 3)).collect();
    Dataset { inputs, labels }
}

#[test]
fn the_tapes_predictions_are_the_graphs_bit_for_bit_on_any_thread_count() {
    let model = MLP::new(2, &[8, 3], &mut StdRng::seed_from_u64(3));
    let data = three_classes();
    let graph = model.predict_batch(&data.inputs).unwrap();
    for threads in [1, 2] {
        let mut predictor = Predictor::new(&model, threads).unwrap();
        assert_eq!(predictor.predict_batch(&data.inputs).unwrap(), graph);
        assert_eq!(predictor.predict(&data.inputs[4]).unwrap(), graph[4]);
    }
}

// Two outputs of 1e308 are finite, though their sum is not: the tape predicts them as
// the graph does.
#[test]
fn a_predictor_gives_finite_outputs_whose_sum_would_overflow() {
    let model = MLP::new(1, &[2], &mut StdRng::seed_from_u64(1));
    model.set_params(&[1e308, 0.0, 1e308, 0.0]).unwrap(); // w, b of each output
    assert_eq!(model.predict(&[1.0]).unwrap(), [1e308, 1e308]);
    let mut predictor = Predictor::new(&model, 1).unwrap();
    assert_eq!(predictor.predict(&[1.0]).unwrap(), [1e308, 1e308]);
}

#[test]
fn a_predictor_follows_the_model_as_it_trains() {
    let model = MLP::new(2, &[8, 3], &mut StdRng::seed_from_u64(3));
    let mut predictor = Predictor::new(&model, 2).unwrap();
    let before = predictor.predict(&[0.5, 0.5]).unwrap();
    let shifted: Vec<f64> = model.params().iter().map(|p| p + 0.25).collect();
    model.set_params(&shifted).unwrap();
    let after = predictor.predict(&[0.5, 0.5]).unwrap();
    assert_ne!(after, before);
    assert_eq!(after, model.predict(&[0.5, 0.5]).unwrap());
}

#[test]
fn evaluating_a_classifier_gives_its_confusion_matrix_on_the_graph_and_the_tape() {
    let model = MLP::new(2, &[8, 3], &mut StdRng::seed_from_u64(3));
    let data = three_classes();
    let matrix = model.evaluate_classifier(&data).unwrap();
    // The same matrix from the definition: each output row's argmax against its label.
    let actual: Vec<usize> = data.labels.iter().map(|&y| y as usize).collect();
    let outputs = model.predict_batch(&data.inputs).unwrap();
    let predicted = predicted_classes(&outputs).unwrap();
    assert_eq!(
        matrix,
        ConfusionMatrix::new(&actual, &predicted, 3).unwrap()
    );
    let mut predictor = Predictor::new(&model, 2).unwrap();
    assert_eq!(predictor.evaluate_classifier(&data).unwrap(), matrix);

    let mut bad = data.clone();
    bad.labels[5] = 3.0;
    let err = model.evaluate_classifier(&bad).unwrap_err();
    assert!(err.to_string().contains("label 3 of sample 5"), "{err}");
}

#[test]
fn a_single_score_classifies_micrograds_plus_minus_one_labels_by_sign() {
    // micrograd's demo: accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in ...]
    let model = MLP::new(2, &[16, 16, 1], &mut StdRng::seed_from_u64(1));
    let data = micrograd::data::moons100();
    let scores = model.predict_batch(&data.inputs).unwrap();
    let right = (data.labels.iter().zip(&scores))
        .filter(|(&y, s)| (y > 0.0) == (s[0] > 0.0))
        .count();
    let matrix = model.evaluate_classifier(&data).unwrap();
    assert_eq!(matrix.accuracy(), right as f64 / 100.0);
}

#[test]
fn evaluating_a_regression_gives_its_mse_and_mae_on_the_graph_and_the_tape() {
    let model = MLP::new(1, &[4, 1], &mut StdRng::seed_from_u64(8));
    let data = Dataset {
        inputs: (0..10).map(|i| vec![f64::from(i) / 10.0]).collect(),
        labels: (0..10).map(|i| (f64::from(i) / 10.0).sin()).collect(),
    };
    let predicted: Vec<f64> = data
        .inputs
        .iter()
        .map(|x| model.predict(x).unwrap()[0])
        .collect();
    let expected = RegressionMetrics::new(&data.labels, &predicted).unwrap();
    assert_eq!(model.evaluate_regressor(&data).unwrap(), expected);
    let mut predictor = Predictor::new(&model, 2).unwrap();
    assert_eq!(predictor.evaluate_regressor(&data).unwrap(), expected);
    let two_outputs = MLP::new(1, &[2], &mut StdRng::seed_from_u64(8));
    assert!(two_outputs.evaluate_regressor(&data).is_err());
}

// A model whose output does not depend on its input (no layers, a layer of width 0)
// has nothing to compile: the predictor says so, where MLP::predict gives the constant.
#[test]
fn a_predictor_of_a_model_whose_output_is_constant_is_refused_by_name() {
    let mut rng = StdRng::seed_from_u64(1);
    for nouts in [&[][..], &[0, 1]] {
        let model = MLP::new(2, nouts, &mut rng);
        assert!(model.predict(&[0.5, 0.5]).is_ok());
        let err = Predictor::new(&model, 1).err().unwrap().to_string();
        assert!(
            err.contains(&model.shape()) && err.contains("MLP::predict"),
            "{err}"
        );
    }
}

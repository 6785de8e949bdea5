//! Lesson 18: losses turn a model's outputs into one number to minimise.
//!
//! Python: the `loss()` function of micrograd's `demo.ipynb`. Each loss is checked three
//! ways: its value against a hand computation, its gradients against central finite
//! differences, and its errors on bad input.

use approx::assert_relative_eq;
use micrograd::{loss, Error, Value};

fn values(xs: &[f64]) -> Vec<Value> {
    xs.iter().map(|&x| Value::new(x)).collect()
}

/// Asserts that the gradients `backward` gives for `f` at `xs` equal the central finite
/// differences (f(x + h) - f(x - h)) / 2h.
fn assert_gradients_match_finite_differences(xs: &[f64], f: impl Fn(&[Value]) -> Value) {
    let inputs = values(xs);
    f(&inputs).backward();
    let h = 1e-6;
    for (i, input) in inputs.iter().enumerate() {
        let f_at = |delta: f64| {
            let mut moved = xs.to_vec();
            moved[i] += delta;
            f(&values(&moved)).data()
        };
        let numeric = (f_at(h) - f_at(-h)) / (2.0 * h);
        assert_relative_eq!(input.grad(), numeric, epsilon = 1e-7, max_relative = 1e-6);
    }
}

fn invalid_input_message(result: Result<Value, Error>) -> String {
    match result {
        Err(Error::InvalidInput(msg)) => msg,
        other => panic!("expected InvalidInput, got {other:?}"),
    }
}

// ----- mse -----

#[test]
fn mse_is_the_mean_of_squared_errors() {
    // ((1 - 0)² + (4 - 2)² + (-1 - -1)²) / 3 = (1 + 4 + 0) / 3
    let l = loss::mse(&values(&[1.0, 4.0, -1.0]), &[0.0, 2.0, -1.0]).unwrap();
    assert_relative_eq!(l.data(), 5.0 / 3.0, max_relative = 1e-15);
}

#[test]
fn mse_gradients_match_finite_differences() {
    let targets = [0.5, -2.0, 3.0];
    assert_gradients_match_finite_differences(&[1.0, -1.5, 0.25], |p| {
        loss::mse(p, &targets).unwrap()
    });
}

#[test]
fn mse_names_both_lengths_when_they_differ() {
    let msg = invalid_input_message(loss::mse(&values(&[1.0, 2.0, 3.0]), &[1.0, 2.0]));
    assert!(msg.contains("3 predictions but 2 targets"), "{msg}");
}

#[test]
fn mse_of_an_empty_batch_is_an_error() {
    invalid_input_message(loss::mse(&[], &[]));
}

#[test]
fn mse_rejects_a_nan_target_naming_it() {
    let msg = invalid_input_message(loss::mse(&values(&[1.0, 2.0]), &[0.0, f64::NAN]));
    assert!(msg.contains("target 1 is NaN"), "{msg}");
}

// ----- svm_hinge and l2: micrograd's demo loss -----

// Python micrograd 0.1.0, running this script:
//   scores = [Value(0.3), Value(-1.7), Value(0.05), Value(2.2), Value(-0.4)]
//   y = [1, -1, -1, 1, 1]; params = [Value(0.123), Value(-0.987), Value(0.5)]
//   losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
//   data_loss = sum(losses) * (1.0 / len(losses))
//   reg_loss = 1e-4 * sum((p * p for p in params))
//   total = data_loss + reg_loss; total.backward()
//   print(repr(data_loss.data), repr(reg_loss.data), repr(total.data))
//   print([s.grad for s in scores]); print([p.grad for p in params])
// printed:
//   0.63 0.00012392979999999997 0.6301239298
//   [-0.2, 0.0, 0.2, 0.0, -0.2]
//   [2.46e-05, -0.0001974, 0.0001]
#[test]
fn svm_hinge_plus_l2_equals_python_micrograd_bit_for_bit() {
    let scores = values(&[0.3, -1.7, 0.05, 2.2, -0.4]);
    let params = values(&[0.123, -0.987, 0.5]);
    let data_loss = loss::svm_hinge(&scores, &[1.0, -1.0, -1.0, 1.0, 1.0]).unwrap();
    let reg_loss = loss::l2(&params, 1e-4);
    let total = &data_loss + &reg_loss;
    total.backward();
    assert_eq!(data_loss.data(), 0.63);
    assert_eq!(reg_loss.data(), 0.00012392979999999997);
    assert_eq!(total.data(), 0.6301239298);
    let score_grads: Vec<f64> = scores.iter().map(Value::grad).collect();
    assert_eq!(score_grads, [-0.2, 0.0, 0.2, 0.0, -0.2]);
    let param_grads: Vec<f64> = params.iter().map(Value::grad).collect();
    assert_eq!(param_grads, [2.46e-05, -0.0001974, 0.0001]);
}

#[test]
fn svm_hinge_is_the_mean_margin_violation() {
    // max(0, 1 - 1·0.5) = 0.5, max(0, 1 - (-1)·(-3)) = 0, max(0, 1 - (-1)·2) = 3
    let l = loss::svm_hinge(&values(&[0.5, -3.0, 2.0]), &[1.0, -1.0, -1.0]).unwrap();
    assert_relative_eq!(l.data(), 3.5 / 3.0, max_relative = 1e-15);
}

#[test]
fn svm_hinge_gradients_match_finite_differences() {
    // Scores away from the margin 1 - y·s = 0, where the loss has a kink.
    let labels = [1.0, -1.0, -1.0, 1.0];
    assert_gradients_match_finite_differences(&[0.5, -3.0, 2.0, 1.5], |s| {
        loss::svm_hinge(s, &labels).unwrap()
    });
}

#[test]
fn svm_hinge_rejects_labels_other_than_plus_or_minus_one() {
    let msg = invalid_input_message(loss::svm_hinge(&values(&[0.1, 0.2]), &[1.0, 0.0]));
    assert!(msg.contains("label 1 is 0"), "{msg}");
}

#[test]
fn l2_gradient_is_two_alpha_p() {
    // d(α·Σp²)/dp = 2αp
    assert_gradients_match_finite_differences(&[0.3, -2.0], |p| loss::l2(p, 0.01));
}

// ----- binary cross-entropy -----

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

#[test]
fn bce_equals_the_log_loss_of_the_sigmoid() {
    // -(y·ln σ(z) + (1 - y)·ln(1 - σ(z))), averaged: y = 1 for z = 2, y = 0 for z = -1
    let by_hand = (-(sigmoid(2.0).ln()) - (1.0 - sigmoid(-1.0)).ln()) / 2.0;
    let l = loss::binary_cross_entropy_with_logits(&values(&[2.0, -1.0]), &[1.0, 0.0]);
    assert_relative_eq!(l.unwrap().data(), by_hand, max_relative = 1e-14);
}

#[test]
fn bce_gradient_is_sigmoid_minus_label_even_at_zero() {
    // dL/dz = (σ(z) - y)/n; at z = 0 that is 0.5 - y, which relu'(0) = abs'(0) = 0 would miss
    let z = values(&[0.0, 0.0, 3.0]);
    let l = loss::binary_cross_entropy_with_logits(&z, &[1.0, 0.0, 0.0]).unwrap();
    l.backward();
    assert_relative_eq!(z[0].grad(), -0.5 / 3.0, max_relative = 1e-15);
    assert_relative_eq!(z[1].grad(), 0.5 / 3.0, max_relative = 1e-15);
    assert_relative_eq!(z[2].grad(), sigmoid(3.0) / 3.0, max_relative = 1e-14);
}

#[test]
fn bce_gradients_match_finite_differences() {
    let labels = [1.0, 0.0, 1.0, 0.0];
    assert_gradients_match_finite_differences(&[0.0, 0.7, -2.5, 4.0], |z| {
        loss::binary_cross_entropy_with_logits(z, &labels).unwrap()
    });
}

#[test]
fn bce_of_huge_logits_is_finite() {
    // Right with margin 1000: loss ln(1 + e⁻¹⁰⁰⁰) = 0. Wrong: loss 1000, gradient ±1/n.
    let z = values(&[1000.0, -1000.0, 1000.0, -1000.0]);
    let l = loss::binary_cross_entropy_with_logits(&z, &[1.0, 0.0, 0.0, 1.0]).unwrap();
    l.backward();
    assert_eq!(l.data(), (1000.0 + 1000.0) / 4.0);
    let grads: Vec<f64> = z.iter().map(Value::grad).collect();
    assert_eq!(grads, [0.0, 0.0, 0.25, -0.25]);
}

// The graph of the loss must not depend on the logits' values (it is built from
// softplus, not from a branch on z.data()): a tape compiled at z = 2 is right at z = -3.
#[test]
fn bce_on_a_tape_follows_logits_that_change_sign() {
    let z = values(&[2.0, -1.0]);
    let labels = [1.0, 0.0];
    let mut tape = micrograd::tape::Tape::compile(
        &loss::binary_cross_entropy_with_logits(&z, &labels).unwrap(),
    )
    .unwrap();
    for (a, b) in [(-3.0, 0.5), (0.0, 0.0), (40.0, -40.0)] {
        z[0].set_data(a);
        z[1].set_data(b);
        let rebuilt = loss::binary_cross_entropy_with_logits(&values(&[a, b]), &labels).unwrap();
        assert_eq!(tape.forward().unwrap(), rebuilt.data(), "at ({a}, {b})");
    }
}

#[test]
fn bce_rejects_labels_other_than_zero_or_one() {
    let msg = invalid_input_message(loss::binary_cross_entropy_with_logits(
        &values(&[0.1]),
        &[-1.0],
    ));
    assert!(msg.contains("label 0 is -1"), "{msg}");
}

// ----- softmax cross-entropy -----

#[test]
fn softmax_cross_entropy_is_minus_log_softmax_of_the_class() {
    // -ln(e³ / (e¹ + e² + e³))
    let by_hand = -(3f64.exp() / (1f64.exp() + 2f64.exp() + 3f64.exp())).ln();
    let l = loss::softmax_cross_entropy(&values(&[1.0, 2.0, 3.0]), 2).unwrap();
    assert_relative_eq!(l.data(), by_hand, max_relative = 1e-14);
}

#[test]
fn softmax_cross_entropy_gradients_match_finite_differences() {
    assert_gradients_match_finite_differences(&[0.2, -1.0, 2.5, 0.0], |z| {
        loss::softmax_cross_entropy(z, 1).unwrap()
    });
}

#[test]
fn softmax_cross_entropy_of_huge_logits_is_finite() {
    // softmax ≈ (1, 0, 0); the true class 1 is 2000 below the max: loss 2000,
    // gradient softmax - onehot = (1, -1, 0)
    let z = values(&[1000.0, -1000.0, 0.0]);
    let l = loss::softmax_cross_entropy(&z, 1).unwrap();
    l.backward();
    assert_eq!(l.data(), 2000.0);
    let grads: Vec<f64> = z.iter().map(Value::grad).collect();
    assert_eq!(grads, [1.0, -1.0, 0.0]);
}

#[test]
fn softmax_cross_entropy_rejects_a_class_out_of_range() {
    let msg = invalid_input_message(loss::softmax_cross_entropy(&values(&[0.0, 1.0]), 2));
    assert!(
        msg.contains("class 2 is out of range for 2 logits"),
        "{msg}"
    );
    let msg = invalid_input_message(loss::softmax_cross_entropy(&[], 0));
    assert!(msg.contains("no logits"), "{msg}");
}

#[test]
fn softmax_cross_entropy_mean_averages_the_rows() {
    let rows = [values(&[1.0, 2.0, 3.0]), values(&[0.5, -0.5, 0.0])];
    let each: Vec<f64> = [(&rows[0], 0), (&rows[1], 2)]
        .iter()
        .map(|(r, c)| loss::softmax_cross_entropy(r, *c).unwrap().data())
        .collect();
    let l = loss::softmax_cross_entropy_mean(&rows, &[0, 2]).unwrap();
    assert_relative_eq!(l.data(), (each[0] + each[1]) / 2.0, max_relative = 1e-15);
}

#[test]
fn softmax_cross_entropy_mean_names_the_bad_row() {
    let rows = [values(&[1.0, 2.0]), values(&[0.5, -0.5])];
    let msg = invalid_input_message(loss::softmax_cross_entropy_mean(&rows, &[0, 5]));
    assert!(msg.starts_with("row 1: class 5"), "{msg}");
    let msg = invalid_input_message(loss::softmax_cross_entropy_mean(&rows, &[0]));
    assert!(msg.contains("2 predictions but 1 classes"), "{msg}");
}

// ----- accuracy -----

// accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(yb, scores)]
#[test]
fn binary_accuracy_counts_matching_signs_like_micrograd() {
    // right, right, wrong (0.1 > 0 but y < 0), right (a score of 0 counts as negative)
    let s = values(&[0.3, -2.0, 0.1, 0.0]);
    assert_eq!(
        loss::binary_accuracy(&s, &[1.0, -1.0, -1.0, -1.0]).unwrap(),
        0.75
    );
    assert!(loss::binary_accuracy(&s, &[1.0]).is_err());
}

#[test]
fn argmax_picks_the_first_of_the_largest() {
    assert_eq!(loss::argmax(&values(&[0.1, 2.0, -3.0, 2.0])).unwrap(), 1);
    assert_eq!(loss::argmax(&values(&[-1.0])).unwrap(), 0);
}

#[test]
fn argmax_of_nothing_or_of_nan_is_an_error() {
    assert!(matches!(loss::argmax(&[]), Err(Error::InvalidInput(_))));
    let err = loss::argmax(&values(&[0.0, f64::NAN])).unwrap_err();
    assert!(err.to_string().contains("output 1 is NaN"), "{err}");
}

#[test]
fn multiclass_accuracy_compares_argmax_with_the_class() {
    let rows = [
        values(&[0.9, 0.1, 0.0]), // predicts 0
        values(&[0.2, 0.7, 0.1]), // predicts 1
        values(&[0.0, 0.0, 5.0]), // predicts 2
    ];
    let acc = loss::multiclass_accuracy(&rows, &[0, 2, 2]).unwrap();
    assert_eq!(acc, 2.0 / 3.0);
}

// A class no output stands for can never be predicted: the row would count as wrong
// whatever the model says, so the accuracy would be quietly low. It is an error, as it
// is for softmax_cross_entropy_mean.
#[test]
fn multiclass_accuracy_rejects_a_class_out_of_range_naming_the_row() {
    let rows = [values(&[0.9, 0.1]), values(&[0.2, 0.7])];
    let err = loss::multiclass_accuracy(&rows, &[0, 5]).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("row 1: class 5 is out of range for 2 outputs"),
        "{msg}"
    );
}

// Python: (yi > 0) == (scorei.data > 0) counts a NaN score as a negative prediction, so
// a model that diverged to NaN scores "right" on every negative sample. Here a NaN score
// (or label) is an error naming it, as it is for argmax.
#[test]
fn binary_accuracy_of_a_nan_score_or_label_is_an_error_naming_it() {
    let err = loss::binary_accuracy(&values(&[0.5, f64::NAN]), &[1.0, -1.0]).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    assert!(err.to_string().contains("score 1 is NaN"), "{err}");
    let err = loss::binary_accuracy(&values(&[0.5, -1.0]), &[f64::NAN, -1.0]).unwrap_err();
    assert!(err.to_string().contains("label 0 is NaN"), "{err}");
}

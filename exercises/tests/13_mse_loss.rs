//! Exercise 13: the squared-error loss (yours/13_mse_loss.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/13_mse_loss.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/13_mse_loss.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::squared_error;
use micrograd::engine::check_gradients;
use micrograd::Value;

/// The lecture's targets.
const YS: [f64; 4] = [1.0, -1.0, -1.0, 1.0];

// (0.5 − 1)² + (−0.5 + 1)² + (0 + 1)² + (1 − 1)² = 0.25 + 0.25 + 1 + 0 = 1.5
#[test]
fn the_loss_is_the_sum_of_squared_differences() {
    let ypred = [0.5, -0.5, 0.0, 1.0].map(Value::new);
    let loss = squared_error(&ypred, &YS);
    assert_eq!(
        loss.data(),
        1.5,
        "with ypred = [0.5, −0.5, 0, 1] and ys = [1, −1, −1, 1], Σ (yout − ygt)² should be \
         0.25 + 0.25 + 1 + 0 = 1.5; yours is {}",
        loss.data()
    );
}

// d loss / d yout = 2 (yout − ygt): −1, 1, 2, 0
#[test]
fn each_prediction_gets_twice_its_error() {
    let ypred = [0.5, -0.5, 0.0, 1.0].map(Value::new);
    let loss = squared_error(&ypred, &YS);
    loss.backward();
    for (i, (yout, want)) in ypred.iter().zip([-1.0, 1.0, 2.0, 0.0]).enumerate() {
        assert_eq!(
            yout.grad(),
            want,
            "d loss / d ypred[{i}] should be {want} (that is 2·(yout − ygt)); yours is {}: build \
             the loss from the Values in ypred so that backward() reaches them",
            yout.grad()
        );
    }
    let p: Vec<Value> = [0.3, -0.2, 0.9, -1.1].map(Value::new).to_vec();
    let refs: Vec<&Value> = p.iter().collect();
    let check = check_gradients(&refs, 1e-6, || squared_error(&p, &YS)).expect("finite");
    assert!(check.max_error() < 1e-6, "{check}");
}

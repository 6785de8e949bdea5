//! How good is the network? The lecture sums the squared differences between its
//! predictions and the targets: loss = Σ (yout − ygt)². It is 0 only when every
//! prediction hits its target, and backward() from it tells each prediction which way
//! to go.
//!
//! Write it. Python: `sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))`. The same
//! line works in Rust: `ys.iter().zip(ypred)` gives `(&f64, &Value)` pairs, and `&Value -
//! &f64` is defined; `.powf(2.0)` or `.powi(2)` squares; `.sum::<Value>()` adds.

use micrograd::Value;

/// Σ (ypred[i] − ys[i])², as a `Value` that backward() can start from.
pub fn squared_error(ypred: &[Value], ys: &[f64]) -> Value {
    // ✎ YOUR CODE
    Value::new(0.0)
}

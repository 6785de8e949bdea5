//! Solution of exercise 06 (see yours/06_tanh_from_exp.rs for the instructions).

use micrograd::Value;

/// tanh(n), as a graph of `exp`, `-`, `+` and `/`.
pub fn tanh_from_exp(n: &Value) -> Value {
    // e = (2*n).exp(); o = (e - 1) / (e + 1)
    let e = (2.0 * n).exp();
    (&e - 1.0) / (&e + 1.0)
}

//! With two inputs, nudge one at a time: how much does `a + b` move when `a` moves
//! by h? And `a * b`? These four local derivatives are all that backpropagation
//! through `+` and `*` needs; the lecture finds them by nudging, then by reasoning.
//!
//! Write each as a formula in `a` and `b` (no nudging this time).

/// d(a + b)/da: how much `a + b` moves per unit that `a` moves.
pub fn d_sum_da(a: f64, b: f64) -> f64 {
    // ✎ YOUR CODE
    0.0
}

/// d(a + b)/db
pub fn d_sum_db(a: f64, b: f64) -> f64 {
    // ✎ YOUR CODE
    0.0
}

/// d(a * b)/da
pub fn d_product_da(a: f64, b: f64) -> f64 {
    // ✎ YOUR CODE
    0.0
}

/// d(a * b)/db
pub fn d_product_db(a: f64, b: f64) -> f64 {
    // ✎ YOUR CODE
    0.0
}

//! Solution of exercise 02 (see yours/02_local_derivatives.rs for the instructions).

/// d(a + b)/da: how much `a + b` moves per unit that `a` moves.
pub fn d_sum_da(_a: f64, _b: f64) -> f64 {
    1.0
}

/// d(a + b)/db
pub fn d_sum_db(_a: f64, _b: f64) -> f64 {
    1.0
}

/// d(a * b)/da
pub fn d_product_da(_a: f64, b: f64) -> f64 {
    b
}

/// d(a * b)/db
pub fn d_product_db(a: f64, _b: f64) -> f64 {
    a
}

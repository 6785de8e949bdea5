//! Solution of exercise 01 (see yours/01_derivative.rs for the instructions).

/// The lecture's first function: f(x) = 3x² − 4x + 5.
pub fn f(x: f64) -> f64 {
    3.0 * x * x - 4.0 * x + 5.0
}

/// The slope of `f` at `x`: how much `f` moves when `x` moves by `h`, per unit of `h`.
pub fn slope(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x)) / h
}

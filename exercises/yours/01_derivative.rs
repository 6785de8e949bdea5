//! The lecture starts with a plain function, f(x) = 3x² − 4x + 5, and asks how
//! sensitive it is to its input: nudge x by a tiny h, see how much f moves, and divide
//! by h. That ratio is the slope (the derivative) of f at x.
//!
//! Write `slope(f, x, h)`: the slope of any function `f` at `x`, measured with a nudge
//! of `h` (the lecture takes h = 0.001). No calculus, just two calls of `f`.

/// The lecture's first function: f(x) = 3x² − 4x + 5.
pub fn f(x: f64) -> f64 {
    3.0 * x * x - 4.0 * x + 5.0
}

/// The slope of `f` at `x`: how much `f` moves when `x` moves by `h`, per unit of `h`.
pub fn slope(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    // ✎ YOUR CODE: replace the 0.0 below.
    0.0
}

//! Exercise 01: the slope of a function, by nudging its input (yours/01_derivative.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/01_derivative.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/01_derivative.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::{f, slope};

// Lecture: h = 0.001; x = 3.0; (f(x + h) - f(x))/h   -> 14.00300000000243
// The derivative of 3x² − 4x + 5 is 6x − 4: 14 at x = 3. A nudge of h = 0.001 is off by
// about 3h (the curve bends), so anything within 0.01 of the formula is right.
#[test]
fn the_slope_of_f_is_6x_minus_4() {
    for (x, why) in [
        (3.0, "6·3 − 4"),
        (-3.0, "6·(−3) − 4"),
        (2.0 / 3.0, "6·⅔ − 4: the bottom of the parabola"),
    ] {
        let want = 6.0 * x - 4.0;
        let got = slope(f, x, 0.001);
        assert!(
            (got - want).abs() < 0.01,
            "the slope of f(x) = 3x² − 4x + 5 at x = {x:.4} should be about {want} (that is {why}); \
             slope(f, {x:.4}, 0.001) returned {got}"
        );
    }
}

// Any function, not only f: the slope of x³ at x = 2 is 3x² = 12.
#[test]
fn slope_works_for_any_function() {
    let got = slope(|x| x * x * x, 2.0, 0.001);
    assert!(
        (got - 12.0).abs() < 0.02,
        "the slope of x³ at x = 2 should be about 12 (that is 3x²); slope(|x| x * x * x, 2.0, 0.001) \
         returned {got}"
    );
}

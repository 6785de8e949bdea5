//! Exercise 02: the local derivatives of `+` and `*` (yours/02_local_derivatives.rs).

#[cfg_attr(not(feature = "solutions"), path = "../yours/02_local_derivatives.rs")]
#[cfg_attr(feature = "solutions", path = "../solutions/02_local_derivatives.rs")]
#[cfg_attr(
    not(feature = "solutions"),
    allow(unused_variables, unused_imports, unused_mut)
)]
mod exercise;

use exercise::{d_product_da, d_product_db, d_sum_da, d_sum_db};

/// The points checked: the lecture's a = 2, b = 3, and one more, so that a formula
/// must hold, not a number.
const POINTS: [(f64, f64); 2] = [(2.0, 3.0), (-4.0, 0.5)];

// a + b moves exactly as much as a (or b) moves: both derivatives are 1.
#[test]
fn a_sum_passes_a_nudge_through_unchanged() {
    for (a, b) in POINTS {
        let (da, db) = (d_sum_da(a, b), d_sum_db(a, b));
        assert_eq!(da, 1.0, "d(a+b)/da at a={a}, b={b} should be 1 (a sum moves as each term moves); you returned {da}");
        assert_eq!(db, 1.0, "d(a+b)/db at a={a}, b={b} should be 1 (a sum moves as each term moves); you returned {db}");
    }
}

// (a+h)*b - a*b = h*b: nudging a moves the product by b per unit, and the other way round.
#[test]
fn a_product_moves_by_the_other_factor() {
    for (a, b) in POINTS {
        let (da, db) = (d_product_da(a, b), d_product_db(a, b));
        assert_eq!(
            da, b,
            "d(a*b)/da at a={a}, b={b} should be {b} (that is b); you returned {da}"
        );
        assert_eq!(
            db, a,
            "d(a*b)/db at a={a}, b={b} should be {a} (that is a); you returned {db}"
        );
    }
}

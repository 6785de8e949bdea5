//! The lecture's numerical check: every leaf's gradient from `backward()` against a
//! central finite difference.
//!
//! The lecture estimates `dL/da` by nudging `a` by a small `h` and re-evaluating `L`.
//! A `Value` graph does not recompute itself when a leaf's data changes (`set_data`
//! changes only that leaf), so the check takes a closure that builds the expression
//! again from the leaves; it then sees the nudged data, as the lecture's `lol()` does.

use std::fmt;

use super::value::Value;
use crate::error::Error;

/// One leaf's gradient two ways, from [`check_gradients`].
#[derive(Clone, Debug, PartialEq)]
pub struct LeafCheck {
    /// The leaf's position in the slice given to [`check_gradients`].
    pub index: usize,
    /// The leaf's label, if it has one.
    pub label: Option<String>,
    /// The gradient from `backward()`.
    pub backward: f64,
    /// The central difference `(f(x + s) - f(x - s)) / 2s`, with `s = h·max(1, |x|)`
    /// (see [`check_gradients`]).
    pub numerical: f64,
    /// `|backward - numerical| / max(1, |backward|, |numerical|)`: relative for
    /// gradients larger than 1, absolute below (where a relative error would blow up
    /// the rounding noise of a gradient that is 0). NaN where the central difference
    /// overflowed to ±∞ (∞ / ∞): the worst error, for [`GradientCheck::worst`].
    pub error: f64,
}

/// What [`check_gradients`] found: one [`LeafCheck`] per leaf, in the order given.
/// Printing it names the worst leaf.
#[derive(Clone, Debug, PartialEq)]
pub struct GradientCheck {
    /// Every leaf's gradient two ways, in the order given.
    pub leaves: Vec<LeafCheck>,
}

impl GradientCheck {
    /// The leaf with the largest error (the first of equals). An error that is NaN
    /// (a central difference that overflowed, say) is larger than any number: the first
    /// such leaf is the worst.
    ///
    /// # Panics
    ///
    /// If `leaves` is empty (never for a check from [`check_gradients`], which refuses
    /// an empty list; the field is public).
    pub fn worst(&self) -> &LeafCheck {
        let worse = |l: &LeafCheck, than: &LeafCheck| {
            l.error > than.error || (l.error.is_nan() && !than.error.is_nan())
        };
        self.leaves
            .iter()
            .reduce(|worst, l| if worse(l, worst) { l } else { worst })
            .expect("check_gradients refuses an empty list of leaves")
    }

    /// The largest error over all leaves (see [`LeafCheck::error`]); NaN if any error
    /// is NaN, so that `max_error() < tolerance` is false.
    ///
    /// # Panics
    ///
    /// If `leaves` is empty, as [`worst`](Self::worst).
    pub fn max_error(&self) -> f64 {
        self.worst().error
    }
}

impl fmt::Display for GradientCheck {
    /// `worst leaf: a (#0): backward -6, numerical -6.000000000838668, error 8.4e-10`;
    /// `no leaves checked` for a check built by hand with no leaves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.leaves.is_empty() {
            return f.write_str("no leaves checked");
        }
        let w = self.worst();
        write!(
            f,
            "worst leaf: {} (#{}): backward {}, numerical {}, error {:.1e}",
            w.label.as_deref().unwrap_or("(no label)"),
            w.index,
            w.backward,
            w.numerical,
            w.error
        )
    }
}

/// Checks the gradient of an expression with respect to each of `leaves` against the
/// central difference `(f(x + h) - f(x - h)) / 2h`: the lecture's numerical estimate.
///
/// `build` must build the expression afresh from the leaves each time it is called (a
/// closure that captures them). The check zeroes the leaves' grads, builds the
/// expression and runs [`try_backward`](Value::try_backward) on it; then, for each leaf
/// in turn, sets its data to `x + s` and `x - s`, builds the expression twice more and
/// divides the difference by the distance between the two points, and puts the data
/// back (also when `build` panics and the panic is caught). The leaves keep the
/// gradients of this one `backward()`.
///
/// The step `s` is `h` for |x| ≤ 1 and `h·|x|` above: a fixed `h = 1e-6` at x = 1e12
/// would not move x at all (the doubles there are 1.2e-4 apart), and at x = 1e10 it
/// would move it by 1.9e-6 instead of 1e-6 and leave f's rounding far larger than the
/// difference. The distance divided by is `(x + s) - (x - s)` as computed, not `2s`.
///
/// The error of the central difference is of order s² (plus rounding of order
/// ε/s, ε ≈ 1e-16), so `h = 1e-6` usually gives about 1e-9; the lecture's `h = 0.001`
/// gives about 1e-6. Kinks (relu at 0, `max` at a tie) disagree by design.
///
/// # Errors
///
/// [`Error::InvalidInput`] if `leaves` is empty, if one of them is not a leaf (nudging
/// a computed value would not change the rebuilt expression; the message names it) or
/// is marked [`no_grad`](Value::no_grad) (its gradient is never computed), if
/// `h` is not a positive finite number, if `h` is too small to move a leaf at all, or if
/// a nudged expression is not finite (the message names the leaf).
/// [`Error::NonFinite`] from `try_backward`.
///
/// ```
/// use micrograd::{engine::check_gradients, Value};
/// // Python (lecture): L = (a*b + c) * f, then lol() nudges one leaf by h = 0.001
/// let a = Value::new(2.0).with_label("a");
/// let b = Value::new(-3.0).with_label("b");
/// let c = Value::new(10.0).with_label("c");
/// let f = Value::new(-2.0).with_label("f");
/// let check = check_gradients(&[&a, &b, &c, &f], 1e-6, || (&a * &b + &c) * &f)?;
/// assert!(check.max_error() < 1e-8, "{check}");
/// assert_eq!((a.grad(), b.grad(), c.grad(), f.grad()), (6.0, -4.0, -2.0, 4.0));
/// assert_eq!(a.data(), 2.0);                      // put back
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn check_gradients(
    leaves: &[&Value],
    h: f64,
    build: impl Fn() -> Value,
) -> Result<GradientCheck, Error> {
    if leaves.is_empty() {
        return Err(Error::InvalidInput(
            "no leaves to check; pass the values the expression is built from".into(),
        ));
    }
    if !(h > 0.0 && h.is_finite()) {
        return Err(Error::InvalidInput(format!(
            "h = {h}; the step of a finite difference must be a positive number such as 1e-6"
        )));
    }
    if let Some((i, v)) = leaves.iter().enumerate().find(|(_, v)| !v.node().is_leaf()) {
        return Err(Error::InvalidInput(format!(
            "value #{i}{} was computed by `{}`, not made by the user; check the gradients \
             of the leaves (`Value::new`) it was computed from",
            describe(v),
            v.op()
        )));
    }
    if let Some((i, v)) = leaves.iter().enumerate().find(|(_, v)| !v.requires_grad()) {
        return Err(Error::InvalidInput(format!(
            "value #{i}{} was marked no_grad(), so backward() computes no gradient for it \
             and there is nothing to check; leave it out, or check a leaf made without \
             no_grad()",
            describe(v)
        )));
    }
    for leaf in leaves {
        leaf.zero_grad();
    }
    build().try_backward()?;
    let checks = leaves
        .iter()
        .enumerate()
        .map(|(index, leaf)| {
            let x = leaf.data();
            // (Relative above 1, so that the step is never lost in x's rounding; the
            // distance is the one between the doubles x ± s really are.)
            let s = h * x.abs().max(1.0);
            let distance = (x + s) - (x - s);
            if distance.is_nan() || distance <= 0.0 {
                return Err(Error::InvalidInput(format!(
                    "h = {h:e} is too small to move value #{index}{} (x = {x}): x + {s:e} \
                     and x - {s:e} are the same double; take a larger h such as 1e-6",
                    describe(leaf)
                )));
            }
            let at = |t: f64| {
                leaf.set_data(t);
                build().data()
            };
            let put_back = PutBack(leaf, x);
            let (up, down) = (at(x + s), at(x - s));
            drop(put_back);
            if !(up.is_finite() && down.is_finite()) {
                return Err(Error::InvalidInput(format!(
                    "the expression is {up} at x + h and {down} at x - h for value #{index}{} \
                     (x = {x}); check it where it is finite or take a smaller h",
                    describe(leaf)
                )));
            }
            let numerical = (up - down) / distance;
            let backward = leaf.grad();
            let scale = 1f64.max(backward.abs()).max(numerical.abs());
            Ok(LeafCheck {
                index,
                label: leaf.label(),
                backward,
                numerical,
                error: (backward - numerical).abs() / scale,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(GradientCheck { leaves: checks })
}

/// Sets the leaf's data back to the number it held when dropped, also when `build`
/// panics and the caller catches the panic: the leaf is never left nudged.
struct PutBack<'a>(&'a Value, f64);

impl Drop for PutBack<'_> {
    fn drop(&mut self) {
        // (Not `set_data`, which would panic, and so abort an unwinding thread, if the
        // leaf were still borrowed; none is, once `build`'s frames have unwound.)
        if let Ok(mut node) = self.0 .0.try_borrow_mut() {
            node.data = self.1;
            crate::watch::count_data_write();
        }
    }
}

/// ` (label "x")` for a labelled value, nothing otherwise.
fn describe(v: &Value) -> String {
    v.label()
        .map_or_else(String::new, |l| format!(" (label {l:?})"))
}

//! Two steps timed side by side: medians of interleaved runs.
//!
//! Criterion times one benchmark after the other, so on a shared machine whose speed
//! moves from minute to minute (this one's by ±30%) the ratio of two of its medians
//! mixes the two steps with two different moments. Here the steps take turns: each
//! round is a run of steps of the first kind, then a run of the second, and what is
//! reported is the median over the rounds of each one's time per step, and the median
//! of the rounds' ratios (each taken within one round, where both met the same
//! machine).

use std::time::Instant;

/// The medians of [`interleaved`]: µs per step of each kind, and of the rounds' ratios
/// (first / second).
#[derive(Clone, Copy, Debug)]
pub struct Interleaved {
    /// The first kind's median µs per step.
    pub first: f64,
    /// The second kind's median µs per step.
    pub second: f64,
    /// The median of the rounds' ratios `first / second`.
    pub ratio: f64,
}

/// Times `first` and `second` in turn: `rounds` rounds, each `run` calls of `first`
/// then `run` of `second`, of which the last `run - run / 4` of each are timed (so that
/// each timed step follows one of its own kind, with the caches as it leaves them).
///
/// # Panics
///
/// If `rounds` or `run` is 0 (nothing to time).
pub fn interleaved(
    rounds: usize,
    run: usize,
    mut first: impl FnMut(),
    mut second: impl FnMut(),
) -> Interleaved {
    assert!(rounds > 0 && run > 0, "rounds and run must be at least 1");
    let time = |step: &mut dyn FnMut()| {
        for _ in 0..run / 4 {
            step();
        }
        let start = Instant::now();
        for _ in run / 4..run {
            step();
        }
        start.elapsed().as_secs_f64() * 1e6 / (run - run / 4) as f64
    };
    let (mut a, mut b, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let (x, y) = (time(&mut first), time(&mut second));
        a.push(x);
        b.push(y);
        ratios.push(x / y);
    }
    Interleaved {
        first: median(a),
        second: median(b),
        ratio: median(ratios),
    }
}

/// The middle value (the upper one of the middle two for an even count).
fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::{interleaved, median};
    use std::cell::RefCell;

    #[test]
    fn the_two_kinds_take_turns_in_runs() {
        let calls = RefCell::new(String::new());
        interleaved(
            3,
            4,
            || calls.borrow_mut().push('a'),
            || calls.borrow_mut().push('b'),
        );
        assert_eq!(calls.into_inner(), "aaaabbbb".repeat(3));
    }

    #[test]
    fn the_median_is_the_middle_value() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 3.0);
    }
}

//! Learning-rate schedules: the learning rate as a function of the step number.

use std::f64::consts::PI;

use super::{hyper, non_negative, Optimizer};
use crate::Error;

/// A learning-rate schedule: [`lr_at(k)`](Schedule::lr_at) is the learning rate of
/// step k (counting from 0), and [`apply`](Schedule::apply) hands it to any
/// [`Optimizer`]. Build one with a constructor, which checks its parameters:
///
/// | constructor | `lr_at(k)` for `k < n` | for `k ≥ n` |
/// |-------------|------------------------|-------------|
/// | [`constant(lr)`](Schedule::constant) | lr | lr |
/// | [`linear(start, end, n)`](Schedule::linear) | start - (start - end)·k/n | end |
/// | [`step_decay(lr, γ, n)`](Schedule::step_decay) | lr·γ^⌊k/n⌋ (no end) | same |
/// | [`cosine(max, min, n)`](Schedule::cosine) | min + (max - min)·(1 + cos(πk/n))/2 | min |
///
/// Every learning rate a constructor accepts is finite and ≥ 0, as in
/// [`Optimizer::set_learning_rate`]. Linear and cosine rates never leave the range
/// between their two ends and move monotonically from one to the other: a formula that
/// rounds past an end (`0.1 - 0.1·3/3` is −1.39e-17) is clamped to it, and from step n
/// on the rate is the end itself, exactly.
///
/// micrograd's demo uses `lr = 1.0 - 0.9*k/100`, which is `linear(1.0, 0.1, 100)`:
///
/// ```
/// use micrograd::optim::Schedule;
/// let s = Schedule::linear(1.0, 0.1, 100)?;
/// for k in 0..100 {
///     assert_eq!(s.lr_at(k), 1.0 - 0.9 * k as f64 / 100.0);   // bit for bit
/// }
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule(Kind);

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Constant(f64),
    Linear { start: f64, end: f64, steps: usize },
    StepDecay { lr: f64, gamma: f64, every: usize },
    Cosine { max: f64, min: f64, steps: usize },
}

impl Schedule {
    /// The same learning rate at every step.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `lr` is finite and ≥ 0.
    pub fn constant(lr: f64) -> Result<Schedule, Error> {
        Ok(Schedule(Kind::Constant(non_negative("lr", lr)?)))
    }

    /// From `start` at step 0 straight down (or up) to `end` at step `steps`, then
    /// `end`. Computed as `start - (start - end) * k / steps`, the order of micrograd's
    /// `1.0 - 0.9 * k / 100`, so `linear(1.0, 0.1, 100)` gives Python's numbers exactly.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `start` and `end` are finite and ≥ 0, and
    /// `steps` ≥ 1.
    pub fn linear(start: f64, end: f64, steps: usize) -> Result<Schedule, Error> {
        Ok(Schedule(Kind::Linear {
            start: non_negative("start", start)?,
            end: non_negative("end", end)?,
            steps: at_least_one("steps", steps)?,
        }))
    }

    /// `lr` multiplied by `gamma` every `every` steps: `lr · gamma^⌊k / every⌋`
    /// (PyTorch's `StepLR`).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `lr` is finite and ≥ 0, `0 < gamma <= 1`, and
    /// `every` ≥ 1.
    pub fn step_decay(lr: f64, gamma: f64, every: usize) -> Result<Schedule, Error> {
        let gamma_ok = gamma > 0.0 && gamma <= 1.0;
        Ok(Schedule(Kind::StepDecay {
            lr: non_negative("lr", lr)?,
            gamma: hyper("gamma", gamma, "in (0, 1]", gamma_ok)?,
            every: at_least_one("every", every)?,
        }))
    }

    /// Cosine annealing from `max` at step 0 to `min` at step `steps`, then `min`
    /// (PyTorch's `CosineAnnealingLR` without restarts).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `max` is finite and ≥ 0, `0 <= min <= max`, and
    /// `steps` ≥ 1.
    pub fn cosine(max: f64, min: f64, steps: usize) -> Result<Schedule, Error> {
        let max = non_negative("max", max)?;
        let min_ok = (0.0..=max).contains(&min);
        Ok(Schedule(Kind::Cosine {
            max,
            min: hyper("min", min, "in [0, max]", min_ok)?,
            steps: at_least_one("steps", steps)?,
        }))
    }

    /// The learning rate of step `step` (the first step is 0).
    ///
    /// ```
    /// use micrograd::optim::Schedule;
    /// let s = Schedule::step_decay(0.1, 0.5, 10)?;
    /// assert_eq!((s.lr_at(9), s.lr_at(10), s.lr_at(25)), (0.1, 0.05, 0.025));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn lr_at(&self, step: usize) -> f64 {
        match self.0 {
            Kind::Constant(lr) => lr,
            Kind::Linear { end, steps, .. }
            | Kind::Cosine {
                min: end, steps, ..
            } if step >= steps => end,
            Kind::Linear { start, end, steps } => {
                // Python: lr = 1.0 - 0.9 * k / 100
                let lr = start - (start - end) * step as f64 / steps as f64;
                lr.clamp(start.min(end), start.max(end))
            }
            Kind::StepDecay { lr, gamma, every } => lr * gamma.powf((step / every) as f64),
            Kind::Cosine { max, min, steps } => {
                let progress = step as f64 / steps as f64;
                let lr = min + (max - min) * (1.0 + (PI * progress).cos()) / 2.0;
                lr.clamp(min, max)
            }
        }
    }

    /// Sets `optimizer`'s learning rate to [`lr_at(step)`](Schedule::lr_at).
    ///
    /// # Errors
    ///
    /// None from a schedule built by its constructors (every rate they give is finite
    /// and ≥ 0); the `Result` is [`Optimizer::set_learning_rate`]'s.
    pub fn apply<O: Optimizer + ?Sized>(
        &self,
        optimizer: &mut O,
        step: usize,
    ) -> Result<(), Error> {
        optimizer.set_learning_rate(self.lr_at(step))
    }
}

/// A count ≥ 1.
fn at_least_one(name: &'static str, n: usize) -> Result<usize, Error> {
    hyper(name, n as f64, "an integer >= 1", n >= 1).map(|_| n)
}

//! Optimisers: the update loop of micrograd's demo (`p.data -= lr * p.grad`) and the
//! rules that improve on it.
//!
//! | file | what it holds |
//! |------|---------------|
//! | `mod.rs` | the [`Optimizer`] trait, [`check_loss`], the shared checked update |
//! | `sgd.rs` | [`Sgd`]: plain SGD (micrograd's), momentum, weight decay |
//! | `adam.rs` | [`Adam`] and [`AdamW`] (decoupled weight decay), sharing one rule |
//! | `schedule.rs` | [`Schedule`]: learning rate as a function of the step |
//!
//! ## Where non-finite numbers are caught
//!
//! Training never continues on NaN or infinity, and never half-applies an update:
//! - the **loss**: call [`check_loss`] (or [`Value::try_backward`], which also names the
//!   op) before `backward`; it returns [`Error::NonFiniteLoss`];
//! - the **gradients and the update**: [`Optimizer::step`] first computes every new
//!   parameter and state value, and writes them only if all gradients, new values and
//!   new state are finite. Otherwise it returns [`Error::NonFiniteUpdate`] and the
//!   parameters and optimiser state are exactly as before the call.
//!
//! micrograd's training loop, with an optimiser:
//!
//! ```
//! use micrograd::prelude::*;
//! use micrograd::optim::{check_loss, Schedule};
//! let w = Value::new(3.0);
//! let mut opt = Sgd::new(vec![w.clone()], 1.0)?;
//! let schedule = Schedule::linear(1.0, 0.1, 100)?;   // lr = 1.0 - 0.9*k/100
//! for k in 0..100 {
//!     let loss = &w * &w;                              // minimum at w = 0
//!     check_loss(k, loss.data())?;
//!     opt.zero_grad();                                 // model.zero_grad()
//!     loss.backward();
//!     schedule.apply(&mut opt, k)?;
//!     opt.step()?;                                     // p.data -= lr * p.grad
//! }
//! assert!(w.data().abs() < 1e-6);
//! # Ok::<(), micrograd::Error>(())
//! ```

mod adam;
mod schedule;
mod sgd;

pub use adam::{Adam, AdamW};
pub use schedule::Schedule;
pub use sgd::Sgd;

use crate::{Error, Value};

/// An optimiser: it owns handles to the parameters and moves them against their
/// gradients, so any optimiser can be driven by the same training loop and [`Schedule`].
pub trait Optimizer {
    /// The parameters this optimiser updates, in the order they were given.
    fn params(&self) -> &[Value];

    /// Updates every parameter from its current [`grad`](Value::grad) by this
    /// optimiser's rule (see the implementing type), and advances its step count.
    ///
    /// # Errors
    ///
    /// [`Error::NonFiniteUpdate`] if a gradient is NaN or infinite, or the update would
    /// make a parameter or the optimiser state NaN or infinite. Nothing is changed then.
    fn step(&mut self) -> Result<(), Error>;

    /// Sets every parameter's gradient to 0: micrograd's `model.zero_grad()`. Call it
    /// before each `backward`, since gradients accumulate.
    fn zero_grad(&self) {
        for p in self.params() {
            p.zero_grad();
        }
    }

    /// The learning rate the next [`step`](Optimizer::step) will use.
    fn learning_rate(&self) -> f64;

    /// Changes the learning rate, e.g. from a [`Schedule`].
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `lr` is finite and ≥ 0. (0 is allowed here,
    /// unlike in the constructors, because a schedule may anneal to 0.)
    fn set_learning_rate(&mut self, lr: f64) -> Result<(), Error>;
}

/// `Ok` if the loss of training step `step` is finite; [`Error::NonFiniteLoss`]
/// otherwise. Call it before `backward`, so a diverged run stops before it spreads NaN
/// into the parameters.
///
/// ```
/// use micrograd::optim::check_loss;
/// assert!(check_loss(0, 0.5).is_ok());
/// let err = check_loss(7, f64::NAN).unwrap_err();
/// assert!(err.to_string().contains("step 7"), "{err}");
/// ```
pub fn check_loss(step: usize, loss: f64) -> Result<(), Error> {
    if loss.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFiniteLoss { step, value: loss })
    }
}

/// Applies `rule(p, g, state) -> (new p, new state)` to every parameter, all or nothing:
/// every new value is computed and checked first, then all are written.
fn update<const K: usize>(
    params: &[Value],
    state: &mut [[f64; K]],
    rule: impl Fn(f64, f64, [f64; K]) -> (f64, [f64; K]),
) -> Result<(), Error> {
    let refuse = |what, index: usize, value| Error::NonFiniteUpdate {
        what,
        index,
        label: params[index].label(),
        value,
    };
    let mut next = Vec::with_capacity(params.len());
    for (i, (p, s)) in params.iter().zip(state.iter()).enumerate() {
        let g = p.grad();
        if !g.is_finite() {
            return Err(refuse("gradient", i, g));
        }
        let (new_p, new_s) = rule(p.data(), g, *s);
        if !new_p.is_finite() {
            return Err(refuse("new value", i, new_p));
        }
        if let Some(&bad) = new_s.iter().find(|x| !x.is_finite()) {
            return Err(refuse("optimizer state", i, bad));
        }
        next.push((new_p, new_s));
    }
    for ((p, s), (new_p, new_s)) in params.iter().zip(state.iter_mut()).zip(next) {
        p.set_data(new_p);
        *s = new_s;
    }
    Ok(())
}

/// `Ok(params)` unless there are none (an optimiser over nothing is a bug upstream,
/// e.g. the parameters of the wrong object).
fn non_empty(params: Vec<Value>) -> Result<Vec<Value>, Error> {
    if params.is_empty() {
        return Err(Error::InvalidInput(
            "the optimizer got no parameters; pass model.parameters()".to_owned(),
        ));
    }
    Ok(params)
}

/// `Ok(value)` if `ok(value)`, else [`Error::HyperParameter`] with `name` and `expected`.
fn hyper(name: &'static str, value: f64, expected: &'static str, ok: bool) -> Result<f64, Error> {
    if ok {
        Ok(value)
    } else {
        Err(Error::HyperParameter {
            name,
            value,
            expected,
        })
    }
}

/// A learning rate (for a constructor) or an epsilon: finite and > 0.
fn positive(name: &'static str, x: f64) -> Result<f64, Error> {
    hyper(name, x, "finite and > 0", x.is_finite() && x > 0.0)
}

/// A weight decay, a learning rate set by a schedule, or a schedule's end: finite and ≥ 0.
fn non_negative(name: &'static str, x: f64) -> Result<f64, Error> {
    hyper(name, x, "finite and >= 0", x.is_finite() && x >= 0.0)
}

/// A momentum or a beta: in [0, 1).
fn unit_interval(name: &'static str, x: f64) -> Result<f64, Error> {
    hyper(name, x, "in [0, 1)", (0.0..1.0).contains(&x))
}

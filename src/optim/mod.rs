//! Optimisers: the update loop of micrograd's demo (`p.data -= lr * p.grad`) and the
//! rules that improve on it.
//!
//! | file | what it holds |
//! |------|---------------|
//! | `mod.rs` | the [`Optimizer`] trait, [`check_loss`], the shared checked update |
//! | `sgd.rs` | [`Sgd`]: plain SGD (micrograd's), momentum, weight decay |
//! | `adam.rs` | [`Adam`] and [`AdamW`] (decoupled weight decay), sharing one rule |
//! | `rmsprop.rs` | [`RmsProp`]: PyTorch's RMSProp |
//! | `clip.rs` | [`Clip`], [`clip_grad_norm`], [`clip_grad_value`]: gradient clipping before any optimiser's step |
//! | `schedule.rs` | [`Schedule`]: learning rate as a function of the step |
//! | `state.rs` | [`OptimizerState`]: what a step depends on, to save and resume a run |
//!
//! ## Where non-finite numbers are caught
//!
//! Training never continues on NaN or infinity, and never half-applies an update:
//! - the **loss**: call [`check_loss`] (or [`Value::try_backward`], which also names the
//!   op) before `backward`; it returns [`Error::NonFiniteLoss`];
//! - the **gradients and the update**: [`Optimizer::step`] checks every gradient, new
//!   parameter value and new state value. If one is not finite it returns
//!   [`Error::NonFiniteUpdate`], and the parameters and optimiser state are exactly as
//!   before the call (parameters it had already updated get their old data back).
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
mod clip;
mod rmsprop;
mod schedule;
mod sgd;
mod state;

pub use adam::{Adam, AdamW};
pub use clip::{clip_grad_norm, clip_grad_value, Clip, Clipping};
pub use rmsprop::RmsProp;
pub use schedule::Schedule;
pub use sgd::Sgd;
pub use state::OptimizerState;

use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::engine::value::Node;
use crate::program::all_finite;
use crate::threads::{check_threads, share};
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

    /// [`step`](Optimizer::step) on plain numbers: `data[i]` and `grads[i]` stand for
    /// the data and grad of [`params()`](Optimizer::params)`[i]`. Replaces `data` with
    /// the new parameter values and advances the step count, exactly as `step` would on
    /// `Value`s holding these numbers, bit for bit. For parameters whose numbers live
    /// elsewhere: [`Tape::flush_and_step`](crate::tape::Tape::flush_and_step) steps
    /// with the tape's copy of the data and its gradient sums.
    ///
    /// [`Sgd`], [`Adam`] and [`AdamW`] leave the `Value`s alone and cut the parameters
    /// into `threads` blocks, each updated on a thread of rayon's global pool (with the
    /// `parallel` feature; else one after the other): each parameter's update depends
    /// on its own numbers only, so the result is the same for any `threads`. The
    /// default, for other optimisers, sets each parameter `Value`'s data and grad to
    /// the numbers, calls `step` and reads the data back.
    ///
    /// # Errors
    ///
    /// As [`step`](Optimizer::step), and nothing is changed then (`data` neither);
    /// [`Error::InvalidInput`] if `data` or `grads` does not have one number per
    /// parameter, or `threads` is 0.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// let w = Value::new(1.0);
    /// let mut adam = Adam::new(vec![w.clone()], 0.1)?;
    /// let mut data = [1.0];
    /// adam.step_numbers(&mut data, &[5.0], 2)?;   // as (&w * 5.0).backward(); adam.step()
    /// assert!((data[0] - 0.9).abs() < 1e-9);
    /// assert_eq!(w.data(), 1.0);                  // the Value is not touched
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    fn step_numbers(
        &mut self,
        data: &mut [f64],
        grads: &[f64],
        threads: usize,
    ) -> Result<(), Error> {
        check_numbers(self.params().len(), data.len(), grads.len(), threads)?;
        let old: Vec<(f64, f64)> = self.params().iter().map(|p| (p.data(), p.grad())).collect();
        for ((p, &d), &g) in self.params().iter().zip(&*data).zip(grads) {
            p.set_data(d);
            p.set_grad(g);
        }
        let stepped = self.step();
        for ((p, d), &(old_data, old_grad)) in self.params().iter().zip(data).zip(&old) {
            if stepped.is_ok() {
                *d = p.data();
            }
            p.set_data(old_data);
            p.set_grad(old_grad);
        }
        stepped
    }

    /// [`step_numbers`](Optimizer::step_numbers), with the gradients written and the
    /// new data handed on by the caller's `around`, block of parameters by block: each
    /// block's gradients by `around.before` just before the update reads them, its new
    /// data to `around.after` once they are computed, both on the thread that updates
    /// the block (so that a caller's passes over the gradients and the new data run on
    /// the threads, with the update, instead of before and after it).
    ///
    /// [`Sgd`], [`Adam`] and [`AdamW`] call them per block of their
    /// [`step_numbers`](Optimizer::step_numbers); the default calls `before` for every
    /// parameter, then `step_numbers`, then `after`.
    ///
    /// # Errors
    ///
    /// As [`step_numbers`](Optimizer::step_numbers). `grads` then holds what `before`
    /// wrote, `data` its old numbers again, and `after` may have had the new data of
    /// some blocks: a caller that keeps them must take the old ones back.
    ///
    /// # Panics
    ///
    /// If `before` or `after` panics: the panic is passed on once every block has
    /// stopped, and then, for [`Sgd`], [`Adam`] and [`AdamW`], `data` holds its old
    /// numbers and the optimiser its old state, as after a refused step.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use micrograd::optim::Around;
    /// let w = Value::new(1.0);
    /// let mut sgd = Sgd::new(vec![w.clone()], 0.1)?;
    /// let (mut data, mut grads, mut out) = ([1.0], [0.0], std::sync::Mutex::new(0.0));
    /// let around = Around {
    ///     before: &|_, g: &mut [f64]| g[0] = 5.0,                // a gradient from elsewhere
    ///     after: &|_, d: &[f64]| *out.lock().unwrap() = d[0],    // the new data, handed on
    /// };
    /// sgd.step_numbers_around(&mut data, &mut grads, 2, &around)?;
    /// assert_eq!(*out.get_mut().unwrap(), 1.0 - 0.1 * 5.0);
    /// assert_eq!((data[0], grads[0]), (1.0 - 0.1 * 5.0, 5.0));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    fn step_numbers_around(
        &mut self,
        data: &mut [f64],
        grads: &mut [f64],
        threads: usize,
        around: &Around<'_>,
    ) -> Result<(), Error> {
        check_numbers(self.params().len(), data.len(), grads.len(), threads)?;
        (around.before)(0..grads.len(), grads);
        self.step_numbers(data, grads, threads)?;
        (around.after)(0..data.len(), data);
        Ok(())
    }

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
    /// [`Error::HyperParameter`] unless `lr` is finite and ≥ 0, the rule of the
    /// constructors too (0 is allowed everywhere, as in PyTorch, because a schedule may
    /// anneal to 0), or if `lr` × weight decay would exceed 1 (see the implementing type).
    fn set_learning_rate(&mut self, lr: f64) -> Result<(), Error>;

    /// Everything the next [`step`](Optimizer::step) depends on besides the parameters:
    /// hyper-parameters, step count and each parameter's buffers (momentum, Adam's
    /// moments). Save it with [`MLP::save_with`](crate::nn::MLP::save_with) to resume a
    /// run exactly.
    fn state(&self) -> OptimizerState;

    /// Restores a state made by [`state`](Optimizer::state) on an optimiser of the same
    /// type over as many parameters (in the same order): afterwards this optimiser steps
    /// exactly as the saved one would have. Nothing changes if the state is refused.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if the state is another optimiser type's, is for another
    /// number of parameters, holds a number that is not finite, lacks a hyper-parameter,
    /// or has one the optimiser does not know (a misspelt name; the message lists the
    /// names it knows); [`Error::HyperParameter`] if a hyper-parameter is out of range.
    fn set_state(&mut self, state: &OptimizerState) -> Result<(), Error>;
}

/// What [`Optimizer::step_numbers_around`] runs for each block of parameters, on the
/// thread that updates it. A block is a range of parameter indices; the slices hold
/// that block's numbers.
pub struct Around<'a> {
    /// Writes the block's gradients, before the update reads them.
    pub before: &'a (dyn Fn(Range<usize>, &mut [f64]) + Sync),
    /// Takes the block's new data, once they are computed.
    pub after: &'a (dyn Fn(Range<usize>, &[f64]) + Sync),
}

/// The gradients of [`State::update_numbers`] (or of one of its blocks): given, or
/// written block by block by `around.before` (whose `after` then takes each block's new
/// data).
enum Grads<'a> {
    Given(&'a [f64]),
    Around(&'a mut [f64], &'a Around<'a>),
}

impl Grads<'_> {
    fn len(&self) -> usize {
        match self {
            Grads::Given(g) => g.len(),
            Grads::Around(g, _) => g.len(),
        }
    }
}

/// Numbers for [`Optimizer::step_numbers`] (and `step_numbers_around`): data,
/// gradients, threads.
type Numbers<'a> = (&'a mut [f64], Grads<'a>, usize);

/// The three step methods of an [`Optimizer`] impl for an optimiser with a
/// `take_step(Option<Numbers>)`, which steps the parameters' `Value`s on `None` and the
/// numbers it is given on `Some`: each method hands its arguments over.
macro_rules! steps_by_take_step {
    () => {
        fn step(&mut self) -> Result<(), Error> {
            self.take_step(None)
        }

        fn step_numbers(
            &mut self,
            data: &mut [f64],
            grads: &[f64],
            threads: usize,
        ) -> Result<(), Error> {
            self.take_step(Some((data, Grads::Given(grads), threads)))
        }

        fn step_numbers_around(
            &mut self,
            data: &mut [f64],
            grads: &mut [f64],
            threads: usize,
            around: &Around<'_>,
        ) -> Result<(), Error> {
            self.take_step(Some((data, Grads::Around(grads, around), threads)))
        }
    };
}
use steps_by_take_step;

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

/// Each parameter's optimiser state (K numbers: SGD's velocity, Adam's m and v), with
/// the buffers of the all-or-nothing update, kept so that a step allocates nothing.
#[derive(Debug)]
struct State<const K: usize> {
    /// The state of parameter i, in the order of the parameters.
    current: Vec<[f64; K]>,
    /// The new state of each parameter; swapped with `current` if the step succeeds.
    next: Vec<[f64; K]>,
    /// Each parameter's data before the step (to undo a refused step) if `distinct` or
    /// in `update_numbers`, else its new data (written once every parameter is
    /// computed).
    data: Vec<f64>,
    /// No node appears twice among the parameters, so each can be written as soon as it
    /// is computed. (A node listed twice must be computed both times from its old data.)
    distinct: bool,
}

impl<const K: usize> State<K> {
    /// All zeros for `params`.
    fn zeros(params: &[Value]) -> State<K> {
        let mut nodes: Vec<_> = params.iter().map(Value::address).collect();
        nodes.sort_unstable();
        State {
            current: vec![[0.0; K]; params.len()],
            next: vec![[0.0; K]; params.len()],
            data: vec![0.0; params.len()],
            distinct: nodes.windows(2).all(|w| w[0] != w[1]),
        }
    }

    /// Applies `rule(p, g, state) -> (new p, new state)` to every parameter, all or
    /// nothing, in one pass over the parameters: each one's data and grad are read with
    /// one borrow, its new data and state computed and checked, and (if `distinct`) the
    /// new data written at once. If a number is not finite, the parameters written so
    /// far get their old data back; the new states are swapped in only if all passed.
    fn update(
        &mut self,
        params: &[Value],
        rule: impl Fn(f64, f64, [f64; K]) -> (f64, [f64; K]),
    ) -> Result<(), Error> {
        let distinct = self.distinct;
        let mut slots = (params.iter().zip(&self.current))
            .zip(self.next.iter_mut().zip(&mut self.data))
            .enumerate();
        let computed = if distinct {
            slots.try_for_each(|(i, ((p, &s), (new_s, old_p)))| {
                p.replace_data(|data, g| {
                    let (new_p, s) = checked(&rule, data, g, s)?;
                    (*new_s, *old_p) = (s, data);
                    Ok(new_p)
                })
                .map_err(|refused| (i, refused))
            })
        } else {
            slots.try_for_each(|(i, ((p, &s), (new_s, new_p)))| {
                let (data, g) = p.data_and_grad();
                (*new_p, *new_s) = checked(&rule, data, g, s).map_err(|refused| (i, refused))?;
                Ok(())
            })
        };
        match computed {
            Ok(()) => {
                if !distinct {
                    for (p, &new_p) in params.iter().zip(&self.data) {
                        p.set_data(new_p);
                    }
                }
                std::mem::swap(&mut self.current, &mut self.next);
                Ok(())
            }
            Err((index, refused)) => {
                if distinct {
                    for (p, &old_p) in params[..index].iter().zip(&self.data) {
                        p.set_data(old_p);
                    }
                }
                Err(not_finite(params, index, refused))
            }
        }
    }
}

/// The error of a step that refused parameter `index` because `what` was not finite.
fn not_finite(params: &[Value], index: usize, (what, value): (&'static str, f64)) -> Error {
    Error::NonFiniteUpdate {
        what,
        index,
        label: params[index].label(),
        value,
    }
}

/// `Ok` if `data` and `grads` have one number each for `count` parameters and
/// `threads` is at least 1 (see [`Optimizer::step_numbers`]).
fn check_numbers(count: usize, data: usize, grads: usize, threads: usize) -> Result<(), Error> {
    if data != count || grads != count {
        return Err(Error::InvalidInput(format!(
            "step_numbers got {data} data and {grads} gradients for {count} parameters; \
             pass one of each per parameter, in the order of params()"
        )));
    }
    check_threads(threads, "a step")
}

/// How many parameters [`State::update_numbers`] computes before it looks for a number
/// that is not finite: few enough that they are still in the closest cache.
const SPAN: usize = 256;

impl<const K: usize> State<K> {
    /// [`update`](State::update) on plain numbers (see [`Optimizer::step_numbers`]):
    /// parameter i has data `data[i]` and gradient `grads[i]`. Block by block
    /// (`threads` blocks, on rayon's threads with the `parallel` feature), each
    /// parameter's new data replace its old in `data` (kept in `self.data`, to undo a
    /// refused step) and its new state goes into `next`; the states are swapped in if
    /// every number is finite, else `data` gets its old numbers back.
    fn update_numbers(
        &mut self,
        params: &[Value],
        (data, grads): (&mut [f64], Grads<'_>),
        threads: usize,
        rule: impl Fn(f64, f64, [f64; K]) -> (f64, [f64; K]) + Sync,
    ) -> Result<(), Error> {
        check_numbers(params.len(), data.len(), grads.len(), threads)?;
        // A few blocks per thread, so that a thread that is held up takes fewer; one
        // block on one thread (each costs its hooks' setup and a trip through `share`).
        // No more threads than parameters: each would have nothing to do (and a count
        // such as `usize::MAX` would overflow the product).
        let threads = threads.min(data.len().max(1));
        let blocks = if threads == 1 { 1 } else { threads * 4 };
        let block = data.len().div_ceil(blocks).max(1);
        let after = match &grads {
            Grads::Around(_, around) => Some(around.after),
            Grads::Given(_) => None,
        };
        // Which blocks are updated (see the panic below).
        let len = data.len();
        let done: Vec<AtomicBool> = (0..len.div_ceil(block).max(1))
            .map(|_| AtomicBool::new(false))
            .collect();
        // One block: every parameter, span by span, and the first refused one.
        let run = |(b, ((((p, g), s), new_s), old)): (usize, Block<'_, K>)| {
            let range = b * block..b * block + p.len();
            let g: &[f64] = match g {
                Grads::Given(g) => g,
                Grads::Around(g, around) => {
                    (around.before)(range.clone(), g);
                    g
                }
            };
            let spans = (p.chunks_mut(SPAN).zip(g.chunks(SPAN)))
                .zip(s.chunks(SPAN).zip(new_s.chunks_mut(SPAN)))
                .zip(old.chunks_mut(SPAN));
            let mut refused = None;
            for (at, (((p, g), (s, new_s)), old)) in (0..).step_by(SPAN).zip(spans) {
                // Every parameter first, in a loop without branches (which the
                // compiler can vectorise), then one look for a number that is not
                // finite, while they are still in the cache.
                let numbers = p.iter_mut().zip(g).zip(s).zip(&mut *new_s).zip(&mut *old);
                for ((((p, &g), &s), new_s), old) in numbers {
                    *old = *p;
                    (*p, *new_s) = rule(*p, g, s);
                }
                let finite = all_finite(g) && all_finite(p) && all_finite(new_s.as_flattened());
                if finite || refused.is_some() {
                    continue;
                }
                // The first refused parameter, as one `checked` after the other finds it.
                let numbers = old.iter().zip(g).zip(s).enumerate();
                refused = numbers
                    .map(|(i, ((&p, &g), &s))| (b * block + at + i, checked(&rule, p, g, s)))
                    .find_map(|(i, checked)| checked.err().map(|e| (i, e)));
            }
            // (From here on the block's old data are all in `self.data`.)
            done[b].store(true, Ordering::Relaxed);
            if let (None, Some(after)) = (&refused, after) {
                after(range, p);
            }
            refused
        };
        // A panic in the caller's `before` or `after` stops the step: each block updated
        // by then gets its old data back from `self.data`, as a refused step does, so
        // that `data` never holds half a step.
        let stepped = catch_unwind(AssertUnwindSafe(|| {
            self.run_blocks(data, grads, block, threads, &run)
        }));
        let refused = match stepped {
            Ok(refused) => refused,
            Err(panic) => {
                for (b, _) in done
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| d.load(Ordering::Relaxed))
                {
                    let range = b * block..len.min((b + 1) * block);
                    data[range.clone()].copy_from_slice(&self.data[range]);
                }
                resume_unwind(panic)
            }
        };
        if let Some((index, refused)) = refused {
            data.copy_from_slice(&self.data);
            return Err(not_finite(params, index, refused));
        }
        std::mem::swap(&mut self.current, &mut self.next);
        Ok(())
    }

    /// Runs `run` on each block of `block` parameters (on `threads` threads): the first
    /// refused parameter, in block order.
    fn run_blocks<'a>(
        &'a mut self,
        data: &'a mut [f64],
        grads: Grads<'a>,
        block: usize,
        threads: usize,
        run: &(impl Fn((usize, Block<'a, K>)) -> Option<(usize, (&'static str, f64))> + Sync),
    ) -> Option<(usize, (&'static str, f64))> {
        if threads == 1 {
            // The one block, here: no lists of blocks and results to make, which on a
            // small model is a visible share of the step.
            let (current, next) = (&self.current[..], &mut self.next[..]);
            let whole = ((((&mut *data, grads), current), next), &mut self.data[..]);
            one_block(run, (0, whole))
        } else {
            // Each parameter's update is independent of the others': the blocks may run
            // on any thread, and the first refusal in block order is the lowest index.
            let grads: Vec<_> = match grads {
                Grads::Given(g) => g.chunks(block).map(Grads::Given).collect(),
                Grads::Around(g, around) => {
                    let blocks = g.chunks_mut(block);
                    blocks.map(|g| Grads::Around(g, around)).collect()
                }
            };
            let blocks = (data.chunks_mut(block).zip(grads))
                .zip(self.current.chunks(block))
                .zip(self.next.chunks_mut(block))
                .zip(self.data.chunks_mut(block))
                .enumerate()
                .collect();
            share(blocks, threads, run).into_iter().flatten().next()
        }
    }
}

/// `run(block)`, compiled as a function of its own, as in [`share`]: inlined into
/// [`State::update_numbers`], the loop of Adam's update compiles to more instructions
/// per parameter.
#[inline(never)]
fn one_block<B, R>(run: impl Fn(B) -> R, block: B) -> R {
    run(block)
}

/// A block of parameters in [`State::update_numbers`]: their data (replaced by the
/// new), gradients and states, and room for their new states and old data.
type Block<'a, const K: usize> = (
    (
        ((&'a mut [f64], Grads<'a>), &'a [[f64; K]]),
        &'a mut [[f64; K]],
    ),
    &'a mut [f64],
);

/// `rule(p, g, s)` if g and every number it returns are finite; otherwise what was not
/// finite ("gradient", "new value", "optimizer state") and its value.
fn checked<const K: usize>(
    rule: impl Fn(f64, f64, [f64; K]) -> (f64, [f64; K]),
    p: f64,
    g: f64,
    s: [f64; K],
) -> Result<(f64, [f64; K]), (&'static str, f64)> {
    if !g.is_finite() {
        return Err(("gradient", g));
    }
    let (new_p, new_s) = rule(p, g, s);
    if !new_p.is_finite() {
        return Err(("new value", new_p));
    }
    if let Some(&bad) = new_s.iter().find(|x| !x.is_finite()) {
        return Err(("optimizer state", bad));
    }
    Ok((new_p, new_s))
}

/// `Ok(params)` unless there are none (an optimiser over nothing is a bug upstream,
/// e.g. the parameters of the wrong object) or one is not a leaf: a value computed by
/// an op is built again by the next forward pass, so a step written into it would
/// change nothing that is trained (PyTorch: "can't optimize a non-leaf Tensor").
fn non_empty(params: Vec<Value>) -> Result<Vec<Value>, Error> {
    if params.is_empty() {
        return Err(Error::InvalidInput(
            "the optimizer got no parameters; pass model.parameters()".to_owned(),
        ));
    }
    if let Some(i) = params.iter().position(|p| !p.node().is_leaf()) {
        return Err(Error::InvalidInput(format!(
            "parameter #{i} was computed by `{}`, not made with Value::new: a step \
             written into it is lost when the graph is built again; pass the leaves \
             it is computed from (model.parameters())",
            params[i].op()
        )));
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

/// An epsilon: finite and > 0.
fn positive(name: &'static str, x: f64) -> Result<f64, Error> {
    hyper(name, x, "finite and > 0", x.is_finite() && x > 0.0)
}

/// A learning rate (in a constructor, [`Optimizer::set_learning_rate`] or a
/// [`Schedule`]), or a weight decay: finite and ≥ 0.
fn non_negative(name: &'static str, x: f64) -> Result<f64, Error> {
    hyper(name, x, "finite and >= 0", x.is_finite() && x >= 0.0)
}

/// `Ok` unless weight decay `wd` at learning rate `lr` would flip the parameters' signs:
/// a step multiplies each parameter by `1 - lr·wd` before the gradient acts, so
/// `lr·wd > 1` makes a parameter with zero gradient change sign at every step.
fn decay_factor(lr: f64, wd: f64) -> Result<(), Error> {
    let product = lr * wd;
    hyper(
        "lr * weight_decay",
        product,
        "at most 1 (each step multiplies every parameter by 1 - lr * weight_decay, \
         so above 1 it flips their signs); lower the learning rate or the weight decay",
        product <= 1.0,
    )
    .map(|_| ())
}

/// A momentum or a beta: in [0, 1).
fn unit_interval(name: &'static str, x: f64) -> Result<f64, Error> {
    hyper(name, x, "in [0, 1)", (0.0..1.0).contains(&x))
}

/// The optimisers' reads and writes of a parameter, one borrow of its node each. The
/// data read is what [`Value::data`] gives: a live `Training`'s newer number for a
/// parameter it holds.
impl Value {
    /// `(data, grad)` with one borrow of the node (the optimisers read both for each
    /// parameter of every step).
    #[inline]
    pub(crate) fn data_and_grad(&self) -> (f64, f64) {
        let node = self.0.borrow();
        (self.data_of(&node), node.grad)
    }

    /// The number [`Value::data`] gives, from the node already borrowed.
    #[inline]
    fn data_of(&self, node: &Node) -> f64 {
        crate::watch::data_read(crate::watch::trainings_live(), self.address(), node.data)
    }

    /// Sets data to `f(data, grad)` with one borrow of the node, unless `f` fails
    /// (then nothing changes). The optimisers' in-place update.
    #[inline]
    pub(crate) fn replace_data<E>(
        &self,
        f: impl FnOnce(f64, f64) -> Result<f64, E>,
    ) -> Result<(), E> {
        let mut node = self.0.borrow_mut();
        node.data = f(self.data_of(&node), node.grad)?;
        crate::watch::count_data_write();
        Ok(())
    }
}

//! [`Training`]: many steps on the tape's own numbers, the parameters' `Value`s written
//! once at the end.
//!
//! [`Tape::flush_and_step`] ends every step with a pass over the parameter `Value`s,
//! which only the tape's thread can make (they are `Rc`s): for MNIST's 25,450
//! parameters it takes as long as a fifth of the batch's samples, and no other thread
//! can share it. A `Training` keeps the parameters as plain numbers from one step to
//! the next and makes that pass once, when it ends: the same numbers bit for bit, and
//! a batch whose every part runs on the threads.

use std::cell::RefCell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::rc::Rc;

use super::{Inputs, Tape};
use crate::address::AddressMap;
use crate::engine::Value;
use crate::error::Error;
use crate::optim::Optimizer;
use crate::threads::check_threads;
use crate::watch::{data_writes, grad_marks, set_trainings};

thread_local! {
    /// The parameters whose `Value`s a live `Training` on this thread has not written
    /// yet, with the id of its tape and its numbers for them: another tape must not
    /// read them (see [`Tape::check_not_held`]), and their `data()` reads the
    /// training's numbers (see [`trained_data`]).
    static HELD: RefCell<Held> = const {
        RefCell::new(Held {
            trainings: Vec::new(),
            cleared: Vec::new(),
        })
    };
}

/// How many tapes [`Held::cleared`] remembers.
const CLEARED: usize = 16;

/// What [`HELD`] holds: the live trainings, and the tapes found to hold none of their
/// parameters since they last changed (a tape's leaves never change, so it need not
/// look again: a look is a hash look-up per leaf, 26K for MNIST, on every run).
struct Held {
    trainings: Vec<Holding>,
    cleared: Vec<u64>,
}

/// A live training in [`HELD`], from its first step until it writes its parameters'
/// `Value`s.
struct Holding {
    /// The id of its tape.
    tape: u64,
    /// Each parameter's node and its place in the optimiser's order (the last place of
    /// a node listed twice: after a step every place of a node holds the same number).
    places: AddressMap<u32>,
    /// The training's current numbers for its parameters, in the optimiser's order:
    /// the tape's own, shared, not copied. `None` while a step changes them.
    numbers: Option<Rc<Vec<f64>>>,
    /// The parameters' data when their `Value`s were last read or written, in the
    /// same order: a node whose data differs was written while the training lived,
    /// and keeps that write when it ends.
    before: Vec<f64>,
}

impl Held {
    /// Changes the trainings by `change`; every tape must look again.
    fn change(change: impl FnOnce(&mut Vec<Holding>)) {
        HELD.with_borrow_mut(|held| {
            change(&mut held.trainings);
            held.cleared.clear();
            set_trainings(held.trainings.len(), trained_data);
        });
    }

    /// Gives the training of `tape` its current numbers (`None`: it is changing them).
    fn share(tape: u64, numbers: Option<Rc<Vec<f64>>>) {
        HELD.with_borrow_mut(|held| {
            if let Some(h) = held.trainings.iter_mut().find(|h| h.tape == tape) {
                h.numbers = numbers;
            }
        });
    }

    /// Takes the training of `tape` out (its `Value`s are being written), returning
    /// its `before`.
    fn release(tape: u64) -> Vec<f64> {
        let mut before = Vec::new();
        Held::change(|trainings| {
            if let Some(i) = trainings.iter().position(|h| h.tape == tape) {
                before = trainings.swap_remove(i).before;
            }
        });
        before
    }
}

/// What [`Value::data`] gives for the node at `node` whose own data is `stored`: the
/// number a live training holds for it, unless the node was written while the training
/// lived (the training's end keeps that write) or the training is in the middle of a
/// step (an optimiser without a `step_numbers` of its own steps through the `Value`s).
/// `stored` for a node no training holds.
pub(crate) fn trained_data(node: *const (), stored: f64) -> f64 {
    HELD.with_borrow(|held| {
        for h in &held.trainings {
            if let Some(&i) = h.places.get(&node) {
                let i = i as usize;
                let trained = h.numbers.as_ref().and_then(|numbers| numbers.get(i));
                return match (trained, h.before.get(i)) {
                    (Some(&trained), Some(b)) if b.to_bits() == stored.to_bits() => trained,
                    _ => stored,
                };
            }
        }
        stored
    })
}

/// Steps of an optimiser on a [`Tape`]'s numbers, the parameters' `Value`s left as they
/// were until the training ends: made by [`Tape::train`].
///
/// Each [`step`](Training::step) is
/// `tape.accumulate_batch(..); tape.flush_and_step(opt, threads)` with the same numbers
/// bit for bit, except that no `Value` is written: the new data stay in the tape (and
/// the optimiser's state in the optimiser). [`finish`](Training::finish), or dropping
/// the `Training`, writes them into the parameters' `Value`s, data and grads, as the
/// last `flush_and_step` would have left them.
///
/// **While it lives, the parameters' nodes hold their data from before the training**;
/// a parameter's own [`data()`](Value::data) (and its `{:?}`) reads the training's
/// current number, what `finish` will write, but its [`grad()`](Value::grad) is the
/// grad its node had before the training (the training's last step's gradient is
/// written at its end). The tape and the optimiser are borrowed, so they cannot be used
/// around it; evaluate through [`evaluate_batch`](Training::evaluate_batch), which runs
/// on the trained numbers. A graph built from the parameters by hand (`&w * 2.0`,
/// `Value::neuron`) reads their data through `data()`, so it computes with the
/// training's numbers too. Another tape over the same parameters refuses to run until
/// the training has written them (an error naming the leaf), and so do the model's
/// `forward`, `forward_f64` and `save` (an error naming `finish()`). Writing a
/// `Value`'s data meanwhile (`set_data`, an optimiser's `step`) is refused by the next
/// step (see [`step`](Training::step)), because the training's numbers would overwrite
/// it, and [`finish`](Training::finish) keeps it (as `data()` then gives it).
///
/// A `Training` that never ends (leaked with `std::mem::forget`) never writes its
/// parameters: their nodes keep the data from before it, `data()` keeps giving its
/// last numbers, and other tapes and the model keep refusing them on this thread. End
/// it with `finish` or by dropping it.
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::tape::Tape;
/// let (w, x) = (Value::new(3.0), Value::new(0.0).no_grad());
/// let mut tape = Tape::compile(&(&w * &x))?;
/// let input = tape.inputs(&[x.clone()])?;
/// let mut opt = Sgd::new(vec![w.clone()], 0.1)?;
/// let mut training = tape.train(&mut opt, 2)?;
/// for _ in 0..3 {
///     training.step(&input, &[[1.0], [2.0]])?;   // d (w x) / dw = x, summed: 3
/// }
/// assert_eq!(w.data(), training.params()[0]);    // the training's number
/// assert_eq!(w.grad(), 0.0);                     // the node's, not written yet
/// training.finish();
/// assert_eq!(w.data(), 3.0 - 0.1 * 3.0 - 0.1 * 3.0 - 0.1 * 3.0);
/// assert_eq!(w.grad(), 3.0);                     // the gradient of the last step
/// # Ok::<(), micrograd::Error>(())
/// ```
pub struct Training<'a, O: Optimizer + ?Sized> {
    tape: &'a mut Tape,
    opt: &'a mut O,
    threads: usize,
    /// [`data_writes`] and [`grad_marks`] after the last write-back: another count
    /// means a `Value` was written (or marked) meanwhile.
    writes: u64,
    marks: u64,
    /// Whether a step was taken since the `Value`s were last written (then the
    /// training is in [`HELD`]).
    unwritten: bool,
    /// The parameters' data when the `Value`s were last read or written: a `Value`
    /// whose data differs at the end was written while the training lived, and keeps
    /// that write. (In [`HELD`] while the training is: empty here then.)
    before: Vec<f64>,
}

impl Tape {
    /// Starts a [`Training`] of `opt`'s parameters on this tape, its steps on up to
    /// `threads` threads: `flush_and_step` after every batch, but the parameters'
    /// `Value`s written once, at its end.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `threads` is 0, or if a leaf of this tape is a
    /// parameter that a `Training` of another tape holds; [`Error::ConstantTarget`] if a
    /// loss of the graph took its target as a number (every step would train toward the
    /// compiled sample's target).
    pub fn train<'a, O: Optimizer + ?Sized>(
        &'a mut self,
        opt: &'a mut O,
        threads: usize,
    ) -> Result<Training<'a, O>, Error> {
        check_threads(threads, "a step")?;
        self.check_per_sample()?;
        self.load_params(opt.params())?;
        Ok(Training {
            before: opt.params().iter().map(Value::stored_data).collect(),
            tape: self,
            opt,
            threads,
            writes: data_writes(),
            marks: grad_marks(),
            unwritten: false,
        })
    }
}

impl<O: Optimizer + ?Sized> Training<'_, O> {
    /// One step: every sample of the batch forward and backward on the threads
    /// ([`Tape::accumulate_batch`]), then the optimiser's step from the gradient sums
    /// ([`Tape::flush_and_step`]), on the tape's numbers. Returns each sample's loss.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] (nothing runs) if a `Value`'s data was written, or a
    /// value marked `no_grad`, on this thread since the training started: its numbers
    /// would overwrite that write. The errors of
    /// [`accumulate_batch`](Tape::accumulate_batch) (then the sums are dropped and the
    /// parameters are as before) and of the optimiser's step (then the `Value`s are
    /// written at once, as the refused `flush_and_step` would have left them).
    ///
    /// # Panics
    ///
    /// If a closure of a [`Value::custom`](crate::Value::custom) op panics, as
    /// [`accumulate_batch`](Tape::accumulate_batch) (no step is taken); if the
    /// optimiser's step panics (an optimiser of your own), as
    /// [`flush_and_step`](Tape::flush_and_step): the `Value`s are written at once, as
    /// after a step refused. Either way the training can go on.
    pub fn step<S: AsRef<[f64]> + Sync>(
        &mut self,
        inputs: &Inputs,
        samples: &[S],
    ) -> Result<Vec<f64>, Error> {
        self.check_unwritten()?;
        let losses = self.tape.accumulate_batch(inputs, samples, self.threads)?;
        if self.unwritten {
            // (The tape's numbers are the step's until it ends: changed in place.)
            Held::share(self.tape.id, None);
        } else {
            let places = (0..).zip(self.opt.params());
            let holding = Holding {
                tape: self.tape.id,
                places: places.map(|(i, p)| (p.address(), i)).collect(),
                numbers: None,
                before: std::mem::take(&mut self.before),
            };
            Held::change(|h| h.push(holding));
        }
        self.unwritten = true;
        let (tape, opt, threads) = (&mut *self.tape, &mut *self.opt, self.threads);
        match catch_unwind(AssertUnwindSafe(|| tape.step_numbers(opt, threads))) {
            Ok(Ok(())) => {
                Held::share(self.tape.id, Some(self.tape.plan.shared_data()));
                // (An optimiser without a `step_numbers` of its own steps through its
                // parameters' `Value`s and puts them back: those writes are the step's.)
                self.writes = data_writes();
                Ok(losses)
            }
            Ok(Err(refused)) => {
                self.write_back();
                Err(refused)
            }
            Err(panic) => {
                self.write_back();
                resume_unwind(panic)
            }
        }
    }

    /// Feeds the leaves `inputs` names for the steps that follow, as
    /// [`Tape::set_inputs`] (e.g. a batch's scale).
    ///
    /// # Errors
    ///
    /// Those of [`Tape::set_inputs`].
    pub fn set_inputs(&mut self, inputs: &Inputs, sample: &[f64]) -> Result<(), Error> {
        self.tape.set_inputs(inputs, sample)
    }

    /// [`Tape::evaluate_batch`] on the trained numbers.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] (nothing runs) if a `Value` was written meanwhile, as
    /// [`step`](Training::step) refuses; those of [`Tape::evaluate_batch`].
    pub fn evaluate_batch<S: AsRef<[f64]> + Sync>(
        &mut self,
        inputs: &Inputs,
        samples: &[S],
    ) -> Result<Vec<Vec<f64>>, Error> {
        self.check_unwritten()?;
        self.tape.evaluate_batch(inputs, samples, self.threads)
    }

    /// `Ok` unless a `Value`'s data was written, or a value held elsewhere marked
    /// `no_grad`, on this thread since the training started (the tape would read the
    /// `Value`s again, and their old numbers would replace the trained ones).
    fn check_unwritten(&self) -> Result<(), Error> {
        if data_writes() != self.writes || grad_marks() != self.marks {
            return Err(Error::InvalidInput(
                "a Value on this thread was written (set_data, an optimizer's step or \
                 another Training's end, on any Value) or marked no_grad while this \
                 Training lived: the tape reads its Values again after a write, and its \
                 parameters' Values hold their numbers from before the training. finish() \
                 it before writing other \
                 Values (to alternate two models, finish one Training, then step the \
                 other), and start another"
                    .to_owned(),
            ));
        }
        Ok(())
    }

    /// The optimiser, e.g. to change its learning rate between steps.
    pub fn optimizer(&mut self) -> &mut O {
        self.opt
    }

    /// The parameters' current numbers, in the optimiser's order (what their `Value`s
    /// will hold when the training ends).
    pub fn params(&self) -> &[f64] {
        self.tape.plan.data()
    }

    /// Ends the training: the parameters' `Value`s get their data and grads, as after
    /// the last [`flush_and_step`](Tape::flush_and_step). (Dropping the `Training` does
    /// the same.) A parameter whose `Value` was written while the training lived
    /// (`set_data`, which the next step would have refused) keeps that write: its data
    /// is not overwritten, only its grad is set. (A write of the very number the
    /// `Value` held cannot be told from none.)
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use micrograd::tape::Tape;
    /// let (w, x) = (Value::new(3.0), Value::new(1.0).no_grad());
    /// let mut tape = Tape::compile(&(&w * &x))?;
    /// let input = tape.inputs(&[x])?;
    /// let mut opt = Sgd::new(vec![w.clone()], 0.1)?;
    /// let mut training = tape.train(&mut opt, 1)?;
    /// training.step(&input, &[[1.0]])?;
    /// w.set_data(42.0);                          // while the training lives
    /// assert!(training.step(&input, &[[1.0]]).is_err());
    /// training.finish();
    /// assert_eq!(w.data(), 42.0);                // kept, not overwritten
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn finish(self) {}

    /// The numbers into the `Value`s, if a step left some unwritten (but not over a
    /// write made meanwhile).
    fn write_back(&mut self) {
        if self.unwritten {
            let params = self.opt.params();
            let mut before = Held::release(self.tape.id);
            // The writes made meanwhile: put back after the pass, grads as trained.
            let kept: Vec<(usize, f64)> = match data_writes() == self.writes {
                true => Vec::new(),
                false => (params.iter().zip(&before).enumerate())
                    .filter(|(_, (p, b))| p.stored_data().to_bits() != b.to_bits())
                    .map(|(i, (p, _))| (i, p.stored_data()))
                    .collect(),
            };
            self.tape.write_back(params);
            for &(i, data) in &kept {
                params[i].set_data(data);
            }
            self.unwritten = false;
            before.clear();
            before.extend(params.iter().map(Value::stored_data));
            self.before = before;
        }
        self.writes = data_writes();
    }
}

impl Tape {
    /// `Ok` unless one of this tape's leaves is a parameter that a live [`Training`] of
    /// another tape holds (the tape's copy of its data is from before the training).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] naming the leaf.
    pub(super) fn check_not_held(&self) -> Result<(), Error> {
        let held_leaf = HELD.with_borrow_mut(|held| {
            if held.trainings.is_empty() || held.cleared.contains(&self.id) {
                return None;
            }
            let others = held.trainings.iter().filter(|h| h.tape != self.id);
            for h in others {
                let held = |l: &&Value| h.places.contains_key(&l.address());
                if let Some(leaf) = self.leaves.iter().find(held) {
                    return Some(leaf.clone());
                }
            }
            // (A few tapes at most, unless tapes are compiled again and again.)
            if held.cleared.len() == CLEARED {
                held.cleared.clear();
            }
            held.cleared.push(self.id);
            None
        });
        // (Named out of the registry's borrow: `data()` looks in it.)
        match held_leaf {
            None => Ok(()),
            Some(leaf) => Err(Error::InvalidInput(format!(
                "leaf {} of this tape is a parameter that a Training on another tape is \
                 stepping: this tape's copy of it is from before the training; finish() \
                 the Training first, or evaluate through Training::evaluate_batch",
                name(&leaf)
            ))),
        }
    }
}

/// A value's label, or else its data, for an error.
fn name(v: &Value) -> String {
    v.label().unwrap_or_else(|| format!("{:?}", v.data()))
}

/// `Ok` unless one of `params` is held by a live [`Training`] on this thread (its node
/// still has the data from before the training, which a graph built from it would
/// compute with): what a model checks before it reads its parameters (`forward`,
/// `save`). One thread-local look when no training is live.
///
/// # Errors
///
/// [`Error::InvalidInput`] naming the parameter and `finish()`.
pub(crate) fn check_not_training<'v>(
    params: impl IntoIterator<Item = &'v Value>,
) -> Result<(), Error> {
    let held_param = HELD.with_borrow(|held| {
        if held.trainings.is_empty() {
            return None;
        }
        let held = |p: &&Value| {
            let node = p.address();
            held.trainings.iter().any(|h| h.places.contains_key(&node))
        };
        params.into_iter().find(held)
    });
    match held_param {
        None => Ok(()),
        Some(p) => Err(Error::InvalidInput(format!(
            "parameter {} is held by a live tape::Training: its node still has the data \
             from before the training (data() gives the trained number, the node is \
             written when the training ends); finish() the Training first, or evaluate \
             through Training::evaluate_batch",
            name(p)
        ))),
    }
}

impl<O: Optimizer + ?Sized> Drop for Training<'_, O> {
    fn drop(&mut self) {
        self.write_back();
    }
}

impl Value {
    /// The data in the node itself, without asking whether a live `Training` holds a
    /// newer number for it (see `watch.rs`): what a `Training` compares to see whether
    /// a node was written while it lived.
    #[inline]
    pub(crate) fn stored_data(&self) -> f64 {
        self.0.borrow().data
    }
}

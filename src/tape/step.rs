//! The optimiser's step on the tape's own numbers: [`Tape::flush_and_step`], and the
//! steps of a [`Training`](super::Training).
//!
//! After a batch, the tape holds what a step needs as plain numbers: the parameters'
//! data (its copy of the leaves) and their gradient sums. Stepping from those, with
//! [`Optimizer::step_numbers`] (on threads), replaces three passes over the parameter
//! `Value`s (`zero_grad`, `flush_grads`, the optimiser reading them in `step`) and the
//! tape's reading them back before the next batch by one pass that writes each
//! parameter's new data and grad ([`Tape::write_back`]); a `Training` makes that one
//! pass at its end instead of after every step.

use std::ops::Range;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::rc::Rc;

use super::Tape;
use crate::address::AddressMap;
use crate::engine::Value;
use crate::error::Error;
use crate::optim::{Around, Optimizer};
use crate::program::{all_finite, Buffers};
use crate::threads::check_threads;
use crate::watch::{count_data_write, data_writes, grad_marks};
use std::sync::{Mutex, PoisonError};

/// In [`Placement::leaf`]: the parameter is not a leaf of the tape.
const ELSEWHERE: u32 = u32::MAX;

/// A run `[first parameter, first leaf, length]` of [`Placement::runs`] as its
/// parameters' and its leaves' ranges.
fn slices([p, l, n]: [u32; 3]) -> (Range<usize>, Range<usize>) {
    let [p, l, n] = [p, l, n].map(|x| x as usize);
    (p..p + n, l..l + n)
}

/// Which leaf of the tape each of an optimiser's parameters is, kept between steps
/// (made again when the parameters or a `no_grad` mark change), and room for the
/// numbers of a step.
#[derive(Default)]
pub(super) struct StepPlan {
    /// The parameters' node addresses, in the optimiser's order.
    params: Vec<usize>,
    /// [`grad_marks`] when the plan was made.
    marks: u64,
    /// Where the parameters are among the tape's leaves, for moving the numbers.
    placed: Placement,
    /// Whether no leaf is two of the parameters (then the blocks of a step may write
    /// their new data into the tape in any order).
    distinct: bool,
    /// `[i, j]`: parameter i is listed again at j, the last place of its node. After a
    /// step, i's data become j's, as on the `Value`s (where j's is written last), so
    /// that the next step of a `Training` reads each place the node's one number.
    repeated: Vec<[u32; 2]>,
    /// The tape's leaves that are none of the parameters and need a gradient.
    others: Vec<u32>,
    /// Each parameter's data, then new data, for the optimiser: between the steps of a
    /// `Training`, the parameters' current data (their `Value`s get it at its end).
    /// Shared with the registry of live trainings between its steps, so that a
    /// parameter's `data()` reads it there (see [`shared_data`](StepPlan::shared_data));
    /// a step takes it back first, and changes it in place.
    data: Rc<Vec<f64>>,
    /// Each parameter's gradient, as `zero_grad` then `flush_grads` would leave it.
    grads: Vec<f64>,
    /// Whether a step since the last [`write_back`](Tape::write_back) took the tape's
    /// sums (after a batch): they were handed over, and `write_back` resets them.
    /// (Otherwise the leaves' entries hold the last `backward`'s gradient, which
    /// `grad_of` still gives.)
    summed: bool,
    /// The grad of each of `others`, as `flush_grads` would leave it.
    other_grads: Vec<f64>,
}

impl StepPlan {
    /// The parameters' data, in the optimiser's order, after the last step.
    pub(super) fn data(&self) -> &[f64] {
        &self.data
    }

    /// The parameters' data, as [`data`](StepPlan::data), shared rather than copied.
    /// Whoever keeps the handle must drop it before the next step, which otherwise
    /// copies the numbers to change them.
    pub(super) fn shared_data(&self) -> Rc<Vec<f64>> {
        Rc::clone(&self.data)
    }

    /// Makes the plan again unless it is for `params` and no leaf was marked `no_grad`
    /// since it was made.
    fn fit(&mut self, params: &[Value], leaf_index: &AddressMap<u32>, leaves: &[Value]) {
        let same = self.params.len() == params.len()
            && params
                .iter()
                .zip(&self.params)
                .all(|(p, &a)| p.address() as usize == a)
            && self.marks == grad_marks();
        if same {
            return;
        }
        self.params = params.iter().map(|p| p.address() as usize).collect();
        self.marks = grad_marks();
        let placed = &mut self.placed;
        placed.leaf = (params.iter())
            .map(|p| leaf_index.get(&p.address()).copied().unwrap_or(ELSEWHERE))
            .collect();
        placed.needs_grad = params.iter().map(Value::requires_grad).collect();
        placed.all_need_grad = !placed.needs_grad.contains(&false);
        placed.runs.clear();
        for (i, &k) in (0..).zip(&placed.leaf).filter(|&(_, &k)| k != ELSEWHERE) {
            match placed.runs.last_mut() {
                Some([p, l, n]) if *p + *n == i && *l + *n == k => *n += 1,
                _ => placed.runs.push([i, k, 1]),
            }
        }
        placed.one_by_one = placed.runs.len() * SHORT_RUNS > params.len();
        let mut other: Vec<bool> = leaves.iter().map(Value::requires_grad).collect();
        let mut seen = vec![false; leaves.len()];
        self.distinct = true;
        for &k in self.placed.leaf.iter().filter(|&&k| k != ELSEWHERE) {
            other[k as usize] = false;
            self.distinct &= !std::mem::replace(&mut seen[k as usize], true);
        }
        let mut last = AddressMap::default();
        for (j, p) in (0..).zip(params) {
            last.insert(p.address(), j);
        }
        self.repeated = ((0..).zip(params))
            .map(|(i, p)| [i, last[&p.address()]])
            .filter(|&[i, j]| i != j)
            .collect();
        self.others = (0..)
            .zip(other)
            .filter(|&(_, o)| o)
            .map(|(k, _)| k)
            .collect();
        self.data = Rc::new(vec![0.0; params.len()]);
        self.grads = vec![0.0; params.len()];
        self.other_grads = vec![0.0; self.others.len()];
    }
}

/// Where a [`StepPlan`]'s parameters are among the tape's leaves (a field of its own, so
/// that a step's blocks can read it while the plan's numbers change).
#[derive(Default)]
struct Placement {
    /// Each parameter's leaf index on the tape ([`ELSEWHERE`]: not a leaf of it).
    leaf: Vec<u32>,
    /// Whether each parameter needs a gradient.
    needs_grad: Vec<bool>,
    /// Whether every one does.
    all_need_grad: bool,
    /// The parameters that are leaves of the tape, in runs of parameters that are
    /// consecutive leaves too, `[first parameter, first leaf, length]` (a neuron's
    /// weights are), so that the numbers move as slices.
    runs: Vec<[u32; 3]>,
    /// Whether the runs are short (see [`SHORT_RUNS`]): then the numbers move one by
    /// one, each to or from its `leaf`.
    one_by_one: bool,
}

/// The length of run below which, on average, [`Placement`] moves the numbers one by
/// one rather than run by run: a run costs each hook of a step several times what a
/// number moved on its own costs (its part of the block, its slices, a call of
/// `memcpy`). A model's parameters are long runs of the tape's leaves, which the tape
/// stores in the order of `parameters()` (see `leaves_by_first_use`), and move run by
/// run; short runs (a bias stored apart from its weights, say) are cheaper one by one.
const SHORT_RUNS: usize = 8;

/// Whether any is true, without a branch per one.
fn any(xs: &[bool]) -> bool {
    xs.iter().fold(false, |any, &x| any | x)
}

impl Placement {
    /// The parts of the runs within the parameters `block`, as the ranges of their
    /// parameters (counted from the block's first) and of their leaves.
    fn within(
        &self,
        block: Range<usize>,
    ) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
        let first = self
            .runs
            .partition_point(|&[p, _, n]| (p + n) as usize <= block.start);
        (self.runs[first..].iter().map(|&r| slices(r)))
            .take_while(move |(params, _)| params.start < block.end)
            .map(move |(params, leaves)| {
                let (start, end) = (params.start.max(block.start), params.end.min(block.end));
                let leaves =
                    leaves.start + (start - params.start)..leaves.start + (end - params.start);
                (start - block.start..end - block.start, leaves)
            })
    }

    /// The gradients of the parameters `block` from the tape's sums `sums` (the leaves'
    /// entries of its grads), as `zero_grad` then `flush_grads` leave them: `0 + sum`
    /// for a leaf of the tape that needs a gradient. (The others' stay 0.)
    fn take_grads(&self, block: Range<usize>, grads: &mut [f64], sums: &[f64]) {
        if self.one_by_one {
            let leaf = &self.leaf[block.clone()];
            if self.all_need_grad {
                for (g, &k) in grads.iter_mut().zip(leaf) {
                    // (`ELSEWHERE` is past every leaf)
                    *g = sums.get(k as usize).map_or(0.0, |&s| 0.0 + s);
                }
            } else {
                let needs_grad = &self.needs_grad[block];
                for ((g, &k), &needs_grad) in grads.iter_mut().zip(leaf).zip(needs_grad) {
                    *g = match sums.get(k as usize) {
                        Some(&s) if needs_grad => 0.0 + s,
                        _ => 0.0,
                    };
                }
            }
            return;
        }
        for (params, leaves) in self.within(block.clone()) {
            let (grads, sums) = (&mut grads[params.clone()], &sums[leaves]);
            if self.all_need_grad {
                for (g, &s) in grads.iter_mut().zip(sums) {
                    *g = 0.0 + s;
                }
            } else {
                let needs_grad = &self.needs_grad[block.start..][params];
                for ((g, &s), &needs_grad) in grads.iter_mut().zip(sums).zip(needs_grad) {
                    *g = if needs_grad { 0.0 + s } else { 0.0 };
                }
            }
        }
    }

    /// The new data `new` of the parameters `block` into the tape's leaf data `data`,
    /// but for the leaves `fed` (a fed leaf keeps its sample; a leaf listed twice gets
    /// the later parameter's).
    fn put_data(&self, block: Range<usize>, new: &[f64], data: &mut [f64], fed: &[bool]) {
        if self.one_by_one {
            // (One bound for both: `ELSEWHERE` is past every leaf)
            let leaves = data.len().min(fed.len());
            let (data, fed) = (&mut data[..leaves], &fed[..leaves]);
            let pairs = self.leaf[block].iter().map(|&k| k as usize).zip(new);
            // (Whether any leaf is fed, a look at every leaf without a branch: cheaper
            // than one look per parameter.)
            if !any(fed) {
                for (k, &new) in pairs.filter(|&(k, _)| k < leaves) {
                    data[k] = new;
                }
                return;
            }
            for (k, &new) in pairs.filter(|&(k, _)| k < leaves && !fed[k]) {
                data[k] = new;
            }
            return;
        }
        for (params, leaves) in self.within(block) {
            let (data, new) = (&mut data[leaves.clone()], &new[params]);
            let fed = &fed[leaves];
            if !any(fed) {
                data.copy_from_slice(new);
                continue;
            }
            for ((d, &fed), &new) in data.iter_mut().zip(fed).zip(new) {
                if !fed {
                    *d = new;
                }
            }
        }
    }
}

impl Tape {
    /// `opt.zero_grad(); tape.flush_grads(); opt.step()` in one call, with the same
    /// numbers bit for bit, computed from the tape's own copy of the parameters' data
    /// and its gradient sums (after [`accumulate_batch`](Tape::accumulate_batch) or
    /// [`accumulate`](Tape::accumulate)) by
    /// [`Optimizer::step_numbers`], on up to `threads` threads. Afterwards every
    /// parameter `Value` has its new data and, as grad, the gradient it stepped with
    /// (0 for a parameter that is not a leaf of this tape, or needs no gradient); the
    /// tape's other leaves get their sums added into their grads, as `flush_grads`
    /// does; the sums are reset, and the next run needs not read the parameters back.
    /// After a [`backward`](Tape::backward) and no batch there are no sums: the step is
    /// one with gradients 0 (as after `zero_grad` and a `flush_grads` of nothing) and
    /// [`grad_of`](Tape::grad_of) and [`leaf_grads`](Tape::leaf_grads) still give that
    /// backward's gradient (or `grad_of` its error, if it must be computed from values
    /// the step changed).
    ///
    /// The passes over the parameter `Value`s (`Rc`s, which stay on this thread) are
    /// what a batch cannot share among threads: this makes them one (see
    /// `docs/tape.md`, "Threads").
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `threads` is 0 (nothing changes). The errors of
    /// [`Optimizer::step`]: then the parameters' data and the optimiser are as before
    /// and the grads as after `opt.zero_grad(); tape.flush_grads()`, the state the
    /// three calls would have left.
    ///
    /// # Panics
    ///
    /// If the optimiser's step panics (an optimiser of your own), the panic goes on to
    /// the caller after the parameters and the tape are left as after a step refused
    /// with an error (above): the gradient sums are handed over once, to the grads.
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use micrograd::tape::Tape;
    /// let (w, x) = (Value::new(3.0), Value::new(0.0).no_grad());
    /// let mut tape = Tape::compile(&(&w * &x))?;
    /// let input = tape.inputs(&[x.clone()])?;
    /// let mut opt = Sgd::new(vec![w.clone()], 0.1)?;
    /// tape.accumulate_batch(&input, &[[1.0], [2.0]], 2)?;
    /// tape.flush_and_step(&mut opt, 2)?;
    /// assert_eq!(w.grad(), 3.0);                  // d (w x) / dw = x, summed
    /// assert_eq!(w.data(), 3.0 - 0.1 * 3.0);      // p -= lr * grad
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn flush_and_step(
        &mut self,
        opt: &mut (impl Optimizer + ?Sized),
        threads: usize,
    ) -> Result<(), Error> {
        check_threads(threads, "a step")?;
        self.load_params(opt.params())?;
        let stepped = catch_unwind(AssertUnwindSafe(|| self.step_numbers(opt, threads)));
        self.write_back(opt.params());
        stepped.unwrap_or_else(|panic| resume_unwind(panic))
    }

    /// Reads what the parameters' numbers are before a step (or the steps of a
    /// `Training`): the tape's data where the tape holds it (a leaf of the tape that
    /// `set_inputs` did not feed), the `Value`'s elsewhere; and the grads of the tape's
    /// other leaves that need one.
    ///
    /// # Errors
    ///
    /// Those of `read_written_leaves` (nothing changes).
    pub(super) fn load_params(&mut self, params: &[Value]) -> Result<(), Error> {
        self.read_written_leaves()?;
        let plan = &mut self.plan;
        plan.fit(params, &self.leaf_index, &self.leaves);
        let (data, fed) = (&self.buf.data[..], &self.fed[..]);
        let numbers = Rc::make_mut(&mut plan.data);
        for ((d, &k), p) in numbers.iter_mut().zip(&plan.placed.leaf).zip(params) {
            // (`ELSEWHERE` is past every leaf)
            *d = match k != ELSEWHERE && !fed[k as usize] {
                true => data[k as usize],
                false => p.data(),
            };
        }
        for (g, &k) in plan.other_grads.iter_mut().zip(&plan.others) {
            *g = self.leaves[k as usize].grad();
        }
        Ok(())
    }

    /// One step on the numbers [`load_params`](Tape::load_params) read (or the last
    /// step left): `zero_grad` and `flush_grads` on them, then
    /// [`Optimizer::step_numbers`], whose new data the tape takes too (the workers of
    /// the batch methods copy them in their next chunk, on their threads). No `Value`
    /// is touched. The sums stay until the next batch starts again from 0, or
    /// [`write_back`](Tape::write_back) resets them (a `Training` borrows the tape, so
    /// nothing reads them in between).
    ///
    /// # Errors
    ///
    /// Those of [`Optimizer::step_numbers`]; then the data and the optimiser are as
    /// before, and the grads as after `zero_grad` and `flush_grads`.
    pub(super) fn step_numbers(
        &mut self,
        opt: &mut (impl Optimizer + ?Sized),
        threads: usize,
    ) -> Result<(), Error> {
        self.values_change();
        let plan = &mut self.plan;
        let leaves = self.leaves.len();
        let fed = &self.fed[..leaves];
        // `zero_grad`, then `flush_grads`: 0 + the sum, for a leaf that gets one (the
        // parameters' block by block, on the threads that update them). (The sums are
        // set to 0 by `write_back`, or by the next batch.)
        let by_blocks = self.unflushed && plan.distinct;
        plan.summed |= self.unflushed;
        // (An optimiser of the user's may panic in its step: the step is then one
        // refused, and the numbers are made whole as after an error before the panic
        // goes on.)
        let caught = if self.unflushed {
            let sums = &self.buf.grad[..leaves];
            for (g, &k) in plan.other_grads.iter_mut().zip(&plan.others) {
                *g += sums[k as usize];
            }
            let placed = &plan.placed;
            let Buffers { data, grad, .. } = &mut self.buf;
            let (sums, data) = (&grad[..leaves], Mutex::new(&mut data[..leaves]));
            // Each block's new data into the tape's as soon as they are computed, if the
            // order of the blocks does not matter (else all at once, below).
            let after = |block: Range<usize>, new: &[f64]| {
                let mut data = data.lock().unwrap_or_else(PoisonError::into_inner);
                placed.put_data(block, new, &mut data, fed);
            };
            let around = Around {
                before: &|block, grads| placed.take_grads(block, grads, sums),
                after: if plan.distinct { &after } else { &|_, _| {} },
            };
            let (data, grads) = (Rc::make_mut(&mut plan.data), &mut plan.grads);
            catch_unwind(AssertUnwindSafe(|| {
                opt.step_numbers_around(data, grads, threads, &around)
            }))
        } else {
            plan.grads.fill(0.0);
            let (data, grads) = (Rc::make_mut(&mut plan.data), &plan.grads);
            catch_unwind(AssertUnwindSafe(|| opt.step_numbers(data, grads, threads)))
        };
        let (stepped, panic) = match caught {
            Ok(stepped) => (stepped, None),
            Err(panic) => {
                // (Its gradients as `flush_grads` gives them, whichever blocks it wrote.)
                if self.unflushed {
                    let (all, sums) = (0..plan.grads.len(), &self.buf.grad[..leaves]);
                    plan.placed.take_grads(all, &mut plan.grads, sums);
                }
                (Ok(()), Some(panic))
            }
        };
        let numbers = Rc::make_mut(&mut plan.data);
        for &[i, j] in &plan.repeated {
            numbers[i as usize] = numbers[j as usize];
        }
        self.buf.grads_finite = true;
        self.unflushed = false;
        // The new data into the tape's copy (again after a refused step: its old data),
        // unless the blocks already wrote them. The workers copy them on their own
        // threads, each in its next chunk.
        if !(by_blocks && stepped.is_ok() && panic.is_none()) {
            let (all, data) = (0..plan.data.len(), &mut self.buf.data[..leaves]);
            plan.placed.put_data(all, &plan.data, data, fed);
        }
        // (What was written is finite, new data that the optimiser checked or the old
        // again: finite leaves stay so, others may have become so.)
        self.buf.panels_stale = true;
        if !self.buf.leaves_finite {
            self.buf.leaves_finite = all_finite(&self.buf.data[..leaves]);
        }
        self.workers.invalidate();
        if let Some(panic) = panic {
            resume_unwind(panic);
        }
        stepped
    }

    /// Hands the numbers of the last step to the `Value`s: each parameter's data and
    /// the grad it stepped with, and the other leaves' grads. One pass over them.
    pub(super) fn write_back(&mut self, params: &[Value]) {
        let plan = &self.plan;
        for ((&d, &g), p) in plan.data.iter().zip(&plan.grads).zip(params) {
            set_stepped(p, d, g);
        }
        for (&g, &k) in plan.other_grads.iter().zip(&plan.others) {
            self.leaves[k as usize].set_grad(g);
        }
        // The sums were handed over: reset them, as `flush_grads` does. (Without sums,
        // the step handed over none: the last backward's gradient stays, for `grad_of`.)
        if std::mem::take(&mut self.plan.summed) {
            self.drop_sums();
        }
        // The tape holds the same numbers as the `Value`s, nothing to read back, unless
        // a leaf was written since the tape last read them (after a `Training`'s last
        // step): then the next run reads them all again.
        let fresh = data_writes() == self.leaves_read_at;
        count_data_write();
        if fresh {
            self.leaves_read_at = data_writes();
        }
    }
}

/// `p.zero_grad()`, `p.add_grad(grad)` and `p.set_data(data)` with one borrow of the
/// node: a step computed on the tape handed back to a parameter. The data write is not
/// counted: [`count_data_write`] is called after a pass of them.
#[inline]
fn set_stepped(p: &Value, data: f64, grad: f64) {
    let mut node = p.0.borrow_mut();
    node.grad = if node.requires_grad { 0.0 + grad } else { 0.0 };
    node.data = data;
}

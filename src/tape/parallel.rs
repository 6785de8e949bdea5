//! Mini-batches on several threads: the samples of a batch split across workers, each
//! with its own buffers over the tape's one [`Program`], and their gradients added up in
//! an order that does not depend on the number of threads.
//!
//! The batch is cut into chunks of [`CHUNK`] samples (the last may have fewer). Each
//! thread claims the next chunk no other has taken, and for each chunk adds up its
//! samples' gradients from 0, sample after sample, exactly as [`Tape::accumulate`]
//! would. Then the chunks' sums are added into the tape's sums one chunk after the
//! other, in chunk order:
//!
//! ```text
//! sums += chunk 0;  sums += chunk 1;  sums += chunk 2; ...
//! chunk c = ((0 + g(sample c·CHUNK)) + g(sample c·CHUNK + 1)) + ...
//! ```
//!
//! The chunks run in rounds of [`ROUND`] per worker, and each round's chunk sums are
//! added before the next round starts, so that they wait in memory for a few chunks per
//! thread, whatever the size of the batch; rounds follow chunk order, so they change no
//! addition either.
//!
//! A layer whose weights' gradients a chunk defers (`src/program/defer.rs`) records
//! its samples' numbers in the chunk's [`Lanes`], and the blocks of leaves that add
//! the chunks' sums up make each of its weights' chunk sums there too, from those
//! records, in chunk order: the same additions as the chunk would have made and the
//! block added, without storing 25,000 sums per chunk and reading them back.
//!
//! Which thread computed which chunk changes no addition, so the gradients are the same
//! bit for bit for 1, 2 or 16 threads, and without the `parallel` feature (which runs
//! every chunk on the calling thread). They are those of a single-thread program that
//! runs [`accumulate`](Tape::accumulate) over each chunk and
//! [`flush_grads`](Tape::flush_grads) after each (into grads that start at 0); they
//! are not always those of one `accumulate` over the whole batch, which adds the
//! samples in another grouping (float addition is not associative).

use super::{Inputs, Tape};
use crate::error::{Error, Pass};
use crate::program::{all_finite, disagreement, Buffers, Lanes, Program};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use crate::threads::{check_threads, share_with};

/// How many samples a chunk of [`Tape::accumulate_batch`] has: the unit of work of a
/// thread, and of the fixed order in which gradients are added up (see
/// `docs/tape.md`, "Threads"). A batch of 32 is four chunks, so up to four threads
/// share it.
pub const CHUNK: usize = crate::program::CHUNK;

/// How many chunks each worker takes in a round of a batch (see `run_round`): the
/// chunks' sums wait in memory until their round is over.
const ROUND: usize = 4;

/// Adding up the chunks' sums runs in four blocks of leaves per thread, each of at
/// least this many leaves: each leaf's additions do not depend on the blocks.
const BLOCK: usize = 4096;

/// `sums += chunk`, number by number (`chunk` may be longer: its first numbers).
fn add(sums: &mut [f64], chunk: &[f64]) {
    for (s, c) in sums.iter_mut().zip(chunk) {
        *s += c;
    }
}

/// A unit of a round on several threads: a chunk, or the adding up of the chunks' sums
/// of the leaves from the first given on (and whether the sums start at 0), into the
/// tape's sums given.
enum Unit<'a, S> {
    Chunk(Chunk<'a, S>),
    Add((usize, bool), &'a mut [f64]),
}

/// A chunk of a round on several threads, once it has run: its samples, its sums of
/// the leaves whose gradients it does not defer ([`Lanes::immediate`]), and what its
/// backward passes recorded of the deferred layers, for the blocks to add up.
struct Part<'a, S> {
    samples: &'a [S],
    sums: &'a [f64],
    lanes: &'a Lanes,
}

/// What a unit of a round on several threads found (a chunk: nothing, both `true`).
#[derive(Clone, Copy)]
struct Found {
    /// Whether every chunk's sum of a deferred weight was finite: if not, a sample's
    /// gradient may not have been, where the deferring passes do not look.
    deferred_finite: bool,
    /// Whether the tape's new sums are all finite.
    finite: bool,
}

/// A chunk's [`Found`]: nothing.
const CHUNK_RAN: Found = Found {
    deferred_finite: true,
    finite: true,
};

/// `grad += chunk` for each chunk's sums in chunk order, from leaf `first` on, each
/// chunk's as soon as it is `done` (if `fresh`, the sums start at 0: the first chunk's
/// are `0 + chunk`, the same numbers as after setting them to 0): the sums it stored,
/// and those of the deferred weights made here from its records. (Both `false` if a
/// chunk ended without its part: it failed, and the round will be run again.)
fn add_parts<S: AsRef<[f64]>>(
    program: &Program,
    done: &[OnceLock<Option<Part<'_, S>>>],
    (first, fresh): (usize, bool),
    grad: &mut [f64],
) -> Found {
    let block = first..first + grad.len();
    let mut deferred_finite = true;
    for (c, chunk) in done.iter().enumerate() {
        let part = loop {
            match chunk.get() {
                Some(part) => break part,
                // (Another thread is running it: one chunk at most.)
                None => std::thread::yield_now(),
            }
        };
        let Some(part) = part else {
            return Found {
                deferred_finite: false,
                finite: false,
            };
        };
        let add = !(fresh && c == 0);
        for r in part.lanes.immediate() {
            let leaves = r.start.max(block.start)..r.end.min(block.end);
            if leaves.is_empty() {
                continue;
            }
            let to = &mut grad[leaves.start - first..leaves.end - first];
            match add {
                true => self::add(to, &part.sums[leaves]),
                false => to
                    .iter_mut()
                    .zip(&part.sums[leaves])
                    .for_each(|(s, c)| *s = 0.0 + c),
            }
        }
        deferred_finite &= program.add_deferred(part.lanes, part.samples, (first, grad), add);
    }
    Found {
        deferred_finite,
        finite: all_finite(grad),
    }
}

/// Publishes a chunk's part when it has run; if it fails or panics, that it has none.
struct Finished<'d, 'a, S>(&'d OnceLock<Option<Part<'a, S>>>);

impl<'a, S> Finished<'_, 'a, S> {
    /// The chunk's part, for the blocks that add the sums up.
    fn publish(self, part: Part<'a, S>) {
        // (Set once: the drop that follows finds it set.)
        let _ = self.0.set(Some(part));
    }
}

impl<S> Drop for Finished<'_, '_, S> {
    fn drop(&mut self) {
        let _ = self.0.set(None);
    }
}

/// The workers of a tape's batch methods: their buffers, kept between batches. (The
/// threads are those of rayon's global pool, which the optimisers'
/// [`step_numbers`](crate::optim::Optimizer::step_numbers) use too: one pool, so that
/// no idle thread of another pool competes with the workers for the cores.)
#[derive(Default)]
pub(super) struct Workers {
    /// One per thread.
    workers: Vec<Worker>,
    /// The chunks' gradient sums, chunk after chunk, one entry per leaf each.
    sums: Vec<f64>,
    /// What the backward passes of each chunk of a round record of the deferred layers.
    lanes: Vec<Lanes>,
}

/// What a thread runs its chunks with: buffers, and whether they hold the tape's leaf
/// data.
struct Worker {
    buf: Buffers,
    /// Whether `buf` holds the tape's leaf data, but for the leaves its last samples
    /// filled (`filled`). Copied in by the first chunk it runs after the tape's leaves
    /// changed ([`Workers::invalidate`]: after every step, so on the worker's thread);
    /// `set_inputs` writes into ready workers as into the tape, so that they stay ready.
    ready: bool,
    /// The leaves its samples filled last.
    filled: Vec<u32>,
}

impl Worker {
    /// Makes `buf`'s leaves the tape's `leaf_data` (`finite`: whether they are all
    /// finite, as the tape keeps track), before samples that fill `nodes` (left as they
    /// are if the last samples filled the same leaves: each sample writes them before
    /// it runs).
    fn sync(&mut self, (leaf_data, finite): (&[f64], bool), nodes: &[u32]) {
        let buf = &mut self.buf;
        if !self.ready {
            buf.data[..leaf_data.len()].copy_from_slice(leaf_data);
            buf.leaves_finite = finite;
            buf.panels_stale = true;
            self.ready = true;
        } else if self.filled != nodes {
            for &k in &self.filled {
                buf.data[k as usize] = leaf_data[k as usize];
            }
            buf.leaves_finite = all_finite(&buf.data[..leaf_data.len()]);
            buf.panels_stale = true;
        } else {
            return;
        }
        self.filled.clear();
        self.filled.extend(nodes);
    }
}

impl Workers {
    /// Marks every worker's leaf data out of date: call it whenever the tape's leaf
    /// data change other than by a step or `set_inputs`.
    pub(super) fn invalidate(&mut self) {
        for worker in &mut self.workers {
            worker.ready = false;
        }
    }

    /// The buffers of the workers that hold the tape's leaf data (see
    /// [`Worker::ready`]), for `set_inputs` to write into as well.
    pub(super) fn ready(&mut self) -> impl Iterator<Item = &mut Buffers> {
        (self.workers.iter_mut())
            .filter(|w| w.ready)
            .map(|w| &mut w.buf)
    }
}

/// One chunk of a round: the unit of work a thread claims.
struct Chunk<'a, S> {
    /// Its place in the round.
    index: usize,
    /// Its samples.
    samples: &'a [S],
    /// What it records of each sample (`width` numbers each).
    results: &'a mut [f64],
    /// Where its gradient sums go.
    sums: Sums<'a>,
    /// What its backward passes record of the deferred layers.
    lanes: &'a mut Lanes,
}

/// Where a chunk's gradient sums go: nowhere (a forward-only batch), into its own
/// entries of [`Workers::sums`] (on several threads), or added into the tape's sums
/// (on one thread: the same additions, in chunk order, without storing them).
enum Sums<'a> {
    None,
    Store(&'a mut [f64]),
    Add(&'a mut [f64]),
}

impl Sums<'_> {
    /// Where the sums go, and whether they are added there (else stored).
    fn target(&mut self) -> Option<(&mut [f64], bool)> {
        match self {
            Sums::Store(to) => Some((to, false)),
            Sums::Add(to) => Some((to, true)),
            Sums::None => None,
        }
    }
}

/// What every worker reads: the program, the leaves' data before the batch, which
/// leaves a sample fills, and what to run.
struct Job<'a> {
    program: &'a Program,
    leaf_data: &'a [f64],
    /// Whether `leaf_data` is all finite (the tape's `leaves_finite`).
    leaves_finite: bool,
    inputs: &'a Inputs,
    backward: bool,
}

impl Tape {
    /// Runs forward and backward for every sample of a batch, on up to `threads`
    /// threads, adding the gradients into the tape's sums as
    /// [`accumulate`](Tape::accumulate) does (hand them to the `Value`s with
    /// [`flush_grads`](Tape::flush_grads), or read them with
    /// [`leaf_grads`](Tape::leaf_grads)). Returns each sample's loss (the root's
    /// value), in sample order.
    ///
    /// Each sample's numbers fill the leaves `inputs` names, as
    /// [`set_inputs`](Tape::set_inputs) would; every other leaf holds the tape's data
    /// (its `Value`'s data, or what `set_inputs` wrote into the tape before the call).
    /// The samples are cut into chunks of [`CHUNK`]; each thread takes whole chunks
    /// (a few at a time, so that the memory for their sums does not grow with the batch),
    /// with its own buffers over the tape's one [`Program`]; the chunks' gradients are
    /// added up in chunk order, so the result is the same bit for bit for any `threads`
    /// (see `docs/tape.md`, "Threads"). Without the
    /// `parallel` feature every chunk runs on the calling thread, with the same result.
    /// The tape's own [`value`](Tape::value) and [`outputs`](Tape::outputs) are not
    /// changed. An empty batch changes nothing at all (no sums are started: a
    /// [`backward`](Tape::backward) may follow without a flush).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `threads` is 0, if `inputs` was made by another
    /// tape, or if the batch has more than one sample and `inputs` (not empty) leaves
    /// out a target leaf of a loss's `_targets` form (every sample would train toward
    /// the one target the tape holds; nothing runs); [`Error::InputWidth`] if a sample does not
    /// have one number per input leaf (nothing runs); [`Error::ConstantTarget`] (nothing
    /// runs) if a loss of the graph took its target as a number. [`Error::NonFinite`] as
    /// [`accumulate`](Tape::accumulate) reports it, for the sample of lowest index
    /// that met a NaN or infinity, whichever thread ran it (or naming the leaf whose sum
    /// over the chunks overflowed); then the sums since the last flush are set to 0, as
    /// after an error of `accumulate`'s backward pass. No leaf `Value` is touched.
    ///
    /// # Panics
    ///
    /// If a closure of a [`Value::custom`](crate::Value::custom) op panics (on any
    /// thread), the panic goes on to the caller after the sums since the last flush are
    /// set to 0, as after an error: some samples' gradients were added and others not,
    /// and a later [`flush_grads`](Tape::flush_grads) must hand over no such part of a
    /// batch. No leaf `Value` is touched.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let (w, x) = (Value::new(3.0), Value::new(0.0));
    /// let mut tape = Tape::compile(&(&w * &x).powi(2))?;
    /// let input = tape.inputs(&[x.clone()])?;
    /// let samples = [[1.0], [2.0], [-1.0]];
    /// let losses = tape.accumulate_batch(&input, &samples, 2)?;
    /// assert_eq!(losses, [9.0, 36.0, 9.0]);           // (w x)^2
    /// tape.flush_grads();
    /// assert_eq!(w.grad(), 6.0 + 24.0 + 6.0);         // d/dw (w x)^2 = 2 w x^2
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn accumulate_batch<S: AsRef<[f64]> + Sync>(
        &mut self,
        inputs: &Inputs,
        samples: &[S],
        threads: usize,
    ) -> Result<Vec<f64>, Error> {
        self.run_batch(inputs, samples, threads, true)
    }

    /// Runs the forward pass alone for every sample of a batch, on up to `threads`
    /// threads (as [`evaluate`](Tape::evaluate) per sample): for evaluating a model on
    /// many samples. Returns each sample's [`outputs`](Tape::outputs) (the values named
    /// at [`compile_with_outputs`](Tape::compile_with_outputs)), in sample order: an
    /// empty row each for a tape compiled with none (its root's value, a loss, is what
    /// [`accumulate_batch`](Tape::accumulate_batch) returns). The samples fill the
    /// leaves as in `accumulate_batch`.
    ///
    /// # Errors
    ///
    /// As [`accumulate_batch`](Tape::accumulate_batch), with the errors of the forward
    /// pass only.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let (w, x) = (Value::new(3.0), Value::new(0.0));
    /// let score = &w * &x;
    /// let mut tape = Tape::compile_with_outputs(&score.relu(), &[score.clone()])?;
    /// let input = tape.inputs(&[x.clone()])?;
    /// let scores = tape.evaluate_batch(&input, &[[1.0], [-2.0]], 2)?;
    /// assert_eq!(scores, [[3.0], [-6.0]]);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn evaluate_batch<S: AsRef<[f64]> + Sync>(
        &mut self,
        inputs: &Inputs,
        samples: &[S],
        threads: usize,
    ) -> Result<Vec<Vec<f64>>, Error> {
        let width = self.program.outputs.len();
        let outputs = self.run_batch(inputs, samples, threads, false)?;
        Ok(match width {
            0 => vec![Vec::new(); samples.len()],
            _ => outputs.chunks(width).map(<[f64]>::to_vec).collect(),
        })
    }

    /// The batch methods: each sample's loss (with `backward`, which sums the
    /// gradients) or outputs (without), one after the other.
    fn run_batch<S: AsRef<[f64]> + Sync>(
        &mut self,
        inputs: &Inputs,
        samples: &[S],
        threads: usize,
        backward: bool,
    ) -> Result<Vec<f64>, Error> {
        check_threads(threads, "a batch")?;
        self.check_inputs(inputs)?;
        self.check_per_sample()?;
        // (One sample, or none fed, is one sample's graph with the targets it holds: a
        // graph of the whole batch, the targets set with `set_data`.)
        if backward && samples.len() > 1 && !inputs.nodes.is_empty() {
            self.check_targets_fed(inputs)?;
        }
        if let Some(bad) = samples.iter().find(|s| s.as_ref().len() != inputs.len()) {
            return Err(Error::InputWidth {
                expected: inputs.len(),
                got: bad.as_ref().len(),
            });
        }
        // (No samples: nothing to run and no sums to start, as a loop over no samples.)
        if samples.is_empty() {
            return Ok(Vec::new());
        }
        self.read_written_leaves()?;
        if backward {
            self.notice_no_grad();
        }
        let width = if backward {
            1
        } else {
            self.program.outputs.len()
        };
        let chunks = samples.len().div_ceil(CHUNK);
        let workers = threads.min(chunks).max(1);
        // The chunks run in rounds of a few per worker, each round's sums added before
        // the next: the memory for the sums depends on the threads, not on the batch.
        let round = workers * ROUND;
        let mut results = vec![0.0; samples.len() * width];
        // The leaves' entries hold the last `backward`'s gradient: the sums start at 0,
        // set by the first round.
        let mut fresh = backward && !self.unflushed;
        if fresh {
            self.unflushed = true;
            self.alone_elsewhere = false;
            self.alone_gone = false;
            self.backward_unfinished = false;
        }
        let per_round = round * CHUNK;
        let mut finite = false;
        // (A custom op's closure may panic in any round, after others added their sums:
        // then the sums are dropped, as after an error, before the panic goes on.)
        let rounds = catch_unwind(AssertUnwindSafe(|| {
            for (r, samples) in samples.chunks(per_round).enumerate() {
                let start = r * per_round * width;
                let results = &mut results[start..start + samples.len() * width];
                let ran = self.run_round(inputs, samples, results, threads, (backward, fresh));
                fresh = false;
                finite = self.drop_sums_on_error(ran, backward)?;
            }
            Ok(())
        }));
        rounds.unwrap_or_else(|panic| {
            if backward {
                self.drop_sums();
            }
            resume_unwind(panic)
        })?;
        // The sums over the chunks are looked at once, at the end: the rounds depend on
        // the threads, the final sums do not (nor which leaf's sum overflowed first).
        // (The last round's additions may have seen that they are all finite.)
        if backward && !finite {
            let checked = self.check_sums();
            self.drop_sums_on_error(checked, backward)?;
        }
        Ok(results)
    }

    /// `ran`, after setting the sums since the last flush to 0 if it is an error of a
    /// `backward` batch (as `accumulate` does after an error).
    fn drop_sums_on_error<T>(&mut self, ran: Result<T, Error>, backward: bool) -> Result<T, Error> {
        if ran.is_err() && backward {
            self.drop_sums();
        }
        ran
    }

    /// Sets the sums since the last flush to 0: after an error, or a panic, of a run
    /// that added into them, and once a step has handed them over.
    pub(super) fn drop_sums(&mut self) {
        self.buf.grad[..self.leaves.len()].fill(0.0);
    }

    /// One round of a batch: its chunks shared out among up to `threads` threads (each
    /// claiming the next chunk when it is free, with buffers of its own), run, and
    /// their sums added into the tape's. Returns whether those additions found every
    /// sum of the tape finite (`false`: not known).
    fn run_round<S: AsRef<[f64]> + Sync>(
        &mut self,
        inputs: &Inputs,
        samples: &[S],
        results: &mut [f64],
        threads: usize,
        (backward, fresh): (bool, bool),
    ) -> Result<bool, Error> {
        let leaves = self.leaves.len();
        let width = results.len() / samples.len().max(1);
        let chunks = samples.len().div_ceil(CHUNK);
        let workers = threads.min(chunks).max(1);
        let w = &mut self.workers;
        while w.workers.len() < workers {
            let data = self.buf.data.clone();
            let buf = Buffers::new(&self.program, data, true);
            w.workers.push(Worker {
                buf,
                ready: false,
                filled: Vec::new(),
            });
        }
        while w.lanes.len() < chunks {
            w.lanes.push(Lanes::new(&self.program, CHUNK));
        }
        // On one thread each chunk's sums go straight into the tape's, in chunk order:
        // the same additions as through `sums`, without storing them.
        let alone = workers == 1;
        let stored = if backward && !alone { leaves } else { 0 };
        w.sums.resize(chunks * stored, 0.0);
        let mut units = Vec::with_capacity(chunks);
        let (mut rest, mut sums) = (&mut *results, &mut w.sums[..]);
        for (samples, lanes) in samples.chunks(CHUNK).zip(&mut w.lanes) {
            let (results, r) = rest.split_at_mut(samples.len() * width);
            let (chunk_sums, s) = sums.split_at_mut(stored);
            (rest, sums) = (r, s);
            let sums = match stored {
                0 => Sums::None,
                _ => Sums::Store(chunk_sums),
            };
            units.push(Chunk {
                index: units.len(),
                samples,
                results,
                sums,
                lanes,
            });
        }
        let Buffers {
            data,
            grad,
            leaves_finite,
            ..
        } = &mut self.buf;
        let job = Job {
            program: &self.program,
            leaf_data: &data[..leaves],
            leaves_finite: *leaves_finite,
            inputs,
            backward,
        };
        let grad = &mut grad[..leaves];
        if alone {
            let worker = &mut w.workers[0];
            // (Whether the tape's sums are known to be finite: when every chunk stored
            // its sums there and knows they are, which only the first can: the others
            // add theirs.)
            let mut finite = true;
            for mut chunk in units {
                // Sums that start at 0 take the first chunk's as they are: a sum made
                // from +0.0 is never -0.0 (`x + y` is -0.0 only for two -0.0), so it is
                // `0.0 + sum`, bit for bit, without setting them to 0 first.
                if backward {
                    chunk.sums = match fresh && chunk.index == 0 {
                        true => Sums::Store(&mut *grad),
                        false => Sums::Add(&mut *grad),
                    };
                }
                finite &= job.run(worker, &mut chunk)?;
            }
            return Ok(finite);
        }
        // The chunks first, then the adding up of their sums, block by block of leaves,
        // in the same fork and join of the threads: a block adds each chunk's sums as
        // soon as that chunk (and those before it) is done.
        let done: Vec<OnceLock<Option<Part<'_, S>>>> =
            (0..chunks).map(|_| OnceLock::new()).collect();
        let mut units: Vec<Unit<'_, S>> = units.into_iter().map(Unit::Chunk).collect();
        if backward {
            let block = leaves.div_ceil(workers * 4).max(BLOCK);
            let blocks = grad.chunks_mut(block).enumerate();
            units.extend(blocks.map(|(b, grad)| Unit::Add((b * block, fresh), grad)));
        }
        let ran = share_with(&mut w.workers[..workers], units, |w, unit| match unit {
            Unit::Chunk(chunk) => {
                let finished = Finished(&done[chunk.index]);
                let part = job.run_part(w, chunk)?;
                finished.publish(part);
                Ok(CHUNK_RAN)
            }
            Unit::Add(from, grad) => Ok(add_parts(job.program, &done, from, grad)),
        });
        if !backward {
            // (A forward-only batch defers nothing: each chunk stopped at its own first
            // error, and the first in chunk order is the round's lowest failing sample's.)
            return ran
                .into_iter()
                .collect::<Result<Vec<Found>, Error>>()
                .map(|_| false);
        }
        let failed = ran.iter().any(Result::<Found, Error>::is_err);
        if failed || ran.iter().flatten().any(|f| !f.deferred_finite) {
            // A chunk failed, or a deferred weight's chunk sum is not finite (so some
            // sample's gradient was not, where the deferring passes do not look): which
            // sample failed first is what the chunks say when they run again one after
            // the other without deferring, as `Job::run` decides.
            let worker = &mut w.workers[0];
            for (c, samples) in samples.chunks(CHUNK).enumerate() {
                let results = &mut results[c * CHUNK * width..][..samples.len() * width];
                job.run_plain(worker, samples, results)?;
            }
            // (They must fail: a deferred chunk sum is the sum their passes make, and
            // those look at every gradient they write.)
            return Err(disagreement("backward"));
        }
        Ok(ran.iter().flatten().all(|f| f.finite))
    }

    /// `Ok` unless a leaf's sum is not finite (each chunk's sums were, their total is
    /// not): then an error naming the leaf, as `accumulate` gives when its sum over the
    /// runs overflows.
    fn check_sums(&self) -> Result<(), Error> {
        let grad = &self.buf.grad[..self.leaves.len()];
        if all_finite(grad) {
            return Ok(());
        }
        let hidden = &self.program.hidden;
        let bad = (0..grad.len()).find(|&i| !grad[i].is_finite() && !hidden[i]);
        let Some(leaf) = bad else {
            return Ok(());
        };
        Err(Error::NonFinite {
            pass: Pass::Backward,
            op: "",
            label: self.program.label_of(leaf),
            value: grad[leaf],
        })
    }
}

impl Job<'_> {
    /// Runs one chunk on a worker: its samples one after the other, their gradients
    /// added up from 0 and handed on as `chunk.sums` says. Stops at the first sample
    /// that fails, with its error.
    ///
    /// The deferred layers' weight gradients are added at the end of the chunk,
    /// straight into where the chunk's sums go (see `src/program/defer.rs`); if
    /// anything goes wrong before (an error, or a non-finite sum among those
    /// additions), the chunk runs again without deferring, and that run decides, sample
    /// by sample as `accumulate` would. (A non-finite chunk sum means that run fails
    /// too, and a failed batch sets the tape's sums to 0: the deferred additions
    /// already made there do not stay.)
    ///
    /// Returns whether the chunk stored its sums (not added them) and knows that they
    /// are all finite: then the tape need not look at them again.
    fn run<S: AsRef<[f64]>>(
        &self,
        worker: &mut Worker,
        chunk: &mut Chunk<'_, S>,
    ) -> Result<bool, Error> {
        let Chunk {
            samples,
            results,
            sums,
            lanes,
            ..
        } = chunk;
        worker.sync((self.leaf_data, self.leaves_finite), &self.inputs.nodes);
        let (leaves, buf) = (self.leaf_data.len(), &mut worker.buf);
        let mut added = false;
        if self.backward && lanes.any() {
            lanes.feed(&self.inputs.nodes);
            let ran = self.run_samples(buf, Some(&mut **lanes), samples, results);
            if ran.is_ok() {
                added = matches!(sums, Sums::Add(_));
                let finite = (sums.target()).is_none_or(|(to, add)| {
                    (self.program).add_deferred(lanes, samples, (0, to), add)
                });
                if finite {
                    hand_on(sums, &buf.grad, lanes.immediate());
                    return Ok(stored_finite(sums, buf));
                }
            }
        }
        self.run_samples(buf, None, samples, results)?;
        if added {
            // A chunk sum that is not finite means a sample's gradient was not: this run
            // must have failed. Never add the deferred sums twice.
            return Err(disagreement("backward"));
        }
        hand_on(sums, &buf.grad, std::slice::from_ref(&(0..leaves)));
        Ok(stored_finite(sums, buf))
    }

    /// Runs one chunk of a round on several threads: its samples one after the other,
    /// the deferred layers recorded in its lanes, and the sums of the other leaves
    /// stored where `chunk.sums` says; returns the chunk's part, for the blocks that
    /// add the sums up (see [`add_parts`]). Stops at the first sample that fails, with
    /// its error; which sample fails first is then decided by `run_plain`.
    fn run_part<'a, S: AsRef<[f64]>>(
        &self,
        worker: &mut Worker,
        chunk: Chunk<'a, S>,
    ) -> Result<Part<'a, S>, Error> {
        let Chunk {
            samples,
            results,
            mut sums,
            lanes,
            ..
        } = chunk;
        worker.sync((self.leaf_data, self.leaves_finite), &self.inputs.nodes);
        let deferring = self.backward && lanes.any();
        if deferring {
            lanes.feed(&self.inputs.nodes);
        }
        let recording = deferring.then_some(&mut *lanes);
        self.run_samples(&mut worker.buf, recording, samples, results)?;
        hand_on(&mut sums, &worker.buf.grad, lanes.immediate());
        let sums = match sums {
            Sums::Store(sums) => &*sums,
            Sums::Add(_) | Sums::None => &[],
        };
        Ok(Part {
            samples,
            sums,
            lanes,
        })
    }

    /// Runs the samples of a chunk one after the other on a worker without deferring,
    /// as `accumulate` would (their sums go nowhere): the first error is theirs.
    fn run_plain<S: AsRef<[f64]>>(
        &self,
        worker: &mut Worker,
        samples: &[S],
        results: &mut [f64],
    ) -> Result<(), Error> {
        worker.sync((self.leaf_data, self.leaves_finite), &self.inputs.nodes);
        self.run_samples(&mut worker.buf, None, samples, results)
    }

    /// The samples of a chunk, one after the other, into `buf`'s leaf gradients from 0;
    /// with `lanes`, the deferred weight gradients recorded there (and their leaves'
    /// entries not touched).
    fn run_samples<S: AsRef<[f64]>>(
        &self,
        buf: &mut Buffers,
        mut lanes: Option<&mut Lanes>,
        samples: &[S],
        results: &mut [f64],
    ) -> Result<(), Error> {
        let (program, leaves) = (self.program, self.leaf_data.len());
        let width = results.len() / samples.len().max(1);
        match lanes.as_deref() {
            Some(lanes) => lanes
                .immediate()
                .iter()
                .for_each(|r| buf.grad[r.clone()].fill(0.0)),
            None => buf.grad[..leaves].fill(0.0),
        }
        for (i, sample) in samples.iter().enumerate() {
            let result = &mut results[i * width..(i + 1) * width];
            let (nodes, feeds_layers) = (&self.inputs.nodes, self.inputs.feed_layers);
            buf.set_leaves(leaves, nodes, sample.as_ref(), feeds_layers);
            let value = program.forward(buf)?;
            if self.backward {
                if let Some(lanes) = lanes.as_deref_mut() {
                    lanes.lane = i;
                }
                program.backward_deferring(buf, lanes.as_deref_mut(), || None)?;
                result[0] = value;
            } else {
                for (r, &k) in result.iter_mut().zip(&program.outputs) {
                    *r = buf.data[k as usize];
                }
            }
        }
        Ok(())
    }
}

/// Whether a chunk's sums went to `sums` as they are and are known to be finite: its
/// backward passes left `buf`'s leaves' gradients all finite (a deferred layer's chunk
/// sums, stored from `Lanes`, were found finite as they were made).
fn stored_finite(sums: &Sums<'_>, buf: &Buffers) -> bool {
    matches!(sums, Sums::Store(_)) && buf.grads_finite
}

/// Hands a chunk's sums of the leaves `ranges` on from `grad`, as `sums` says.
fn hand_on(sums: &mut Sums<'_>, grad: &[f64], ranges: &[std::ops::Range<usize>]) {
    let Some((to, added)) = sums.target() else {
        return;
    };
    for r in ranges {
        match added {
            true => add(&mut to[r.clone()], &grad[r.clone()]),
            false => to[r.clone()].copy_from_slice(&grad[r.clone()]),
        }
    }
}

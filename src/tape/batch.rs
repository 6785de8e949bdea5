//! Mini-batches on one tape: compile the graph of *one* sample, then run it once per
//! sample with new inputs, summing the parameters' gradients inside the tape, and hand
//! them to the `Value`s once per batch.
//!
//! [`forward`](Tape::forward) and [`backward`](Tape::backward) talk to the leaf `Value`s
//! on every run: they read every leaf's data and add into every leaf's grad. For a model
//! with many parameters and a small graph per sample (an MLP on MNIST: 25,000 weights,
//! one image), that traffic costs as much as the arithmetic. The methods here keep the
//! leaves' data and gradients in the tape between runs:
//!
//! 1. per sample, [`set_inputs`](Tape::set_inputs) writes the sample into the tape (not
//!    into the input `Value`s), and [`accumulate`](Tape::accumulate) runs forward and
//!    backward, adding d loss / d leaf into the tape's per-leaf sums;
//! 2. [`flush_grads`](Tape::flush_grads) adds those sums into the leaf `Value`s' grads
//!    and resets them; then the optimiser steps as usual.
//!
//! The optimiser changes the parameters through their `Value`s; the next run notices
//! that leaf data was written (a per-thread count of data writes, one compare per run)
//! and reads every leaf again, except those `set_inputs` fed.
//!
//! [`evaluate`](Tape::evaluate) runs the forward pass alone (for held-out data), and
//! [`outputs`](Tape::outputs) reads values named at
//! [`compile_with_outputs`](Tape::compile_with_outputs), such as a network's scores.

use std::collections::{HashMap, HashSet};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use super::layout::leaf_name;
use super::Tape;
use crate::engine::Value;
use crate::error::Error;
use crate::program::all_finite;
use crate::watch::data_writes;

/// Which leaves of a [`Tape`] a sample fills, in order: made by [`Tape::inputs`], used
/// by [`Tape::set_inputs`].
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The leaves' node indices.
    pub(super) nodes: Vec<u32>,
    /// The [`Tape::id`] of the tape it was made for.
    tape: u64,
    /// Whether some of the leaves are weights of a layer (see `layer.rs`), whose copy
    /// must be refreshed when they are written.
    pub(super) feed_layers: bool,
}

impl Inputs {
    /// How many numbers a sample has: the number of input leaves.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = [Value::new(1.0), Value::new(2.0)];
    /// let tape = Tape::compile(&(&x[0] * &x[1]))?;
    /// assert_eq!(tape.inputs(&x)?.len(), 2);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether there are no input leaves.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(1.0);
    /// let tape = Tape::compile(&x.exp())?;
    /// assert!(tape.inputs(&[])?.is_empty());
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

impl Tape {
    /// Copies every leaf `Value`'s data into the tape, as [`forward`](Tape::forward)
    /// does first, including the leaves that [`set_inputs`](Tape::set_inputs) wrote.
    ///
    /// No correct program needs it: every run reads the leaves again by itself when a
    /// `Value`'s data was written since (by `set_data` or an optimiser's `step`), and
    /// keeps the numbers `set_inputs` wrote. It remains to drop those numbers, for
    /// programs written before the tape noticed writes by itself.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let w = Value::new(2.0);
    /// let mut tape = Tape::compile(&(&w * &w))?;
    /// w.set_data(3.0);
    /// assert_eq!(tape.accumulate()?, 9.0);   // read by itself
    /// tape.read_leaves();                    // not needed
    /// assert_eq!(tape.accumulate()?, 9.0);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn read_leaves(&mut self) {
        self.fed.fill(false);
        self.copy_leaves();
    }

    /// Reads the data of every leaf not fed by [`set_inputs`](Tape::set_inputs) from
    /// its `Value`, if any `Value`'s data was written since the tape last did: one
    /// compare per run when nothing was.
    ///
    /// # Errors
    ///
    /// If a leaf is a parameter a [`Training`](super::Training) of another tape holds
    /// ([`check_not_held`](Tape::check_not_held)); [`Error::ConstantTarget`] if a loss
    /// of the graph took its target as a number and a leaf that gets no gradient (an
    /// input, also one marked `no_grad` after compiling) holds another number than when
    /// the tape was compiled: another sample.
    pub(super) fn read_written_leaves(&mut self) -> Result<(), Error> {
        self.check_not_held()?;
        self.notice_labels();
        if data_writes() != self.leaves_read_at {
            self.copy_leaves();
        }
        // (Empty unless the graph holds a target as a number.)
        let data = &self.buf.data;
        let input = |k: usize| {
            self.program.frozen.binary_search(&(k as u32)).is_ok()
                || !self.leaves[k].requires_grad()
        };
        let other = |&(k, bits): &(u32, u64)| {
            let k = k as usize;
            data[k].to_bits() != bits && input(k)
        };
        if self.compiled_sample.iter().any(other) {
            self.check_per_sample()?;
        }
        Ok(())
    }

    /// Copies the data of every leaf `Value` not fed by `set_inputs` into the tape.
    fn copy_leaves(&mut self) {
        self.values_change();
        self.leaves_read_at = data_writes();
        let leaves = self.buf.data.iter_mut().zip(&self.leaves).zip(&self.fed);
        for ((d, leaf), &fed) in leaves {
            if !fed {
                *d = leaf.data();
            }
        }
        self.buf.leaves_finite = all_finite(&self.buf.data[..self.leaves.len()]);
        self.buf.panels_stale = true;
        self.workers.invalidate();
    }

    /// Names the leaves that [`set_inputs`](Tape::set_inputs) fills, in the order of a
    /// sample's numbers (a sample's features, or its features then its one-hot label).
    ///
    /// # Errors
    ///
    /// [`Error::NotOnTape`] if one of `leaves` is not a leaf of this tape;
    /// [`Error::InvalidInput`] if one is listed twice (naming it and both places).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let (w, x) = (Value::new(2.0), Value::new(0.0));
    /// let tape = Tape::compile(&(&w * &x))?;
    /// assert!(tape.inputs(&[x.clone()]).is_ok());
    /// assert!(matches!(tape.inputs(&[x.exp()]), Err(Error::NotOnTape { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn inputs(&self, leaves: &[Value]) -> Result<Inputs, Error> {
        let nodes = leaves
            .iter()
            .map(|leaf| match self.leaf_index.get(&leaf.address()) {
                Some(&i) => Ok(i),
                None => Err(Error::NotOnTape {
                    label: leaf.label(),
                }),
            })
            .collect::<Result<Vec<u32>, _>>()?;
        // (Each sample's numbers fill the leaves in turn: one listed twice would keep the
        // last of its two numbers.)
        let mut first_at = HashMap::with_capacity(nodes.len());
        for (at, &k) in nodes.iter().enumerate() {
            if let Some(first) = first_at.insert(k, at) {
                let name = leaf_name(&leaves[at]);
                return Err(Error::InvalidInput(format!(
                    "tape.inputs(..): {name} is listed twice (at {first} and {at}); a \
                     sample has one number per input leaf: list each leaf once"
                )));
            }
        }
        let weights: HashSet<u32> = self.program.gather.iter().copied().collect();
        Ok(Inputs {
            feed_layers: nodes.iter().any(|k| weights.contains(k)),
            nodes,
            tape: self.id,
        })
    }

    /// Writes one sample into the tape's copy of the input leaves (the input `Value`s
    /// are not touched), for the next [`accumulate`](Tape::accumulate).
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `sample` does not have one number per input leaf;
    /// [`Error::InvalidInput`] if `inputs` was made by another tape;
    /// [`Error::ConstantTarget`] if a loss of the graph took its target as a number
    /// (the tape would keep the compiled sample's target for every sample).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let (w, x) = (Value::new(2.0), Value::new(0.0));
    /// let mut tape = Tape::compile(&(&w * &x))?;
    /// let input = tape.inputs(&[x.clone()])?;
    /// tape.set_inputs(&input, &[5.0])?;
    /// assert_eq!(tape.accumulate()?, 10.0);
    /// assert_eq!(x.data(), 0.0);
    /// assert!(tape.set_inputs(&input, &[1.0, 2.0]).is_err());
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn set_inputs(&mut self, inputs: &Inputs, sample: &[f64]) -> Result<(), Error> {
        self.check_inputs(inputs)?;
        self.check_per_sample()?;
        if sample.len() != inputs.len() {
            return Err(Error::InputWidth {
                expected: inputs.len(),
                got: sample.len(),
            });
        }
        self.values_change();
        for &k in &inputs.nodes {
            self.fed[k as usize] = true;
        }
        let leaves = self.leaves.len();
        // Into the tape, and into the workers that hold its leaf data (so they still do).
        for buf in std::iter::once(&mut self.buf).chain(self.workers.ready()) {
            buf.set_leaves(leaves, &inputs.nodes, sample, inputs.feed_layers);
        }
        self.fed_unrun = true;
        Ok(())
    }

    /// One run for a mini-batch: forward from the leaves' data (the numbers
    /// [`set_inputs`](Tape::set_inputs) wrote for the leaves it fed, the `Value`s' data
    /// for the others, read again whenever a `Value`'s data was written), then backward, **adding** d root / d leaf into the
    /// tape's own per-leaf sums instead of into the leaf `Value`s. Returns the root's
    /// value. [`flush_grads`](Tape::flush_grads) hands the sums to the `Value`s.
    ///
    /// Summed over a batch this gives the same gradients as a
    /// [`forward`](Tape::forward) + [`backward`](Tape::backward) per sample.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] as [`forward`](Tape::forward) and
    /// [`backward`](Tape::backward) report it. After a backward error the sums since the
    /// last flush are set to 0 (no leaf `Value` is touched).
    ///
    /// # Panics
    ///
    /// If a closure of a [`Value::custom`](crate::Value::custom) op panics, the panic
    /// goes on to the caller after the sums since the last flush are set to 0, as after
    /// an error (the run may have added part of its gradient), so that a later
    /// [`flush_grads`](Tape::flush_grads) hands over no part of a run. No leaf `Value` is
    /// touched; a panic in the forward pass also makes [`backward`](Tape::backward) an
    /// error until a forward finishes (see [`forward`](Tape::forward)).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let (w, x) = (Value::new(3.0), Value::new(0.0));
    /// let mut tape = Tape::compile(&(&w * &x))?;
    /// let input = tape.inputs(&[x.clone()])?;
    /// for sample in [1.0, 2.0, 4.0] {
    ///     tape.set_inputs(&input, &[sample])?;
    ///     tape.accumulate()?;
    /// }
    /// assert_eq!(w.grad(), 0.0);              // not flushed yet
    /// tape.flush_grads();
    /// assert_eq!(w.grad(), 7.0);              // d (w x) / dw = x, summed
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn accumulate(&mut self) -> Result<f64, Error> {
        // (A custom op's closure may panic half way through adding into the sums: they
        // are dropped then, as after an error, before the panic goes on.)
        catch_unwind(AssertUnwindSafe(|| self.accumulate_once())).unwrap_or_else(|panic| {
            if self.unflushed {
                self.drop_sums();
            }
            resume_unwind(panic)
        })
    }

    /// [`accumulate`](Tape::accumulate), but for what it does when a closure panics.
    fn accumulate_once(&mut self) -> Result<f64, Error> {
        let value = self.run_forward()?;
        if !self.unflushed {
            // The leaves' entries hold the last `backward`'s gradient: start the sums.
            let first = self.leaves.len();
            self.buf.grad[..first].fill(0.0);
            self.buf.grads_finite = true;
            self.unflushed = true;
            self.alone_elsewhere = false;
            self.alone_gone = false;
            self.backward_unfinished = false;
        }
        self.run_backward(false)?;
        Ok(value)
    }

    /// Forward only, from the leaf data the tape holds (as [`accumulate`](Tape::accumulate)
    /// runs it, without the backward): for evaluating a model on many samples with
    /// [`set_inputs`](Tape::set_inputs), reading the scores with
    /// [`outputs`](Tape::outputs). Returns the root's value.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] as [`forward`](Tape::forward) reports it.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let (w, x) = (Value::new(3.0), Value::new(0.0));
    /// let score = &w * &x;
    /// let mut tape = Tape::compile_with_outputs(&score.relu(), &[score.clone()])?;
    /// let input = tape.inputs(&[x.clone()])?;
    /// tape.set_inputs(&input, &[-2.0])?;
    /// assert_eq!(tape.evaluate()?, 0.0);
    /// assert_eq!(tape.outputs().next(), Some(-6.0));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn evaluate(&mut self) -> Result<f64, Error> {
        self.run_forward()
    }

    /// `Ok` unless a loss of the graph took its target as a number (or picked a logit
    /// by a class index): then the tape is right for the compiled sample only, and may
    /// not be run over others.
    ///
    /// # Errors
    ///
    /// [`Error::ConstantTarget`] naming the loss and the form to use instead.
    pub(super) fn check_per_sample(&self) -> Result<(), Error> {
        match self.program.constant_target {
            None => Ok(()),
            Some((loss, instead)) => Err(Error::ConstantTarget { loss, instead }),
        }
    }

    /// An error if a target leaf of a loss's `_targets` form is not among `inputs`: a
    /// batch of samples run so would train every sample toward the one target the tape
    /// holds.
    pub(super) fn check_targets_fed(&self, inputs: &Inputs) -> Result<(), Error> {
        let missing = (self.program.targets.iter()).find(|k| !inputs.nodes.contains(k));
        match missing {
            None => Ok(()),
            Some(&k) => Err(Error::InvalidInput(format!(
                "{} is a target of the loss but not one of the batch's inputs: every \
                 sample would train toward the one target the tape holds; list the \
                 targets in Tape::inputs after the model's inputs, and give each sample \
                 its targets (the same number in each, if they share one)",
                super::layout::leaf_name(&self.leaves[k as usize]),
            ))),
        }
    }

    /// An error unless `inputs` were made by this tape.
    pub(super) fn check_inputs(&self, inputs: &Inputs) -> Result<(), Error> {
        if inputs.tape != self.id {
            return Err(Error::InvalidInput(
                "these Inputs were made by another tape (Tape::inputs)".to_owned(),
            ));
        }
        Ok(())
    }

    /// Adds the gradients summed by [`accumulate`](Tape::accumulate) into the leaf
    /// `Value`s' grads (as [`backward`](Tape::backward) would have, run by run) and
    /// resets the sums to 0.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let w = Value::new(3.0);
    /// let mut tape = Tape::compile(&(&w * &w))?;
    /// tape.accumulate()?;
    /// tape.accumulate()?;
    /// tape.flush_grads();
    /// tape.flush_grads();                     // nothing left to add
    /// assert_eq!(w.grad(), 12.0);             // 2 runs of d (w w) / dw = 2 w
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn flush_grads(&mut self) {
        if !self.unflushed {
            return;
        }
        self.unflushed = false;
        let first = self.leaves.len();
        for (leaf, g) in self.leaves.iter().zip(&mut self.buf.grad[..first]) {
            leaf.add_grad(*g);
            *g = 0.0;
        }
        self.buf.grads_finite = true;
    }
}

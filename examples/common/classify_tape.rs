//! The digit classifiers' training and evaluation through a compiled [`Tape`]: the same
//! mini-batch SGD as `classify::train_epoch`, with the graph of *one* image compiled once
//! and run per image (see `docs/tape.md`, "Mini-batches"), the images of a batch split
//! across threads (`Tape::accumulate_batch`: the same numbers for any thread count; see
//! `docs/tape.md`, "Threads").

use micrograd::loss;
use micrograd::nn::MLP;
use micrograd::optim::{check_loss, Optimizer};
use micrograd::tape::{Inputs, Tape};
use micrograd::Value;

use micrograd::data::{one_hot, Batch, Dataset};

use super::Result;

/// One image's loss on a tape, and the leaves that each image (and batch) fills in.
pub struct ImageTape {
    tape: Tape,
    /// The leaves of the pixels, the one-hot label and the scale (for `Tape::check`).
    leaves: [Vec<Value>; 3],
    /// The pixels.
    image: Inputs,
    /// The pixels, then the one-hot label: one training sample.
    sample: Inputs,
    /// `1 / batch size`, so that the gradients summed over a batch are those of the
    /// batch's mean loss.
    scale: Inputs,
    /// The samples of the current batch (pixels, then one-hot label), reused when the
    /// data's rows do not hold their labels (see [`append_one_hot`](Self::append_one_hot)).
    rows: Vec<Vec<f64>>,
    /// How many threads run a batch (`--threads`, or as many as pay for the work).
    threads: usize,
}

impl ImageTape {
    /// Builds and compiles `cross_entropy(model(x), onehot(y)) * scale` with leaves for
    /// `x`, the one-hot `y` and `scale`, keeping the logits as outputs. Batches run on
    /// `threads` threads, or (`None`) on as many as pay for a batch of `batch_size`
    /// (`Tape::threads_for`: one, unless the model is large).
    ///
    /// The loss is the crate's `loss::softmax_cross_entropy_onehot`: the label is a
    /// row of leaves (one-hot), not an index, so one tape serves every class.
    pub fn compile(model: &MLP, threads: Option<usize>, batch_size: usize) -> Result<ImageTape> {
        // Inputs: no gradient needed (nobody reads it), so the tape computes none.
        let leaves = |n: usize| {
            (0..n)
                .map(|_| Value::new(0.0).no_grad())
                .collect::<Vec<_>>()
        };
        let leaves = [leaves(model.nin()), leaves(model.nout()), leaves(1)];
        let (loss, logits) = image_loss(model, &leaves)?;
        let tape = Tape::compile_with_outputs(&loss, &logits)?;
        let threads = threads.unwrap_or_else(|| tape.threads_for(batch_size));
        Ok(ImageTape {
            image: tape.inputs(&leaves[0])?,
            sample: tape.inputs(&[&leaves[0][..], &leaves[1][..]].concat())?,
            scale: tape.inputs(&leaves[2])?,
            tape,
            leaves,
            rows: Vec::new(),
            threads,
        })
    }

    /// How many threads run a batch.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// `Tape::check`: builds the loss's graph again on the tape's current numbers (the
    /// last image run, the parameters as they are) and compares it with the tape.
    pub fn check(&mut self, model: &MLP) -> Result {
        let leaves = &self.leaves;
        self.tape.check(|| Ok(image_loss(model, leaves)?.0))?;
        Ok(())
    }

    /// Appends to each image of `data` its one-hot label, once before training: then
    /// [`train_epoch`](Self::train_epoch) hands its rows to the threads as they are,
    /// instead of copying each image and label of every batch into a row of its own on
    /// the calling thread (about 40 µs per batch of 32 MNIST images here, a fifteenth of
    /// a batch on one thread). Evaluate on images without labels
    /// ([`accuracy`](Self::accuracy)).
    pub fn append_one_hot(&self, data: &mut Dataset) -> Result {
        if let Some(x) = data.inputs.iter().find(|x| x.len() != self.image.len()) {
            let (got, expected) = (x.len(), self.image.len());
            return Err(format!("an image of {got} pixels; the model takes {expected}").into());
        }
        Ok(data.append_one_hot(self.sample.len() - self.image.len())?)
    }

    /// One epoch of mini-batch training, as `classify::train_epoch`: per batch, every
    /// image runs forward and backward on the tape's program (on the threads; gradients
    /// summed in the tape in a fixed order), then the optimiser steps from the tape's
    /// sums, on the threads too. A `Training` keeps the parameters as numbers between
    /// the batches and writes the model's `Value`s when the epoch ends: the numbers of
    /// `Tape::flush_and_step` after every batch. Returns the mean batch loss. `train`'s
    /// rows are images, or images with their one-hot labels appended
    /// ([`append_one_hot`](Self::append_one_hot)).
    pub fn train_epoch<'a>(
        &mut self,
        opt: &mut impl Optimizer,
        batches: impl ExactSizeIterator<Item = Batch<'a>>,
        step: &mut usize,
        mut after_step: impl FnMut(),
    ) -> Result<f64> {
        let n = batches.len();
        let mut sum = 0.0;
        let classes = self.sample.len() - self.image.len();
        let mut training = self.tape.train(opt, self.threads)?;
        for Batch { inputs, labels } in batches {
            training.set_inputs(&self.scale, &[1.0 / inputs.len() as f64])?;
            let labelled = inputs.iter().all(|x| x.len() == self.sample.len());
            if !labelled {
                self.rows.resize_with(inputs.len(), Vec::new);
                for ((row, x), &y) in self.rows.iter_mut().zip(&inputs).zip(&labels) {
                    row.clear();
                    row.extend_from_slice(x);
                    row.extend(one_hot(y, classes)?);
                }
            }
            // for x, y in batch: loss(x, y).backward()
            // opt.zero_grad(); tape.flush_grads(); opt.step()   (the `Value`s at the end)
            let losses = match labelled {
                true => training.step(&self.sample, &inputs)?,
                false => training.step(&self.sample, &self.rows)?,
            };
            let loss = losses.iter().sum();
            check_loss(*step, loss)?;
            sum += loss;
            *step += 1;
            after_step();
        }
        training.finish();
        Ok(sum / n as f64)
    }

    /// The fraction of `data` whose largest logit is its label, as `classify::accuracy`.
    pub fn accuracy(&mut self, data: &Dataset) -> Result<f64> {
        let mut correct = 0;
        let logits = (self.tape).evaluate_batch(&self.image, &data.inputs, self.threads)?;
        for (logits, &y) in logits.iter().zip(&data.labels) {
            // The first largest logit, as `loss::argmax`.
            let (best, _) =
                logits
                    .iter()
                    .enumerate()
                    .fold((0, f64::NEG_INFINITY), |(bi, bz), (i, &z)| {
                        if z > bz {
                            (i, z)
                        } else {
                            (bi, bz)
                        }
                    });
            correct += usize::from(best as f64 == y);
        }
        Ok(correct as f64 / data.len() as f64)
    }
}

/// One image's scaled loss and its logits, from the leaves of the pixels, the one-hot
/// label and the scale (see [`ImageTape::compile`]).
pub fn image_loss(
    model: &MLP,
    [x, y, scale]: &[Vec<Value>; 3],
) -> std::result::Result<(Value, Vec<Value>), micrograd::Error> {
    let logits = model.forward(x)?;
    let loss = loss::softmax_cross_entropy_onehot(&logits, y)?;
    Ok((loss * &scale[0], logits))
}

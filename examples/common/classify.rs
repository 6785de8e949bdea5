//! What the digit classifiers (`06_digits`, `07_mnist`, `09_codegen`) share: their
//! training flags, the hold-out split, checks of the data, the loss of one mini-batch, an
//! epoch of training, and held-out accuracy.

use std::path::{Path, PathBuf};

use micrograd::data::{Batch, Dataset};
use micrograd::nn::{Activation, Init, Module, MLP};
use micrograd::optim::{check_loss, Optimizer};
use micrograd::{loss, Value};

use super::{checked_number, number, opt_checked_number, Result};

/// The flags of a training run.
pub struct Training {
    /// `--epochs`: passes over the training set.
    pub epochs: usize,
    /// `--batch-size`: samples per step.
    pub batch_size: usize,
    /// `--lr`: the optimiser's learning rate.
    pub lr: f64,
    /// `--seed`: seeds the initial weights and the shuffles.
    pub seed: u64,
    /// `--holdout`: how many samples to keep for testing (`None`: the example's default).
    pub holdout: Option<usize>,
    /// `--threads`: how many threads run a batch through the tape (`None`: as many as
    /// pay for the work, `Tape::threads_for`).
    pub threads: Option<usize>,
}

impl Training {
    /// Reads `--epochs`, `--batch-size`, `--lr`, `--seed`, `--holdout` and `--threads`, taking the
    /// value in `defaults` for each flag that is absent; fails on a value out of range.
    pub fn from_args(args: &mut pico_args::Arguments, defaults: Training) -> Result<Training> {
        let positive = |args: &mut _, name, default| {
            checked_number(args, name, default, "at least 1", |&n: &usize| n >= 1)
        };
        Ok(Training {
            epochs: positive(args, "--epochs", defaults.epochs)?,
            batch_size: positive(args, "--batch-size", defaults.batch_size)?,
            lr: checked_number(args, "--lr", defaults.lr, "finite and > 0", |x: &f64| {
                x.is_finite() && *x > 0.0
            })?,
            seed: number(args, "--seed")?.unwrap_or(defaults.seed),
            holdout: opt_checked_number(args, "--holdout", "at least 1", |&n| n >= 1)?
                .or(defaults.holdout),
            threads: opt_checked_number(args, "--threads", "at least 1", |&n| n >= 1)?
                .or(defaults.threads),
        })
    }
}

/// The flags of a run on MNIST (`07_mnist`, `09_codegen`): where the data is, how many
/// training images to use, and the training flags.
pub struct MnistRun {
    /// `--data DIR`: the folder of MNIST's IDX files [`../shared/data/mnist`].
    pub dir: PathBuf,
    /// `--limit N`: train on only the first N training images [all].
    pub limit: Option<usize>,
    /// The training flags, with MNIST's defaults: 5 epochs of batches of 32, Adam's
    /// learning rate 0.002, seed 0.
    pub training: Training,
}

impl MnistRun {
    /// Reads `--data`, `--limit` and the training flags; `holdout` and `threads` are the
    /// example's defaults for `--holdout` and `--threads`.
    pub fn from_args(
        args: &mut pico_args::Arguments,
        holdout: Option<usize>,
        threads: Option<usize>,
    ) -> Result<MnistRun> {
        let dir: Option<PathBuf> = args.opt_value_from_str("--data")?;
        let limit = opt_checked_number(args, "--limit", "at least 1", |&n: &usize| n >= 1)?;
        let defaults = Training {
            epochs: 5,
            batch_size: 32,
            lr: 0.002,
            seed: 0,
            holdout,
            threads,
        };
        Ok(MnistRun {
            dir: dir.unwrap_or_else(|| PathBuf::from("../shared/data/mnist")),
            limit,
            training: Training::from_args(args, defaults)?,
        })
    }
}

/// The batch a run took, for its summary line: `batch 32`, or, when `--batch-size` is more
/// than the `train` training samples (each batch is then the whole training set),
/// `batch 1438 (the whole training set; --batch-size 100000)`: the size each step
/// really had, not the flag's.
pub fn batch_taken(batch_size: usize, train: usize) -> String {
    if batch_size > train {
        format!("batch {train} (the whole training set; --batch-size {batch_size})")
    } else {
        format!("batch {batch_size}")
    }
}

/// Splits the last `n` samples off `data` for testing, or says why it cannot.
pub fn hold_out(data: &mut Dataset, n: usize) -> Result<Dataset> {
    if n >= data.len() {
        let len = data.len();
        return Err(format!(
            "--holdout {n} leaves nothing to train on: there are {len} samples; pass fewer than {len}"
        )
        .into());
    }
    Ok(data.split_off_last(n)?)
}

/// `Ok` if every label of `data` (read from `path`) is a digit `0.0, 1.0, ..., 9.0`;
/// otherwise an error naming the first sample that is not (counting from 0) and its label.
pub fn check_digit_labels(data: &Dataset, path: &Path) -> Result {
    check_class_labels(data, path, 10, "the digits 0 to 9")
}

/// `Ok` if every label of `data` (read from `path`) is one of the `classes` classes
/// `0.0, 1.0, ...`; otherwise an error naming the first sample that is not (counting from
/// 0), its label, and what the labels must be (`expected`, e.g. `the classes 0, 1 and 2`).
pub fn check_class_labels(data: &Dataset, path: &Path, classes: usize, expected: &str) -> Result {
    let last = classes.saturating_sub(1) as f64;
    let not_class = |y: &f64| !((0.0..=last).contains(y) && y.fract() == 0.0);
    match data.labels.iter().position(not_class) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{}: sample {i} (counting from 0) has the label {}; labels must be {expected}",
            path.display(),
            data.labels[i]
        )
        .into()),
    }
}

/// MNIST's network, MLP(784, [32, 10]): a ReLU layer, then linear logits, its weights
/// drawn with He's uniform initialiser (`Init::HeUniform`: ±√(6/inputs), PyTorch's
/// `kaiming_uniform_` for ReLU). micrograd's ±1 weights on 784 inputs give first-layer
/// sums with a standard deviation of about 5 and logits of about 9 (up to 40) on 200
/// MNIST images, so the first softmax outputs are confidently wrong and one epoch on
/// 2,000 images reaches 31% held-out accuracy.
pub fn mnist_model(rng: &mut impl rand::Rng) -> MLP {
    let layers = [(32, Activation::Relu), (10, Activation::Linear)];
    MLP::with_init(784, &layers, Init::HeUniform, rng)
}

/// The loss of one mini-batch: the mean softmax cross-entropy of `model`'s outputs
/// against the `labels` (checked digits, see [`check_digit_labels`]).
///
/// This function builds the whole graph that one training step differentiates; another
/// engine (a compiled tape, say) can take its place without touching the training loop.
pub fn batch_loss(model: &MLP, inputs: &[&[f64]], labels: &[f64]) -> Result<Value> {
    let logits = inputs
        .iter()
        .map(|x| model.forward_f64(x))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let classes: Vec<usize> = labels.iter().map(|&y| y as usize).collect();
    Ok(loss::softmax_cross_entropy_mean(&logits, &classes)?)
}

/// One epoch of micrograd's training loop over `batches` (a `DataLoader`'s epoch):
/// for each mini-batch, the loss, its gradients, an update. Counts the steps in `step`,
/// calls `after_step` after each, and returns the mean of the batch losses. Fails before
/// any update if a loss is not finite, naming the step.
pub fn train_epoch<'a>(
    model: &MLP,
    opt: &mut impl Optimizer,
    batches: impl ExactSizeIterator<Item = Batch<'a>>,
    step: &mut usize,
    mut after_step: impl FnMut(),
) -> Result<f64> {
    let n = batches.len();
    let mut sum = 0.0;
    for batch in batches {
        let loss = batch_loss(model, &batch.inputs, &batch.labels)?;
        check_loss(*step, loss.data())?;
        opt.zero_grad();
        loss.backward();
        opt.step()?;
        sum += loss.data();
        *step += 1;
        after_step();
    }
    Ok(sum / n as f64)
}

/// The fraction of `data` whose largest output is its label: the accuracy of
/// `MLP::evaluate_classifier`'s confusion matrix (one sample's graph at a time).
pub fn accuracy(model: &MLP, data: &Dataset) -> Result<f64> {
    Ok(model.evaluate_classifier(data)?.accuracy())
}

/// `MLP(64, [32, 10]): 2410 parameters; 1438 training images, 359 held out`.
pub fn describe(model: &MLP, train: &Dataset, test: &Dataset) -> String {
    let (shape, n) = (model.shape(), model.num_parameters());
    let (train, test) = (train.len(), test.len());
    format!("{shape}: {n} parameters; {train} training images, {test} held out")
}

/// `Ok` if the images of `data` (read from `path`) have `pixels` pixels each.
pub fn check_width(data: &Dataset, pixels: usize, path: &Path) -> Result {
    if data.width() == pixels {
        return Ok(());
    }
    let (path, width) = (path.display(), data.width());
    Err(format!("{path}: images of {width} pixels, but this model takes {pixels}").into())
}

//! Teaches: training on real data at scale with the scalar engine: an MLP(784, [32, 10])
//! learns MNIST's 28x28 handwritten digits in mini-batches with Adam (about 26,000 graph
//! nodes per image, 25,088 of them first-layer products), with a progress bar and
//! held-out accuracy after every epoch. Its initial weights are He's (`nn::Init::HeUniform`,
//! see `mnist_model`): with micrograd's ±1 weights on 784 inputs, one epoch on 2,000
//! images (`--holdout 2000 --limit 2000 --epochs 1`) reaches 31% held-out accuracy.
//!
//! Run from the repository, with the shared data beside it (only MNIST's 10k test set is
//! there, so hold out its last 2,000 images and train on the first 8,000):
//! `cargo run --release --example 07_mnist -- --data ../shared/data/mnist --holdout 2000`
//!
//! Flags (defaults in brackets):
//! - `--data DIR` [`../shared/data/mnist`]: the folder with MNIST's IDX files, plain or
//!   `.gz`: `train-images-idx3-ubyte` and `train-labels-idx1-ubyte`, and/or `t10k-images-
//!   idx3-ubyte` and `t10k-labels-idx1-ubyte`;
//! - `--holdout N` [none]: test on the last N images of the training set (`train-*`, or
//!   `t10k-*` when it is the only set there) and train on the others. Without it, the
//!   model trains on `train-*` and is tested on `t10k-*`, so both sets must be there;
//! - `--limit N` [all]: train on only the first N training images (for a quick run);
//! - `--epochs N` [5], `--batch-size N` [32], `--lr X` [0.002, Adam's learning rate]; a
//!   batch size above the number of training images makes each batch the whole training
//!   set (full-batch training), and the summary line says so;
//! - `--seed N` [0]: seeds the initial weights and every shuffle;
//! - `--engine tape|dynamic` [tape]: compile one image's graph once and run it per image
//!   (`examples/common/classify_tape.rs`), or build each batch's graph anew with `Value`s
//!   (`batch_loss`, as Python would; about 5x slower);
//! - `--threads N` [as many as pay for the work: `Tape::threads_for`, one unless the
//!   model is large]: with the tape, the images of a batch run on N threads
//!   (`Tape::accumulate_batch`, chunks of 8 images each), and so does the held-out
//!   evaluation. The gradients are added up in a fixed order, so every printed number
//!   is the same for any N; only the time changes.
//!
//! After each epoch it prints `step <k> loss <loss>, accuracy <pct>%` (k: the index of the
//! epoch's last mini-batch step, counting from 0; loss: the mean of that epoch's batch
//! losses; accuracy: on the held-out images),
//! then the training time and `<t> µs per sample-step` (training time / (epochs × training
//! images): forward, backward and the optimiser's share), and last
//! `final step=<k> loss=<loss> accuracy=<pct>%`.
//! The progress bar goes to stderr, and only when stderr is a terminal.
//!
//! With `--engine dynamic`, each step's graph is built by `batch_loss` in
//! `examples/common/classify.rs`; with the default tape, `examples/common/classify_tape.rs`
//! builds one image's graph once.

mod common;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use common::classify::{self, MnistRun};
use common::classify_tape::ImageTape;
use common::{mnist, Engine};
use indicatif::{ProgressBar, ProgressStyle};
use micrograd::data::DataLoader;
use micrograd::prelude::*;
use rand::{rngs::StdRng, SeedableRng};

const USAGE: &str = "07_mnist [FLAGS]   (defaults in brackets)
  --data DIR              the folder of MNIST's IDX files, plain or .gz
                          [../shared/data/mnist]
  --holdout N             test on the last N training images, train on the rest
                          [none: train on train-*, test on t10k-*]
  --limit N               train on only the first N training images [all]
  --epochs N              passes over the training images [5]
  --batch-size N          images per Adam step [32]
  --lr X                  Adam's learning rate [0.002]
  --seed N                seeds the initial weights and every shuffle [0]
  --engine tape|dynamic   a compiled tape per image, or a graph per batch [tape]
  --threads N             threads that run a batch through the tape (the same
                          numbers for any N) [from the work]
  -h, --help              print this and exit";

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    let MnistRun {
        dir,
        limit,
        training: t,
    } = MnistRun::from_args(&mut args, None, None)?;
    let engine = common::engine(&mut args, Engine::Tape)?;
    common::finish(args, USAGE)?;

    let (mut train, test) = mnist::load(&dir, t.holdout)?;
    mnist::limit(&mut train, limit)?;

    let mut rng = StdRng::seed_from_u64(t.seed);
    let model = classify::mnist_model(&mut rng);
    let mut opt = Adam::new(model.parameters(), t.lr)?;
    println!("{}", classify::describe(&model, &train, &test));
    // With the tape, one image's graph is compiled once (see `classify_tape`).
    let mut tape = match engine {
        Engine::Tape => Some(ImageTape::compile(&model, t.threads, t.batch_size)?),
        Engine::Dynamic => None,
    };
    if let Some(tape) = &tape {
        // Each image with its one-hot label, as the tape's samples are (once, not per batch).
        tape.append_one_hot(&mut train)?;
    }

    let (mut training, mut testing) = (Duration::ZERO, Duration::ZERO);
    let (mut step, mut loss, mut accuracy) = (0, f64::NAN, 0.0);
    // Mini-batches reshuffled every epoch by the seeded generator.
    let mut loader = DataLoader::new(&train, t.batch_size, rng)?;
    for epoch in 1..=t.epochs {
        let bar = progress_bar(epoch, loader.batches_per_epoch());
        let start = Instant::now();
        let tick = || bar.inc(1);
        let batches = loader.epoch();
        loss = match &mut tape {
            Some(tape) => tape.train_epoch(&mut opt, batches, &mut step, tick)?,
            None => classify::train_epoch(&model, &mut opt, batches, &mut step, tick)?,
        };
        training += start.elapsed();
        bar.set_message("testing");
        let start = Instant::now();
        accuracy = match &mut tape {
            // (and the tape checked against the graph built again, bit for bit)
            Some(tape) => tape
                .accuracy(&test)
                .and_then(|a| Ok((tape.check(&model)?, a).1))?,
            None => classify::accuracy(&model, &test)?,
        };
        testing += start.elapsed();
        bar.finish_and_clear();
        common::print_step(step - 1, loss, Some(accuracy));
    }
    let samples = (t.epochs * train.len()) as f64;
    let threads = engine.threads(tape.as_ref().map_or(1, ImageTape::threads));
    println!(
        "training: {:.1} s, {:.2} µs per sample-step (forward + backward + update, {}, \
         {threads}); held-out evaluation: {:.1} s",
        training.as_secs_f64(),
        1e6 * training.as_secs_f64() / samples,
        classify::batch_taken(t.batch_size, train.len()),
        testing.as_secs_f64()
    );
    common::print_final(step - 1, loss, Some(accuracy));
    Ok(())
}

/// A bar for one epoch of `batches` steps, drawn on stderr (hidden when it is not a
/// terminal, so logs and pipes get only the progress lines).
fn progress_bar(epoch: usize, batches: usize) -> ProgressBar {
    let bar = ProgressBar::new(batches as u64).with_prefix(format!("epoch {epoch}"));
    let template = "{prefix} [{bar:30}] {pos}/{len} batches {elapsed} (eta {eta}) {msg}";
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

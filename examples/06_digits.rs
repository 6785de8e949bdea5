//! Teaches: classifying into ten classes with softmax cross-entropy: an MLP(64, [32, 10])
//! learns scikit-learn's 8x8 handwritten digits in mini-batches with Adam, and is scored
//! on digits it never trained on.
//!
//! Run from the repository, with the shared data beside it:
//! `cargo run --release --example 06_digits -- --data ../shared/data/digits.csv.gz`
//!
//! Flags (defaults in brackets):
//! - `--data PATH` [`../shared/data/digits.csv.gz`]: CSV, plain or gzip, one image per
//!   line: 64 pixels (0-16, row by row), then the digit 0-9;
//! - `--epochs N` [20], `--batch-size N` [32], `--lr X` [0.01, Adam's learning rate]; a
//!   batch size above the number of training images makes each batch the whole training
//!   set (full-batch training), and the summary line says so;
//! - `--seed N` [0]: seeds the initial weights and every shuffle;
//! - `--holdout N` [a fifth of the data]: after one seeded shuffle, the last N images are
//!   the test set, never trained on;
//! - `--engine tape|dynamic` [tape]: compile one image's graph once and run it per image
//!   (`examples/common/classify_tape.rs`), or build each batch's graph anew with `Value`s
//!   (`batch_loss` in `examples/common/classify.rs`, as Python would);
//! - `--threads N` [as many as pay for the work: `Tape::threads_for`, one unless the
//!   model is large]: with the tape, the images of a batch run on N threads
//!   (`Tape::accumulate_batch`, chunks of 8 images each), and so does the held-out
//!   evaluation. The gradients are added up in a fixed order, so every printed number
//!   is the same for any N; only the time changes.
//!
//! After each epoch it prints `step <k> loss <loss>, accuracy <pct>%` (k: the index of the
//! epoch's last mini-batch step, counting from 0; loss: the mean of that epoch's batch
//! losses; accuracy: on the held-out images),
//! then the run time and `<t> µs per sample-step` (training time / (epochs × training
//! images)), and last `final step=<k> loss=<loss> accuracy=<pct>%`.

mod common;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use common::classify::{self, Training};
use common::classify_tape::ImageTape;
use common::Engine;
use micrograd::data::{load_csv, DataLoader, Dataset};
use micrograd::prelude::*;
use rand::{rngs::StdRng, SeedableRng};

const USAGE: &str = "06_digits [FLAGS]   (defaults in brackets)
  --data PATH       CSV (plain or gzip): 64 pixels 0-16, then the digit
                    [../shared/data/digits.csv.gz]
  --epochs N        passes over the training images [20]
  --batch-size N    images per Adam step [32]
  --lr X            Adam's learning rate [0.01]
  --seed N          seeds the initial weights and every shuffle [0]
  --holdout N       the last N images (after one shuffle) are the test set
                    [a fifth of the data]
  --engine tape|dynamic
                    a compiled tape per image, or a graph per batch [tape]
  --threads N       threads that run a batch through the tape (the same
                    numbers for any N) [from the work]
  -h, --help        print this and exit";

/// The brightest pixel of scikit-learn's digits (each pixel counts the set pixels of a
/// 4x4 block of the original 32x32 bitmap).
const MAX_PIXEL: f64 = 16.0;

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    let path: PathBuf = args
        .opt_value_from_str("--data")?
        .unwrap_or_else(|| PathBuf::from("../shared/data/digits.csv.gz"));
    let defaults = Training {
        epochs: 20,
        batch_size: 32,
        lr: 0.01,
        seed: 0,
        holdout: None,
        threads: None,
    };
    let t = Training::from_args(&mut args, defaults)?;
    let engine = common::engine(&mut args, Engine::Tape)?;
    common::finish(args, USAGE)?;

    let mut train = load_digits(&path)?;
    let mut rng = StdRng::seed_from_u64(t.seed);
    train.shuffle(&mut rng)?;
    let holdout = t.holdout.unwrap_or(train.len() / 5);
    let test = classify::hold_out(&mut train, holdout)?;

    let model = MLP::new(64, &[32, 10], &mut rng);
    let mut opt = Adam::new(model.parameters(), t.lr)?;
    println!("{}", classify::describe(&model, &train, &test));
    // With the tape, one image's graph is compiled once (see `classify_tape`).
    let mut tape = match engine {
        Engine::Tape => Some(ImageTape::compile(&model, t.threads, t.batch_size)?),
        Engine::Dynamic => None,
    };

    let start = Instant::now();
    let mut training = Duration::ZERO;
    let (mut step, mut loss, mut accuracy) = (0, f64::NAN, 0.0);
    // Mini-batches reshuffled every epoch by the seeded generator.
    let mut loader = DataLoader::new(&train, t.batch_size, rng)?;
    for _ in 0..t.epochs {
        let started = Instant::now();
        let (batches, k) = (loader.epoch(), &mut step);
        loss = match &mut tape {
            Some(tape) => tape.train_epoch(&mut opt, batches, k, || {})?,
            None => classify::train_epoch(&model, &mut opt, batches, k, || {})?,
        };
        training += started.elapsed();
        accuracy = match &mut tape {
            Some(tape) => tape.accuracy(&test)?,
            None => classify::accuracy(&model, &test)?,
        };
        common::print_step(step - 1, loss, Some(accuracy));
    }
    let seconds = start.elapsed().as_secs_f64();
    let samples = (t.epochs * train.len()) as f64;
    println!(
        "{} epochs in {seconds:.2} s ({:.1} ms per epoch, held-out evaluation included); \
         training: {:.2} µs per sample-step ({}, {})",
        t.epochs,
        1e3 * seconds / t.epochs as f64,
        1e6 * training.as_secs_f64() / samples,
        classify::batch_taken(t.batch_size, train.len()),
        engine.threads(tape.as_ref().map_or(1, ImageTape::threads))
    );
    common::print_final(step - 1, loss, Some(accuracy));
    Ok(())
}

/// Reads the digits CSV, checks that it holds 8x8 images with pixels 0-16 and digit
/// labels, and scales the pixels to [0, 1].
fn load_digits(path: &Path) -> common::Result<Dataset> {
    let mut data = load_csv(path).map_err(|e| match e {
        Error::Io { .. } => format!(
            "{}; pass --data PATH to the digits CSV",
            common::with_sources(&e)
        )
        .into(),
        other => Box::<dyn std::error::Error>::from(other),
    })?;
    classify::check_width(&data, 64, path)?;
    classify::check_digit_labels(&data, path)?;
    for (i, row) in data.inputs.iter_mut().enumerate() {
        if let Some(p) = row.iter().find(|p| !(0.0..=MAX_PIXEL).contains(*p)) {
            return Err(format!(
                "{}: sample {i} (counting from 0) has the pixel {p}; pixels are 0 to 16",
                path.display()
            )
            .into());
        }
        row.iter_mut().for_each(|p| *p /= MAX_PIXEL);
    }
    Ok(data)
}

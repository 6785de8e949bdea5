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
//! - `--epochs N` [20], `--batch-size N` [32], `--lr X` [0.01, Adam's learning rate];
//! - `--seed N` [0]: seeds the initial weights and every shuffle;
//! - `--holdout N` [a fifth of the data]: after one seeded shuffle, the last N images are
//!   the test set, never trained on.
//!
//! After each epoch it prints `step <k> loss <loss>, accuracy <pct>%` (k: the index of the
//! epoch's last mini-batch step, counting from 0; loss: the mean of that epoch's batch
//! losses; accuracy: on the held-out images),
//! then the run time, and last `final step=<k> loss=<loss> accuracy=<pct>%`.

mod common;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use common::classify::{self, Training};
use micrograd::data::{load_csv, Dataset};
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
    };
    let t = Training::from_args(&mut args, defaults)?;
    common::finish(args, USAGE)?;

    let mut train = load_digits(&path)?;
    let mut rng = StdRng::seed_from_u64(t.seed);
    train.shuffle(&mut rng)?;
    let holdout = t.holdout.unwrap_or(train.len() / 5);
    let test = classify::hold_out(&mut train, holdout)?;

    let model = MLP::new(64, &[32, 10], &mut rng);
    let mut opt = Adam::new(model.parameters(), t.lr)?;
    println!("{}", classify::describe(&model, &train, &test));

    let start = Instant::now();
    let (mut step, mut loss, mut accuracy) = (0, f64::NAN, 0.0);
    for _ in 0..t.epochs {
        train.shuffle(&mut rng)?;
        loss = classify::train_epoch(&model, &mut opt, &train, t.batch_size, &mut step, || {})?;
        accuracy = classify::accuracy(&model, &test)?;
        common::print_step(step - 1, loss, Some(accuracy));
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{} epochs in {seconds:.2} s ({:.1} ms per epoch, held-out evaluation included)",
        t.epochs,
        1e3 * seconds / t.epochs as f64
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

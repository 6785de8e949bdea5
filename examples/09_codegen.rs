//! Teaches: turning a compiled graph into standalone C that trains with no Rust, no
//! allocator and no runtime (`micrograd::codegen`): MNIST's 784-32-10 network, built as
//! `07_mnist` builds it (same initial weights), written as `mnist_train.c`/`.h` with a
//! small C `main` (`examples/common/mnist_main.c`) that reads the IDX files into the
//! input slots, compiled with the system's `cc` and run.
//!
//! Run from the repository, with the shared data beside it:
//! `cargo run --release --example 09_codegen -- --data ../shared/data/mnist --holdout 2000`
//!
//! Flags (defaults in brackets):
//! - `--data DIR` [`../shared/data/mnist`]: the folder with MNIST's IDX files, plain or
//!   `.gz` (`train-*`, else `t10k-*`); they are read and written plain into `--out`,
//!   as `train-*`, for the C;
//! - `--holdout N` [2000]: test on the last N images, train on the others;
//! - `--limit N` [all], `--epochs N` [5], `--batch-size N` [32], `--lr X` [0.002, Adam's
//!   learning rate], `--seed N` [0]: as for `07_mnist` (the seed of the initial weights
//!   and of the C's shuffles);
//! - `--out DIR` [`target/09_codegen`]: where the C is written and compiled;
//! - `--precision f64|f32` [f64]: the C's number type;
//! - `--cc CC` [`cc`]: the C compiler.
//!
//! The C program prints `step <k> loss <loss>, accuracy <pct>%` after each epoch, then
//! the time per sample-step (forward + backward + Adam update) and last
//! `final step=<k> loss=<loss> accuracy=<pct>%`; this example passes its lines on.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::c_output::COutput;
use common::classify::{self, MnistRun};
use common::classify_tape::image_loss;
use common::{files, mnist};
use micrograd::codegen::{CodeGen, Precision, C_FLAGS};
use micrograd::data::{load_mnist, Dataset};
use micrograd::prelude::*;
use micrograd::tape::Tape;
use rand::{rngs::StdRng, SeedableRng};

const USAGE: &str = "09_codegen [FLAGS]   (defaults in brackets)
  --data DIR              the folder of MNIST's IDX files, plain or .gz
                          [../shared/data/mnist]
  --holdout N             test on the last N images, train on the rest [2000]
  --limit N               train on only the first N images [all]
  --epochs N              passes over the training images [5]
  --batch-size N          images per Adam step [32]
  --lr X                  Adam's learning rate [0.002]
  --seed N                seeds the initial weights and the C's shuffles [0]
  --out DIR               where the C is written and compiled [target/09_codegen]
  --precision f64|f32     the C's numbers: double or float [f64]
  --cc CC                 the C compiler [cc]
  -h, --help              print this and exit";

fn main() -> std::process::ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    // (The C runs on one thread.)
    let MnistRun {
        dir,
        limit,
        training: t,
    } = MnistRun::from_args(&mut args, Some(2000), Some(1))?;
    let COutput { out, precision, cc } =
        COutput::from_args(&mut args, "target/09_codegen", Precision::F64)?;
    common::finish(args, USAGE)?;
    let holdout = t.holdout.unwrap_or(2000);

    let data = read_mnist(&dir)?;
    if holdout >= data.len() {
        return Err(format!("--holdout {holdout}: there are only {} images", data.len()).into());
    }
    fs::create_dir_all(&out).map_err(|e| format!("--out {}: {e}", out.display()))?;
    write_idx(&data, &out)?;

    // The network and its initial weights, as 07_mnist makes them.
    let mut rng = StdRng::seed_from_u64(t.seed);
    let model = classify::mnist_model(&mut rng);
    // One image's loss, compiled once: leaves for the pixels, the one-hot label, 1/batch.
    // (Data, not parameters: leaves that need no gradient, as the loss asks of its targets.)
    let leaves = |n: usize| {
        (0..n)
            .map(|_| Value::new(0.0).no_grad())
            .collect::<Vec<_>>()
    };
    let leaves = [leaves(784), leaves(10), leaves(1)];
    let (loss, logits) = image_loss(&model, &leaves)?;
    let tape = Tape::compile_with_outputs(&loss, &logits)?;
    let [image, label, scale] = &leaves;
    let code = CodeGen::new(&tape, "mnist_train")
        .input("image", image)
        .input("label", label)
        .input("scale", scale)
        .parameters(&model.parameters())
        .precision(precision)
        .generate()?;
    let [header, source] = code.write_to(&out)?;
    let main = out.join("main.c");
    files::write(&main, include_str!("common/mnist_main.c"))?;
    println!(
        "wrote {} ({} lines, {} of them the table of initial values) and {} ({} lines) \
         for a tape of {} nodes",
        source.display(),
        code.source.lines().count(),
        tape.leaves().len().div_ceil(4),
        header.display(),
        code.header.lines().count(),
        tape.node_count()
    );

    let exe = out.join("mnist_train");
    let compiled = Command::new(&cc)
        .args(C_FLAGS)
        .arg(&source)
        .arg(&main)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .map_err(|e| format!("--cc {cc}: cannot run it ({e}); install a C compiler"))?;
    if !compiled.status.success() {
        let err = String::from_utf8_lossy(&compiled.stderr);
        return Err(format!("{cc} failed on {}:\n{err}", source.display()).into());
    }
    println!("compiled with {cc} {}", C_FLAGS.join(" "));

    let mut c_args = vec![
        ("--data", out.display().to_string()),
        ("--holdout", holdout.to_string()),
        ("--epochs", t.epochs.to_string()),
        ("--batch-size", t.batch_size.to_string()),
        ("--lr", format!("{:?}", t.lr)),
        ("--seed", t.seed.to_string()),
    ];
    if let Some(n) = limit {
        c_args.push(("--limit", n.to_string()));
    }
    let status = Command::new(&exe)
        .args(c_args.iter().flat_map(|(k, v)| [*k, v.as_str()]))
        .status()
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if !status.success() {
        return Err(format!("{} failed ({status})", exe.display()).into());
    }
    Ok(())
}

/// Reads the images and labels of `train-*` (else `t10k-*`) in `dir`, plain or gzip,
/// with the library's loader (which bounds what a gzip file inflates to) and checks
/// them: 784 pixels, labels the digits 0-9.
fn read_mnist(dir: &Path) -> common::Result<Dataset> {
    if !dir.is_dir() {
        return Err(format!(
            "--data {}: no such folder; pass the folder that holds MNIST's IDX files",
            dir.display()
        )
        .into());
    }
    for set in ["train", "t10k"] {
        if let Some((images, labels)) = mnist::find_set(dir, set)? {
            let data = load_mnist(&images, &labels)?;
            classify::check_width(&data, 784, &images)?;
            classify::check_digit_labels(&data, &labels)?;
            return Ok(data);
        }
    }
    Err(format!(
        "no MNIST files in {}: expected train-images-idx3-ubyte and train-labels-idx1-ubyte \
         (or t10k-*), each may end in .gz",
        dir.display()
    )
    .into())
}

/// Writes `data` (checked by [`read_mnist`]) into `out` as the plain IDX files the C
/// reads, `train-images-idx3-ubyte` and `train-labels-idx1-ubyte`: each image as 28 x 28
/// bytes (a pixel `p` was the byte `255 p`), each label as one byte.
fn write_idx(data: &Dataset, out: &Path) -> common::Result {
    let count = u32::try_from(data.len())
        .map_err(|_| format!("{} images: more than an IDX file can count", data.len()))?;
    let header = |magic: u32, sizes: &[u32]| -> Vec<u8> {
        (std::iter::once(magic).chain(sizes.iter().copied()))
            .flat_map(u32::to_be_bytes)
            .collect()
    };
    let mut images = header(0x0803, &[count, 28, 28]);
    images.extend(
        (data.inputs.iter().flatten()).map(|&p| (p * 255.0).round().clamp(0.0, 255.0) as u8),
    );
    let mut labels = header(0x0801, &[count]);
    labels.extend(data.labels.iter().map(|&y| y as u8));
    files::write(&out.join("train-images-idx3-ubyte"), images)?;
    files::write(&out.join("train-labels-idx1-ubyte"), labels)?;
    Ok(())
}

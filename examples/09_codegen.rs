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
//!   `.gz` (`train-*`, else `t10k-*`); `.gz` files are unpacked into `--out`;
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
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::c_output::COutput;
use common::classify::{self, MnistRun};
use common::classify_tape::image_loss;
use common::files;
use micrograd::codegen::{CodeGen, Precision, C_FLAGS};
use micrograd::data::load_mnist;
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

    fs::create_dir_all(&out).map_err(|e| format!("--out {}: {e}", out.display()))?;
    let set = unpack_mnist(&dir, &out)?;
    let data = load_mnist(&set.0, &set.1)?;
    classify::check_width(&data, 784, &set.0)?;
    classify::check_digit_labels(&data, &set.1)?;
    if holdout >= data.len() {
        return Err(format!("--holdout {holdout}: there are only {} images", data.len()).into());
    }

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

/// The images and labels files of `train-*` (else `t10k-*`) in `dir`, written plain
/// (unpacked if they are `.gz`) into `out` for the C: their paths there.
fn unpack_mnist(dir: &Path, out: &Path) -> common::Result<(PathBuf, PathBuf)> {
    for set in ["train", "t10k"] {
        let names = [
            format!("{set}-images-idx3-ubyte"),
            format!("{set}-labels-idx1-ubyte"),
        ];
        let found = names.clone().map(|name| {
            [dir.join(&name), dir.join(format!("{name}.gz"))]
                .into_iter()
                .find(|p| p.is_file())
        });
        let [Some(images), Some(labels)] = found else {
            continue;
        };
        let [images_out, labels_out] = names.map(|name| out.join(name));
        for (from, to) in [(&images, &images_out), (&labels, &labels_out)] {
            let bytes = fs::read(from).map_err(|e| format!("{}: {e}", from.display()))?;
            let plain = if from.extension().is_some_and(|e| e == "gz") {
                let mut plain = Vec::new();
                flate2::read::GzDecoder::new(&bytes[..])
                    .read_to_end(&mut plain)
                    .map_err(|e| format!("{}: {e}", from.display()))?;
                plain
            } else {
                bytes
            };
            files::write(to, plain)?;
        }
        return Ok((images_out, labels_out));
    }
    Err(format!(
        "no MNIST files in {}: expected train-images-idx3-ubyte and train-labels-idx1-ubyte \
         (or t10k-*), each may end in .gz",
        dir.display()
    )
    .into())
}

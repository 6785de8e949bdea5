//! Teaches: putting a trained network on a microcontroller. MNIST's 784-32-10 network is
//! trained on the host as `07_mnist` trains it (the compiled tape, Adam), then written as
//! inference-only C (`CodeGen::inference`): the weights `const`, in flash; in RAM only
//! the 784 pixels and the 32 + 10 activations. The C is compiled for the host and run on
//! every held-out image, and, when `arm-none-eabi-gcc` is installed, linked into a
//! Cortex-M4 image whose RAM and flash `arm-none-eabi-size` measures.
//!
//! Run from the repository, with the shared data beside it:
//! `cargo run --release --example 11_microcontroller -- --data ../shared/data/mnist --holdout 2000`
//!
//! Flags (defaults in brackets):
//! - `--data DIR`, `--holdout N`, `--limit N`, `--epochs N`, `--batch-size N`, `--lr X`,
//!   `--seed N`, `--threads N`: as for `07_mnist` (`--holdout` [2000] tests on the last N
//!   images);
//! - `--out DIR` [`target/11_microcontroller`]: where the C is written and compiled;
//! - `--precision f32|f64` [f32]: the C's number type (a Cortex-M4's FPU computes
//!   `float`; `double` is done in software there);
//! - `--cc CC` [`cc`]: the host's C compiler.
//!
//! After each epoch it prints `step <k> loss <loss>, accuracy <pct>%` as `07_mnist`
//! does; then the files written, `cortex-m4 ram_bytes=N flash_bytes=M` (`.data + .bss`,
//! the caller's buffer among them; `.text + .rodata + .data`), and last
//! `final step=<k> loss=<loss> accuracy=<pct>%` from the host run of the C: `loss` is
//! the held-out images' mean cross-entropy of the C's scores, `accuracy` how many of
//! them the C classifies right. The tape computes both too; the example fails if the C
//! disagrees with it: in `f64` on any score's bits, in `f32` on any image's class.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::c_output::COutput;
use common::classify::{self, MnistRun};
use common::classify_tape::ImageTape;
use common::{cortex_m4, files, mnist};
use micrograd::codegen::{CodeGen, Precision, C_FLAGS};
use micrograd::data::DataLoader;
use micrograd::prelude::*;
use micrograd::tape::Tape;
use rand::{rngs::StdRng, SeedableRng};

const USAGE: &str = "11_microcontroller [FLAGS]   (defaults in brackets)
  --data DIR              the folder of MNIST's IDX files, plain or .gz
                          [../shared/data/mnist]
  --holdout N             test on the last N training images, train on the rest [2000]
  --limit N               train on only the first N training images [all]
  --epochs N              passes over the training images [5]
  --batch-size N          images per Adam step [32]
  --lr X                  Adam's learning rate [0.002]
  --seed N                seeds the initial weights and every shuffle [0]
  --threads N             threads that run a batch through the tape [from the work]
  --out DIR               where the C is written and compiled
                          [target/11_microcontroller]
  --precision f32|f64     the C's numbers: float or double [f32]
  --cc CC                 the host's C compiler [cc]
  -h, --help              print this and exit";

/// The generated C's name: `mnist_infer.h`, `mnist_infer_forward`, ...
const NAME: &str = "mnist_infer";

/// A host program for the inference C: reads images (784 doubles each) from the file
/// `argv[1]`, writes each image's ten scores (as doubles) into `argv[2]`.
const HOST_MAIN: &str = r#"#include <stdio.h>
#include "mnist_infer.h"

int main(int argc, char **argv) {
    static mnist_infer_real buf[MNIST_INFER_BUFFER_LEN];
    mnist_infer_real image[MNIST_INFER_IMAGE_LEN], scores[MNIST_INFER_OUTPUTS];
    double pixels[MNIST_INFER_IMAGE_LEN], out[MNIST_INFER_OUTPUTS];
    FILE *in, *to;
    int k;
    if (argc != 3 || !(in = fopen(argv[1], "rb")) || !(to = fopen(argv[2], "wb"))) return 2;
    while (fread(pixels, sizeof pixels, 1, in) == 1) {
        for (k = 0; k < MNIST_INFER_IMAGE_LEN; k++) image[k] = (mnist_infer_real)pixels[k];
        mnist_infer_set_image(buf, image);
        mnist_infer_forward(buf);
        mnist_infer_outputs(buf, scores);
        for (k = 0; k < MNIST_INFER_OUTPUTS; k++) out[k] = scores[k];
        if (fwrite(out, sizeof out, 1, to) != 1) return 3;
    }
    return fclose(to) == 0 && fclose(in) == 0 ? 0 : 4;
}
"#;

fn main() -> std::process::ExitCode {
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
    } = MnistRun::from_args(&mut args, Some(2000), None)?;
    let COutput { out, precision, cc } =
        COutput::from_args(&mut args, "target/11_microcontroller", Precision::F32)?;
    common::finish(args, USAGE)?;

    // Training, as 07_mnist (through the tape).
    let (mut train, test) = mnist::load(&dir, t.holdout)?;
    mnist::limit(&mut train, limit)?;
    let mut rng = StdRng::seed_from_u64(t.seed);
    let model = classify::mnist_model(&mut rng);
    let mut opt = Adam::new(model.parameters(), t.lr)?;
    println!("{}", classify::describe(&model, &train, &test));
    let mut image_tape = ImageTape::compile(&model, t.threads, t.batch_size)?;
    image_tape.append_one_hot(&mut train)?;
    let mut step = 0;
    // Mini-batches reshuffled every epoch by the seeded generator.
    let mut loader = DataLoader::new(&train, t.batch_size, rng)?;
    for _ in 0..t.epochs {
        let loss = image_tape.train_epoch(&mut opt, loader.epoch(), &mut step, || {})?;
        let accuracy = image_tape.accuracy(&test)?;
        common::print_step(step - 1, loss, Some(accuracy));
    }

    // The trained network's scores on a tape of their own, and as inference C.
    let pixels: Vec<Value> = (0..784).map(|_| Value::new(0.0).no_grad()).collect();
    let scores = model.forward(&pixels)?;
    let mut tape = Tape::compile_outputs(&scores)?;
    let code = CodeGen::new(&tape, NAME)
        .input("image", &pixels)
        .precision(precision)
        .inference()
        .generate()?;
    let [header, source] = code.write_to(&out)?;
    println!(
        "wrote {} ({} lines) and {} ({} lines)",
        source.display(),
        code.source.lines().count(),
        header.display(),
        code.header.lines().count()
    );

    match cortex_m4::installed() {
        true => {
            let size = cortex_m4::link(&out, NAME, "image", &test.inputs[0])?;
            println!(
                "cortex-m4 ram_bytes={} flash_bytes={}",
                size.ram_bytes, size.flash_bytes
            );
        }
        false => println!(
            "cortex-m4: {} is not installed: no image",
            cortex_m4::ARM_GCC
        ),
    }

    // The C on the host, on every held-out image; the tape on the same images.
    let c_scores = run_on_host(&cc, &out, &source, &test.inputs)?;
    let image = tape.inputs(&pixels)?;
    let tape_scores = tape.evaluate_batch(&image, &test.inputs, image_tape.threads())?;
    let (c_loss, c_right) = held_out(&c_scores, &test.labels);
    let (tape_loss, tape_right) = held_out(&tape_scores, &test.labels);
    let differ = match precision {
        Precision::F64 => (c_scores.iter().zip(&tape_scores))
            .filter(|(c, t)| {
                c.iter()
                    .zip(t.iter())
                    .any(|(a, b)| a.to_bits() != b.to_bits())
            })
            .count(),
        _ => (c_scores.iter().zip(&tape_scores))
            .filter(|(c, t)| class(c) != class(t))
            .count(),
    };
    let n = test.len() as f64;
    println!(
        "the tape: held-out loss={tape_loss:?} accuracy={:?}%",
        common::percent(tape_right as f64 / n)
    );
    if differ > 0 {
        let what = match precision {
            Precision::F64 => "scores",
            _ => "class",
        };
        return Err(format!("the C and the tape differ in the {what} of {differ} images").into());
    }
    common::print_final(step - 1, c_loss, Some(c_right as f64 / n));
    Ok(())
}

/// Compiles the inference C `source` (in `dir`) with a main that runs it on `images`,
/// runs it, and returns each image's scores.
fn run_on_host(
    cc: &str,
    dir: &Path,
    source: &Path,
    images: &[Vec<f64>],
) -> common::Result<Vec<Vec<f64>>> {
    let (main, exe) = (dir.join("main.c"), dir.join(NAME));
    let (images_file, scores_file) = (dir.join("images.bin"), dir.join("scores.bin"));
    files::write(&main, HOST_MAIN)?;
    let bytes: Vec<u8> = images
        .iter()
        .flatten()
        .flat_map(|x| x.to_ne_bytes())
        .collect();
    files::write(&images_file, bytes)?;
    // The C opens its output with `fopen(.., "wb")`, which would follow a link left there.
    match fs::remove_file(&scores_file) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("cannot remove the old {}: {e}", scores_file.display()).into())
        }
        _ => {}
    }
    let compiled = Command::new(cc)
        .args(C_FLAGS)
        .arg(source)
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
    let status = Command::new(&exe)
        .arg(&images_file)
        .arg(&scores_file)
        .status()?;
    if !status.success() {
        return Err(format!("{} failed ({status})", exe.display()).into());
    }
    let bytes = fs::read(&scores_file)?;
    let numbers: Vec<f64> = (bytes.chunks_exact(8))
        .map(|b| f64::from_ne_bytes(b.try_into().unwrap_or([0; 8])))
        .collect();
    if numbers.len() != 10 * images.len() {
        return Err(format!(
            "{}: {} scores for {} images",
            scores_file.display(),
            numbers.len(),
            images.len()
        )
        .into());
    }
    Ok(numbers.chunks(10).map(<[f64]>::to_vec).collect())
}

/// The mean cross-entropy `ln(sum exp(z)) - z[label]` over the images, and how many are
/// classified right (the first largest score is the label).
fn held_out(scores: &[Vec<f64>], labels: &[f64]) -> (f64, usize) {
    let mut loss = 0.0;
    let mut right = 0;
    for (z, &y) in scores.iter().zip(labels) {
        let sum: f64 = z.iter().map(|z| z.exp()).sum();
        loss += sum.ln() - z[y as usize];
        right += usize::from(class(z) as f64 == y);
    }
    (loss / scores.len() as f64, right)
}

/// The index of the first largest score, as `loss::argmax`.
fn class(z: &[f64]) -> usize {
    (0..z.len()).fold(0, |best, i| if z[i] > z[best] { i } else { best })
}

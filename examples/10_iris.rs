//! Teaches: training through the compiled tape with the crate's own loss, in mini-batches:
//! one flower's graph, its class given as data (a one-hot row of leaves,
//! `loss::softmax_cross_entropy_onehot`), compiled once and run on every flower. Then
//! the same numbers through the dynamic graph, bit for bit.
//!
//! Run: `cargo run --release --example 10_iris [-- --data ../shared/data/iris.csv]`.
//!
//! Flags (defaults in brackets):
//! - `--data PATH` [`../shared/data/iris.csv`]: CSV, one flower per line: 4 measurements
//!   (cm), then the class 0-2;
//! - `--epochs N` [100], `--batch-size N` [10], `--lr X` [0.01, Adam's learning rate];
//! - `--seed N` [0]: seeds the weights and the one shuffle that splits the data;
//! - `--holdout N` [30]: the last N flowers after that shuffle are the test set;
//! - `--threads N` [from the work: `Tape::threads_for`, one for so small a model].
//!
//! It prints every tenth epoch's mean batch loss and held-out accuracy, the training
//! time per sample-step (forward, backward and Adam's update; held-out evaluation not
//! included), the held-out
//! loss and accuracy through the tape and through the dynamic graph, and last
//! `final step=<k> loss=<loss> accuracy=<pct>%` (k: the last step; loss: the last
//! epoch's mean batch loss; accuracy: held-out).

mod common;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use common::classify::{self, Training};
use micrograd::data::load_csv;
use micrograd::prelude::*;
use micrograd::{loss, tape::Tape};
use rand::{rngs::StdRng, SeedableRng};

const USAGE: &str = "10_iris [FLAGS]   (defaults in brackets)
  --data PATH       CSV: 4 measurements, then the class 0-2 [../shared/data/iris.csv]
  --epochs N        passes over the training flowers [100]
  --batch-size N    flowers per Adam step [10]
  --lr X            Adam's learning rate [0.01]
  --seed N          seeds the weights and the shuffle that splits the data [0]
  --holdout N       the last N flowers (after the shuffle) are the test set [30]
  --threads N       threads that run a batch (the same numbers for any N)
                    [from the work]
  -h, --help        print this and exit";

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    let path: PathBuf = (args.opt_value_from_str("--data")?)
        .unwrap_or_else(|| PathBuf::from("../shared/data/iris.csv"));
    let defaults = Training {
        epochs: 100,
        batch_size: 10,
        lr: 0.01,
        seed: 0,
        holdout: Some(30),
        threads: None,
    };
    let t = Training::from_args(&mut args, defaults)?;
    common::finish(args, USAGE)?;

    let mut rng = StdRng::seed_from_u64(t.seed);
    let mut train = load_csv(&path)?;
    // Before the shuffle, so that a bad label is named by its row.
    classify::check_class_labels(&train, &path, 3, "the classes 0, 1 and 2")?;
    train.shuffle(&mut rng)?;
    let test = classify::hold_out(&mut train, t.holdout.unwrap_or(30))?;
    let model = MLP::new(4, &[16, 3], &mut rng);

    // One flower's graph: leaves for its measurements and its one-hot class (data: no
    // gradient), the crate's loss; compiled once.
    let leaves = |n| {
        (0..n)
            .map(|_| Value::new(0.0).no_grad())
            .collect::<Vec<_>>()
    };
    let (x, y) = (leaves(4), leaves(3));
    let logits = model.forward(&x)?;
    let loss = loss::softmax_cross_entropy_onehot(&logits, &y)?;
    let mut tape =
        Tape::compile_with_outputs(&loss, &[&logits[..], std::slice::from_ref(&loss)].concat())?;
    let sample = tape.inputs(&[&x[..], &y[..]].concat())?;
    let threads = t.threads.unwrap_or_else(|| tape.threads_for(t.batch_size));
    let rows = |d: &micrograd::data::Dataset| -> Vec<Vec<f64>> {
        let one_hot = |c: f64| (0..3).map(move |j| f64::from(u8::from(j as f64 == c)));
        (d.inputs.iter().zip(&d.labels))
            .map(|(x, &c)| x.iter().copied().chain(one_hot(c)).collect())
            .collect()
    };
    let (train_rows, test_rows) = (rows(&train), rows(&test));

    let mut adam = Adam::new(model.parameters(), t.lr)?;
    let mut training = tape.train(&mut adam, threads)?;
    let (mut step, mut epoch_loss, mut took) = (0, f64::NAN, Duration::ZERO);
    for epoch in 1..=t.epochs {
        let (mut sum, start) = (0.0, Instant::now());
        let batches = train_rows.chunks(t.batch_size);
        let n = batches.len();
        for batch in batches {
            // (Adam divides by the gradient's own scale: the batch's summed gradient
            // steps as its mean would.)
            sum += training.step(&sample, batch)?.iter().sum::<f64>() / batch.len() as f64;
            step += 1;
        }
        epoch_loss = sum / n as f64;
        took += start.elapsed();
        if epoch % 10 == 0 {
            let accuracy = held_out(&mut training.evaluate_batch(&sample, &test_rows)?, &test)?;
            common::print_step(step - 1, epoch_loss, Some(accuracy.1));
        }
    }
    training.finish();
    let per_sample = 1e6 * took.as_secs_f64() / (t.epochs * train.len()) as f64;
    println!(
        "training: {per_sample:.2} µs per sample-step (batch {}, {threads} thread(s))",
        t.batch_size
    );

    // The held-out flowers through the tape, then through the dynamic graph.
    let (tape_loss, accuracy) = held_out(
        &mut tape.evaluate_batch(&sample, &test_rows, threads)?,
        &test,
    )?;
    let mut graph_loss = 0.0;
    let mut logits = Vec::new();
    for (x, &c) in test.inputs.iter().zip(&test.labels) {
        let z = model.forward_f64(x)?;
        graph_loss += loss::softmax_cross_entropy(&z, c as usize)?.data() / test.len() as f64;
        logits.push(z);
    }
    let classes: Vec<usize> = test.labels.iter().map(|&c| c as usize).collect();
    let graph_accuracy = loss::multiclass_accuracy(&logits, &classes)?;
    let pct = common::percent;
    println!(
        "held-out, tape:          loss {tape_loss:?}, accuracy {:?}%",
        pct(accuracy)
    );
    println!(
        "held-out, dynamic graph: loss {graph_loss:?}, accuracy {:?}%",
        pct(graph_accuracy)
    );
    if (tape_loss.to_bits(), accuracy) != (graph_loss.to_bits(), graph_accuracy) {
        return Err("the tape and the dynamic graph disagree".into());
    }
    common::print_final(step - 1, epoch_loss, Some(accuracy));
    Ok(())
}

/// The mean loss and the accuracy of rows of outputs (three logits, then the loss).
fn held_out(
    outputs: &mut [Vec<f64>],
    test: &micrograd::data::Dataset,
) -> common::Result<(f64, f64)> {
    let mut loss = 0.0;
    let mut correct = 0;
    for (row, &c) in outputs.iter().zip(&test.labels) {
        let z: Vec<Value> = row[..3].iter().map(|&z| Value::new(z)).collect();
        correct += usize::from(loss::argmax(&z)? == c as usize);
        loss += row[3] / test.len() as f64;
    }
    Ok((loss, correct as f64 / test.len() as f64))
}

//! Training an MLP(784, [32, 10]) on MNIST through the tape: the cost per sample of a
//! mini-batch SGD step (forward, backward, and the update shared by the batch).
//!
//! The graph of *one* sample is compiled once, as `examples/common/classify_tape.rs`
//! compiles it (`limits::mnist::ImageTape`): 784 input leaves, 10 one-hot label leaves,
//! a leaf for `1 / batch size`, and the softmax cross-entropy `(ln(sum(exp(z))) - sum(y *
//! z)) * scale` of the logits `z` (the label is an input, so the same tape serves every
//! class). Per batch: per sample `set_inputs` + `accumulate`, then `flush_grads` and the
//! optimiser's step (the next run reads the parameters it wrote). For comparison,
//! `forward + backward per sample` runs the same batch through `forward`/`backward` (the
//! input `Value`s set with `set_data`), and `handwritten` is the limit: the same
//! arithmetic by hand (`limits::mnist::Mnist`: the 32 hidden sums side by side over
//! pixel-major weights, no pixel gradients), checked before timing to give the tape's
//! losses and gradients bit for bit.
//!
//! Needs MNIST's test set (`t10k-images-idx3-ubyte.gz`, `t10k-labels-idx1-ubyte.gz`) in
//! the directory `$MNIST_DIR`, or `data/mnist` under the repository root when it is not
//! set; without them the bench says what to set and measures nothing.
//!
//! `MNIST_DIR=path/to/mnist cargo bench --bench mnist_step`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use limits::interleaved;
use limits::mnist::{ImageTape, Mnist};
use micrograd::data::{load_mnist, Dataset};
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::{Inputs, Training};

const BATCH: usize = 32;
const LR: f64 = 0.01;

fn mnist() -> Option<Dataset> {
    // Cargo runs a bench in its package's directory, `benches/`: `..` is the repository.
    let dir = std::env::var_os("MNIST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("../data/mnist"));
    let images = dir.join("t10k-images-idx3-ubyte.gz");
    let labels = dir.join("t10k-labels-idx1-ubyte.gz");
    match load_mnist(&images, &labels) {
        Ok(data) => Some(data),
        Err(e) => {
            println!(
                "skipping the MNIST bench: {e}\nset MNIST_DIR to the directory holding \
                 t10k-images-idx3-ubyte.gz and t10k-labels-idx1-ubyte.gz, e.g. \
                 `MNIST_DIR=path/to/mnist cargo bench --bench mnist_step`"
            );
            None
        }
    }
}

/// The first batch in the tape and by hand: the same losses and summed gradients, bit
/// for bit (as `limits::mnist`'s tests check on random images).
fn check_first_batch(data: &Dataset) {
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(1));
    let mut s = ImageTape::compile(&model);
    let mut net = Mnist::new(model.parameters().iter().map(Value::data).collect());
    let scale = 1.0 / BATCH as f64;
    for i in 0..BATCH {
        let label = data.labels[i] as usize;
        let tape = s.accumulate(&data.inputs[i], label, scale);
        let hand = net.accumulate(&data.inputs[i], label, scale);
        assert_eq!(tape.to_bits(), hand.to_bits(), "image {i}: {tape} {hand}");
    }
    s.tape.flush_grads();
    for (i, (p, h)) in model.parameters().iter().zip(&net.grads).enumerate() {
        assert!(p.grad() == *h, "parameter {i}: {} {h}", p.grad());
    }
    println!("batch 0: the same losses and gradients on the tape and by hand");
}

fn bench(c: &mut Criterion) {
    let Some(data) = mnist() else { return };
    check_first_batch(&data);
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(1));
    let mut s = ImageTape::compile(&model);
    let mut opt = Sgd::new(model.parameters(), LR).expect("lr > 0");
    let batches: Vec<Vec<usize>> = (0..20)
        .map(|b| (b * BATCH..(b + 1) * BATCH).collect())
        .collect();
    let mut next = batches.iter().cycle();
    let label = |i: usize| data.labels[i] as usize;

    let mut group = c.benchmark_group("mnist 784-32-10 step");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("tape accumulate, batch 32", |b| {
        b.iter(|| {
            let mut total = 0.0;
            let batch = next.next().expect("cycles");
            let scale = 1.0 / batch.len() as f64;
            for &i in batch {
                total += s.accumulate(&data.inputs[i], label(i), scale);
            }
            opt.zero_grad();
            s.tape.flush_grads();
            opt.step().expect("finite");
            black_box(total)
        })
    });

    group.bench_function("tape forward + backward per sample, batch 32", |b| {
        b.iter(|| {
            let mut total = 0.0;
            opt.zero_grad();
            let batch = next.next().expect("cycles");
            let [pixels, onehot, scale] = &s.leaves;
            scale[0].set_data(1.0 / batch.len() as f64);
            for &i in batch {
                for (leaf, &x) in pixels.iter().zip(&data.inputs[i]) {
                    leaf.set_data(x);
                }
                for (j, leaf) in onehot.iter().enumerate() {
                    leaf.set_data(f64::from(j == label(i)));
                }
                total += s.tape.forward().expect("finite");
                s.tape.backward().expect("finite");
            }
            opt.step().expect("finite");
            black_box(total)
        })
    });

    group.bench_function("tape training step, batch 32", |b| {
        // What `07_mnist` runs: a `Training` (one thread here), each step
        // `accumulate_batch` + `flush_and_step` on the tape's numbers. The rows (pixels,
        // then the one-hot label) are made beforehand, as the hand-written step reads
        // the images as they are.
        let rows = labelled_rows(&data, &batches);
        let mut rows = rows.iter().cycle();
        let mut opt = Sgd::new(model.parameters(), LR).expect("lr > 0");
        let (mut training, sample) = training(&mut s, &mut opt);
        b.iter(|| {
            let losses = training
                .step(&sample, rows.next().expect("cycles"))
                .expect("finite");
            black_box(losses.iter().sum::<f64>())
        })
    });

    let mut net = Mnist::new(model.parameters().iter().map(Value::data).collect());
    group.bench_function("handwritten, batch 32", |b| {
        b.iter(|| {
            let mut total = 0.0;
            let batch = next.next().expect("cycles");
            let scale = 1.0 / batch.len() as f64;
            net.zero_grad();
            for &i in batch {
                total += net.accumulate(&data.inputs[i], label(i), scale);
            }
            net.update(LR);
            black_box(total)
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("tape accumulate, batch 1", |b| {
        b.iter(|| {
            let i = next.next().expect("cycles")[0];
            let loss = s.accumulate(&data.inputs[i], label(i), 1.0);
            opt.zero_grad();
            s.tape.flush_grads();
            opt.step().expect("finite");
            black_box(loss)
        })
    });
    group.finish();
    interleaved_steps(&data, &batches);
}

/// Each batch's rows: an image's pixels, then its one-hot label (the tape's samples).
fn labelled_rows(data: &Dataset, batches: &[Vec<usize>]) -> Vec<Vec<Vec<f64>>> {
    let row = |i: usize| {
        let label = data.labels[i] as usize;
        let onehot = (0..10).map(move |c| f64::from(u8::from(c == label)));
        data.inputs[i].iter().copied().chain(onehot).collect()
    };
    let batch = |batch: &Vec<usize>| batch.iter().map(|&i| row(i)).collect();
    batches.iter().map(batch).collect()
}

/// What `07_mnist` runs, on one thread: a `Training` over the tape (each step
/// `accumulate_batch` + `flush_and_step` on the tape's numbers), with the scale of a
/// batch of [`BATCH`] set, and the inputs its rows fill.
fn training<'a>(s: &'a mut ImageTape, opt: &'a mut Sgd) -> (Training<'a, Sgd>, Inputs) {
    let [x, y, _] = &s.leaves;
    let sample = s.tape.inputs(&[&x[..], &y[..]].concat()).expect("leaves");
    let mut training = s.tape.train(opt, 1).expect("1 thread");
    training
        .set_inputs(&s.scale, &[1.0 / BATCH as f64])
        .expect("one number");
    (training, sample)
}

/// The `Training` step and the hand-written step in turn (medians of interleaved runs;
/// see `limits::interleaved`), each on its own copy of the model.
fn interleaved_steps(data: &Dataset, batches: &[Vec<usize>]) {
    let (rounds, run) = (15, 40);
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(1));
    let mut net = Mnist::new(model.parameters().iter().map(Value::data).collect());
    let mut s = ImageTape::compile(&model);
    let mut opt = Sgd::new(model.parameters(), LR).expect("lr > 0");
    let (mut training, sample) = training(&mut s, &mut opt);
    let rows = labelled_rows(data, batches);
    let (mut rows, mut hand_batches) = (rows.iter().cycle(), batches.iter().cycle());
    let tape_step = || {
        let losses = training.step(&sample, rows.next().expect("cycles"));
        black_box(losses.expect("finite"));
    };
    let hand_step = || {
        let batch = hand_batches.next().expect("cycles");
        net.zero_grad();
        for &i in batch {
            let label = data.labels[i] as usize;
            black_box(net.accumulate(&data.inputs[i], label, 1.0 / BATCH as f64));
        }
        net.update(LR);
    };
    let t = interleaved(rounds, run, tape_step, hand_step);
    println!(
        "interleaved, {rounds} rounds of {run} steps of each (the last {} timed), µs per \
         batch of {BATCH}: training step {:.1}, hand-written {:.1}: {:.2}x (median of the \
         rounds' ratios)",
        run - run / 4,
        t.first,
        t.second,
        t.ratio
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);

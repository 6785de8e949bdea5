//! Training an MLP(784, [32, 10]) on MNIST through the tape: the cost per sample of a
//! mini-batch SGD step (forward, backward, and the update shared by the batch).
//!
//! The graph of *one* sample is compiled once: 784 input leaves, 10 one-hot label leaves,
//! and the softmax cross-entropy `ln(sum(exp(z))) - sum(y * z)` of the logits `z` (the
//! label is an input, so the same tape serves every class). Per batch:
//! per sample `set_inputs` + `accumulate`, then `flush_grads` and the optimiser's step
//! (the next run reads the parameters it wrote). For comparison, `forward + backward per sample` runs the same
//! batch through `forward`/`backward` (the input `Value`s set with `set_data`).
//!
//! Needs MNIST's test set (`t10k-images-idx3-ubyte.gz`, `t10k-labels-idx1-ubyte.gz`) in
//! the directory `$MNIST_DIR`, or `data/mnist` under the repository root when it is not
//! set; without them the bench says what to set and measures nothing.
//!
//! `MNIST_DIR=path/to/mnist cargo bench --bench mnist_step`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use micrograd::data::{load_mnist, Dataset};
use micrograd::loss::softmax_cross_entropy;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::{Inputs, Tape};

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

/// One sample's graph on a tape, and the leaves a sample fills.
struct SampleTape {
    tape: Tape,
    image: Inputs,
    label: Inputs,
    /// The input leaves (for the `forward`/`backward` path).
    pixels: Vec<Value>,
    onehot: Vec<Value>,
}

/// `ln(sum_i exp(z_i)) - sum_i y_i z_i`: softmax cross-entropy with the one-hot label
/// `y` given as leaves. (Without the max shift of `loss::softmax_cross_entropy`: the
/// logits of this model stay far below exp's overflow at 709, and the tape reports a
/// non-finite value if they do not.)
fn cross_entropy(logits: &[Value], onehot: &[Value]) -> Value {
    let log_sum_exp = logits.iter().map(Value::exp).sum::<Value>().ln();
    log_sum_exp - logits.iter().zip(onehot).map(|(z, y)| y * z).sum::<Value>()
}

fn compile(model: &MLP) -> SampleTape {
    let pixels: Vec<Value> = (0..784).map(|_| Value::new(0.0)).collect();
    let onehot: Vec<Value> = (0..10).map(|_| Value::new(0.0)).collect();
    let logits = model.forward(&pixels).expect("784 inputs");
    let tape = Tape::compile(&cross_entropy(&logits, &onehot)).expect("a graph");
    let image = tape.inputs(&pixels).expect("leaves of the tape");
    let label = tape.inputs(&onehot).expect("leaves of the tape");
    SampleTape {
        tape,
        image,
        label,
        pixels,
        onehot,
    }
}

fn onehot(label: f64) -> [f64; 10] {
    let mut y = [0.0; 10];
    y[label as usize] = 1.0;
    y
}

/// The tape's loss and gradients on one sample equal the dynamic graph's with
/// `loss::softmax_cross_entropy` (to 1e-12).
fn check_one_sample(data: &Dataset) {
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(1));
    let mut s = compile(&model);
    s.tape.set_inputs(&s.image, &data.inputs[0]).expect("784");
    s.tape
        .set_inputs(&s.label, &onehot(data.labels[0]))
        .expect("10");
    let tape_loss = s.tape.accumulate().expect("finite");
    s.tape.flush_grads();
    let tape_grads: Vec<f64> = model.parameters().iter().map(Value::grad).collect();

    model.zero_grad();
    let logits = model.forward_f64(&data.inputs[0]).expect("784");
    let loss = softmax_cross_entropy(&logits, data.labels[0] as usize).expect("a class");
    loss.backward();
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1e-3);
    assert!(close(tape_loss, loss.data()), "{tape_loss} {}", loss.data());
    for (p, t) in model.parameters().iter().zip(tape_grads) {
        assert!(close(t, p.grad()), "{t} {}", p.grad());
    }
    println!("sample 0: loss {tape_loss} on the tape and in the dynamic graph");
}

fn bench(c: &mut Criterion) {
    let Some(data) = mnist() else { return };
    check_one_sample(&data);
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(1));
    let mut s = compile(&model);
    let mut opt = Sgd::new(model.parameters(), LR).expect("lr > 0");
    let batches: Vec<Vec<usize>> = (0..20)
        .map(|b| (b * BATCH..(b + 1) * BATCH).collect())
        .collect();
    let mut next = batches.iter().cycle();

    let mut group = c.benchmark_group("mnist 784-32-10 step");
    group.throughput(Throughput::Elements(BATCH as u64));
    group.bench_function("tape accumulate, batch 32", |b| {
        b.iter(|| {
            let mut total = 0.0;
            for &i in next.next().expect("cycles") {
                s.tape.set_inputs(&s.image, &data.inputs[i]).expect("784");
                s.tape
                    .set_inputs(&s.label, &onehot(data.labels[i]))
                    .expect("10");
                total += s.tape.accumulate().expect("finite");
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
            for &i in next.next().expect("cycles") {
                for (leaf, &x) in s.pixels.iter().zip(&data.inputs[i]) {
                    leaf.set_data(x);
                }
                for (leaf, y) in s.onehot.iter().zip(onehot(data.labels[i])) {
                    leaf.set_data(y);
                }
                total += s.tape.forward().expect("finite");
                s.tape.backward().expect("finite");
            }
            opt.step().expect("finite");
            black_box(total)
        })
    });
    group.throughput(Throughput::Elements(1));
    group.bench_function("tape accumulate, batch 1", |b| {
        b.iter(|| {
            let i = next.next().expect("cycles")[0];
            s.tape.set_inputs(&s.image, &data.inputs[i]).expect("784");
            s.tape
                .set_inputs(&s.label, &onehot(data.labels[i]))
                .expect("10");
            let loss = s.tape.accumulate().expect("finite");
            opt.zero_grad();
            s.tape.flush_grads();
            opt.step().expect("finite");
            black_box(loss)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! How far two threads can go on this machine: a batch of 32 MNIST-shaped samples
//! (784-32-10, softmax cross-entropy) through the tape on one thread, the same batch
//! split by `accumulate_batch` on two, and the ceiling: two threads with a tape each
//! (nothing shared, no synchronisation), 16 samples apiece.
//!
//! Run: `cargo bench --bench threads_ceiling` (`-- --rounds N`, default 7). Each round
//! runs the three one after the other, 500 batches each; the medians over the rounds
//! and their ratios to one thread are printed. Results are in `docs/benchmarks.md`
//! ("Threads").

use std::time::Instant;

use micrograd::prelude::*;
use micrograd::tape::{Inputs, Tape};

const BATCHES: usize = 500;

/// An MNIST-shaped model's loss on one sample compiled, its sample leaves, and `n`
/// samples of pixels in [0, 1) (a fixed sequence) with one-hot labels.
fn setup(n: usize) -> (Tape, Inputs, Vec<Vec<f64>>) {
    let model = MLP::new(
        784,
        &[32, 10],
        &mut micrograd::random::PythonRandom::seed(1),
    );
    let x: Vec<Value> = (0..794).map(|_| Value::new(0.0).no_grad()).collect();
    let logits = model.forward(&x[..784]).expect("784 inputs");
    let log_sum_exp = logits.iter().map(Value::exp).sum::<Value>().ln();
    let picked: Value = logits.iter().zip(&x[784..]).map(|(z, y)| y * z).sum();
    let tape = Tape::compile(&(log_sum_exp - picked)).expect("a finite loss");
    let inputs = tape.inputs(&x).expect("leaves of the tape");
    let samples = (0..n)
        .map(|i| {
            let pixel = |j: usize| ((i * 7919 + j * 104_729) % 1000) as f64 / 1000.0;
            let label = |c: usize| f64::from(u8::from(c == i % 10));
            (0..784).map(pixel).chain((0..10).map(label)).collect()
        })
        .collect();
    (tape, inputs, samples)
}

/// µs per batch of `threads` tape runs of `n` samples each: one tape on `threads`
/// threads (`shared`), or a tape per thread (not `shared`).
fn time(n: usize, threads: usize, shared: bool) -> f64 {
    let run = move |threads: usize| {
        let (mut tape, inputs, samples) = setup(n);
        let start = Instant::now();
        for _ in 0..BATCHES {
            tape.accumulate_batch(&inputs, &samples, threads)
                .expect("finite gradients");
        }
        start.elapsed().as_secs_f64() * 1e6 / BATCHES as f64
    };
    if shared {
        return run(threads);
    }
    let others: Vec<_> = (1..threads)
        .map(|_| std::thread::spawn(move || run(1)))
        .collect();
    let mine = run(1);
    others
        .into_iter()
        .map(|t| t.join().expect("no panic"))
        .fold(mine, f64::max)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds = (args.iter().position(|a| a == "--rounds"))
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(7);
    let (mut one, mut ours, mut ceiling) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        one.push(time(32, 1, true));
        ours.push(time(32, 2, true));
        ceiling.push(time(16, 2, false));
    }
    let (one, ours, ceiling) = (median(one), median(ours), median(ceiling));
    println!("batch of 32, median of {rounds} rounds of {BATCHES} batches:");
    println!("  1 thread (accumulate_batch):                 {one:7.1} us");
    println!(
        "  2 threads (accumulate_batch):                {ours:7.1} us  {:.2}x",
        one / ours
    );
    println!("  2 threads, a tape each, 16 samples, nothing shared: {ceiling:7.1} us  {:.2}x (the ceiling)", one / ceiling);
}

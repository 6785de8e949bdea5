//! How far two threads can go on this machine: a batch of 32 MNIST-shaped samples
//! (784-32-10, softmax cross-entropy) through the tape on one thread, the same batch
//! split by `accumulate_batch` on two, and the ceiling: two threads with a tape each
//! (nothing shared, no synchronisation), 16 samples apiece. Then whole `Training` steps
//! (the batch and Adam's update, as `07_mnist` takes them) on 1 and on 2 threads, runs
//! of 20 of each in turn, so that both meet the same load: on this shared machine the
//! ratio of two runs taken one after the other moves by ±20%.
//!
//! Run: `cargo bench --bench threads_ceiling` (`-- --rounds N`, default 7). Each round
//! runs the three one after the other, 500 batches each, then 500 training steps of
//! each kind, 20 at a time in turn; the medians over the rounds and their ratios to one
//! thread are printed. Results are in `docs/benchmarks.md`.

use std::time::Instant;

use micrograd::prelude::*;
use micrograd::tape::{Inputs, Tape};

const BATCHES: usize = 500;

/// An MNIST-shaped model's loss on one sample compiled, its sample leaves, `n` samples
/// of pixels in [0, 1) (a fixed sequence) with one-hot labels, and the model's
/// parameters.
fn setup(n: usize) -> (Tape, Inputs, Vec<Vec<f64>>, Vec<Value>) {
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
    (tape, inputs, samples, model.parameters())
}

/// µs per `Training` step (Adam, batch of 32) on 1 and on 2 threads, a few steps of each
/// in turn.
fn time_training() -> [f64; 2] {
    // 8,000 samples, 250 batches, as `07_mnist --holdout 2000` trains on: each step
    // reads its batch from memory, not from a cache.
    let data = setup(8000).2;
    let mut kinds: Vec<_> = [1, 2]
        .map(|threads| {
            let (tape, inputs, _, params) = setup(0);
            let opt = Adam::new(params, 0.002).expect("a valid learning rate");
            (threads, tape, opt, inputs)
        })
        .into();
    let mut batches = data.chunks(32).cycle();
    // Runs of a few steps of each in turn: a thread that waits a whole step on one
    // thread before its next is asleep at its start, which it is not between the steps
    // of one training; the first steps of each run are not timed. (One training at a
    // time: a live one makes other tapes check that they hold none of its parameters.)
    let (mut total, mut timed) = ([0.0; 2], 0);
    for run in 0..BATCHES / RUN {
        for ((threads, tape, opt, inputs), total) in kinds.iter_mut().zip(&mut total) {
            let mut training = tape.train(opt, *threads).expect("threads");
            for step in 0..RUN {
                let batch = batches.next().expect("a cycle");
                let start = Instant::now();
                training.step(inputs, batch).expect("finite steps");
                if step >= RUN - TIMED {
                    *total += start.elapsed().as_secs_f64() * 1e6;
                }
            }
        }
        timed = (run + 1) * TIMED;
    }
    total.map(|t| t / timed as f64)
}

/// The steps of each kind in a run of [`time_training`], and how many of them (the last)
/// are timed.
const RUN: usize = 20;
const TIMED: usize = 15;

/// µs per batch of `threads` tape runs of `n` samples each: one tape on `threads`
/// threads (`shared`), or a tape per thread (not `shared`).
fn time(n: usize, threads: usize, shared: bool) -> f64 {
    let run = move |threads: usize| {
        let (mut tape, inputs, samples, _) = setup(n);
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
    let (mut step1, mut step2, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        one.push(time(32, 1, true));
        ours.push(time(32, 2, true));
        ceiling.push(time(16, 2, false));
        let [s1, s2] = time_training();
        step1.push(s1);
        step2.push(s2);
        ratio.push(s1 / s2);
    }
    let (one, ours, ceiling) = (median(one), median(ours), median(ceiling));
    println!("batch of 32, median of {rounds} rounds of {BATCHES} batches:");
    println!("  1 thread (accumulate_batch):                 {one:7.1} us");
    println!(
        "  2 threads (accumulate_batch):                {ours:7.1} us  {:.2}x",
        one / ours
    );
    println!("  2 threads, a tape each, 16 samples, nothing shared: {ceiling:7.1} us  {:.2}x (the ceiling)", one / ceiling);
    let (step1, step2, ratio) = (median(step1), median(step2), median(ratio));
    println!("Training step (batch and Adam), runs of {RUN} steps on 1 and on 2 threads in turn:");
    println!("  1 thread: {step1:7.1} us, 2 threads: {step2:7.1} us, ratio {ratio:.2}x (median of the rounds' ratios)");
}

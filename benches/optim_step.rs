//! One optimiser step over the 25,450 parameters of `MLP(784, [32, 10])` (the MNIST
//! model), against micrograd's unchecked loop `p.data -= lr * p.grad`: what the
//! all-or-nothing checks of [`Optimizer::step`] cost on top of touching every `Value`;
//! and `step_numbers`, the same update on plain numbers (a tape's step).
//!
//! The gradients are set once (every g = 0.001) and never zeroed, so each step moves
//! every parameter by the same small amount and nothing diverges while criterion repeats.
//!
//! `cargo bench --bench optim_step`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use micrograd::prelude::*;
use micrograd::random::PythonRandom;

/// The MNIST model's parameters, each with gradient 0.001.
fn parameters() -> Vec<Value> {
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(1));
    let params = model.parameters();
    params.iter().map(|p| p * 0.001).sum::<Value>().backward();
    params
}

fn bench(c: &mut Criterion) {
    let params = parameters();
    let mut group = c.benchmark_group("optim step, 25450 params");
    group.bench_function("micrograd loop (unchecked)", |b| {
        b.iter(|| {
            for p in &params {
                // Python: p.data -= lr * p.grad
                p.set_data(p.data() - 1e-6 * p.grad());
            }
        })
    });
    let mut sgd = Sgd::new(params.clone(), 1e-6).expect("lr > 0");
    group.bench_function("Sgd::step", |b| {
        b.iter(|| black_box(sgd.step()).expect("finite"))
    });
    let mut momentum = Sgd::new(params.clone(), 1e-6)
        .and_then(|o| o.momentum(0.9))
        .expect("valid");
    group.bench_function("Sgd::step, momentum 0.9", |b| {
        b.iter(|| black_box(momentum.step()).expect("finite"))
    });
    let mut adam = Adam::new(params.clone(), 1e-6).expect("lr > 0");
    group.bench_function("Adam::step", |b| {
        b.iter(|| black_box(adam.step()).expect("finite"))
    });
    // On plain numbers, as a tape's step runs it (one thread): the arithmetic, without
    // the Values. (Criterion repeats the step thousands of times: past the first ~350,
    // Adam's m / (1 - β₁ᵗ) is m / 1, which it skips.)
    let (mut data, grads): (Vec<f64>, Vec<f64>) =
        params.iter().map(|p| (p.data(), p.grad())).unzip();
    let mut sgd = Sgd::new(params.clone(), 1e-6).expect("lr > 0");
    group.bench_function("Sgd::step_numbers, 1 thread", |b| {
        b.iter(|| black_box(sgd.step_numbers(&mut data, &grads, 1)).expect("finite"))
    });
    let mut adam = Adam::new(params.clone(), 1e-6).expect("lr > 0");
    group.bench_function("Adam::step_numbers, 1 thread", |b| {
        b.iter(|| black_box(adam.step_numbers(&mut data, &grads, 1)).expect("finite"))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

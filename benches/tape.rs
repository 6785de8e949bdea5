//! The dynamic graph against the compiled tape on a mid-size graph: the summed squared
//! error of a 2-16-16-1 ReLU network over 100 points, written with plain `Value`s
//! (about 37,000 nodes).
//!
//! `cargo bench --bench tape`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use micrograd::tape::Tape;
use micrograd::Value;

/// Deterministic numbers in [-1, 1) (a linear congruential generator).
fn numbers(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    }
}

/// A layer's weights: one row per neuron, the bias last.
type Layer = Vec<Vec<Value>>;

fn layer(inputs: usize, outputs: usize, next: &mut impl FnMut() -> f64) -> Layer {
    (0..outputs)
        .map(|_| (0..=inputs).map(|_| Value::new(next())).collect())
        .collect()
}

/// Each neuron's `sum(w·x) + b`, through ReLU unless it is the last layer.
fn apply(layer: &Layer, x: &[Value], relu: bool) -> Vec<Value> {
    layer
        .iter()
        .map(|row| {
            let (w, b) = row.split_at(x.len());
            let z: Value = w
                .iter()
                .zip(x)
                .map(|(w, x)| w * x)
                .chain([b[0].clone()])
                .sum();
            if relu {
                z.relu()
            } else {
                z
            }
        })
        .collect()
}

fn loss(model: &[Layer], points: &[([Value; 2], Value)]) -> Value {
    points
        .iter()
        .map(|(x, y)| {
            let h1 = apply(&model[0], x, true);
            let h2 = apply(&model[1], &h1, true);
            let out = apply(&model[2], &h2, false);
            (&out[0] - y).powf(2.0)
        })
        .sum()
}

fn bench(c: &mut Criterion) {
    let mut next = numbers(1);
    let model = vec![
        layer(2, 16, &mut next),
        layer(16, 16, &mut next),
        layer(16, 1, &mut next),
    ];
    let data: Vec<([f64; 2], f64)> = (0..100).map(|_| ([next(), next()], next())).collect();
    let points = || -> Vec<([Value; 2], Value)> {
        data.iter()
            .map(|(x, y)| (x.map(Value::new), Value::new(*y)))
            .collect()
    };
    let params = || model.iter().flatten().flatten();

    let mut group = c.benchmark_group("mlp 2-16-16-1, 100 points");
    group.bench_function("dynamic: build + backward", |b| {
        b.iter(|| {
            let l = loss(&model, &points());
            l.backward();
            params().for_each(Value::zero_grad);
            black_box(l.data())
        })
    });
    let fixed = points();
    let root = loss(&model, &fixed);
    println!(
        "graph size: {} nodes",
        Tape::compile(&root).unwrap().node_count()
    );
    group.bench_function("tape: compile", |b| {
        b.iter(|| Tape::compile(black_box(&root)).unwrap())
    });
    let mut tape = Tape::compile(&root).unwrap();
    group.bench_function("tape: forward + backward", |b| {
        b.iter(|| {
            let l = tape.forward().unwrap();
            tape.backward().unwrap();
            params().for_each(Value::zero_grad);
            black_box(l)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

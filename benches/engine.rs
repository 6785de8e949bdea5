//! Engine speed: building, differentiating and freeing graphs, reported per node.
//!
//! Run: `cargo bench --bench engine` (all), `cargo bench --bench engine -- chain` (the
//! 3,000,000-node chain only), `cargo bench --bench engine -- op/` (the per-op chains).
//! Criterion reports time per iteration and, from `Throughput::Elements`, nodes per
//! second; `scripts/compare/engine.sh` turns the medians into ns per node and compares
//! them with Python micrograd. Results are in `docs/benchmarks.md`.
//!
//! - `chain/*`: the graph of `scripts/compare/engine_python.py`: `y = x; y = y * 1.0000001 + 0.5`,
//!   repeated; each step makes 4 nodes (two constant leaves, a `*` and a `+`).
//!   `chain/total` times build + backward + drop together; `chain/build`,
//!   `chain/backward` and `chain/drop` time each phase alone.
//! - `op/<name>/*`: one op repeated along a chain of [`OP_NODES`] nodes of that op
//!   (`y = op(y)`, with any other operand a leaf shared by the whole chain), so the
//!   per-node numbers are the cost of that op's node alone.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};
use micrograd::Value;

/// Steps of the chain graph; 4 nodes each, plus the input `x`: 3,000,001 nodes.
const CHAIN_STEPS: usize = 750_000;

/// Number of op nodes in each per-op chain.
const OP_NODES: usize = 100_000;

/// `x = Value(1.0); y = x; y = y * 1.0000001 + 0.5` repeated `steps` times.
fn chain(steps: usize) -> Value {
    let mut y = Value::new(1.0);
    for _ in 0..steps {
        y = y * 1.0000001 + 0.5;
    }
    y
}

/// Benchmarks the three phases of one graph separately: `group/build` (graph built
/// from the inputs that `setup` makes, untimed), `group/backward` and `group/drop`
/// (freeing the graph; the inputs are freed untimed). `nodes` is the node count that
/// criterion divides by.
fn bench_phases<S>(
    c: &mut Criterion,
    group: &str,
    nodes: usize,
    setup: impl Fn() -> S,
    build: impl Fn(&S) -> Value,
) {
    let mut g = c.benchmark_group(group);
    g.throughput(Throughput::Elements(nodes as u64));
    g.sampling_mode(SamplingMode::Flat);
    let built = || {
        let inputs = setup();
        let y = build(&inputs);
        (inputs, y)
    };
    g.bench_function("build", |b| {
        b.iter_batched(&setup, |s| (build(&s), s), BatchSize::PerIteration)
    });
    g.bench_function("backward", |b| {
        b.iter_batched(
            built,
            |(s, y)| {
                y.backward();
                (s, y)
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function("drop", |b| {
        b.iter_batched(
            || {
                let (s, y) = built();
                y.backward();
                (s, y)
            },
            |(s, y)| {
                drop(y);
                s
            },
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

/// The main number: build + backward + drop of the 3,000,001-node chain.
fn chain_graph(c: &mut Criterion) {
    let nodes = 4 * CHAIN_STEPS + 1;
    let mut g = c.benchmark_group("chain");
    g.throughput(Throughput::Elements(nodes as u64));
    g.sampling_mode(SamplingMode::Flat);
    g.bench_function("total", |b| {
        b.iter(|| {
            let y = chain(black_box(CHAIN_STEPS));
            y.backward();
            drop(y);
        })
    });
    g.finish();
    bench_phases(c, "chain", nodes, || CHAIN_STEPS, |&steps| chain(steps));
}

/// A chain `y = step(y, k)` of [`OP_NODES`] op nodes from the leaf `start`, where
/// `step` makes `per_step` nodes; `k` is a leaf shared by every step (the second
/// operand of binary ops).
fn op_chain(
    c: &mut Criterion,
    name: &str,
    (start, k): (f64, f64),
    per_step: usize,
    step: impl Fn(&Value, &Value) -> Value,
) {
    bench_phases(
        c,
        &format!("op/{name}"),
        OP_NODES,
        || (Value::new(start), Value::new(k)),
        |(x, k)| {
            let mut y = x.clone();
            for _ in 0..OP_NODES / per_step {
                y = step(&y, k);
            }
            y
        },
    );
}

/// Every op on its own chain. Start values and constants keep the whole chain finite
/// and away from subnormals (which would be slow for the wrong reason): e.g. `tanh`
/// shrinks 1.0 towards 0 only like 1/√n, `sqrt` and `powf(0.5)` pull towards 1.
fn per_op(c: &mut Criterion) {
    op_chain(c, "add", (1.0, 1e-7), 1, |y, k| y + k);
    op_chain(c, "sub", (1.0, 1e-7), 1, |y, k| y - k);
    op_chain(c, "mul", (1.0, 1.0000001), 1, |y, k| y * k);
    op_chain(c, "div", (1.0, 1.0000001), 1, |y, k| y / k);
    op_chain(c, "relu", (1.0, 0.0), 1, |y, _| y.relu());
    op_chain(c, "leaky_relu", (1.0, 0.0), 1, |y, _| y.leaky_relu(0.01));
    op_chain(c, "tanh", (1.0, 0.0), 1, |y, _| y.tanh());
    op_chain(c, "sigmoid", (1.0, 0.0), 1, |y, _| y.sigmoid());
    // exp alone grows without bound (and ln alone falls below 0) along a chain, so
    // these two alternate: the per-node number is the mean of one exp and one ln node.
    op_chain(c, "exp_ln", (1.0, 0.0), 2, |y, _| y.exp().ln());
    op_chain(c, "powf", (2.0, 0.0), 1, |y, _| y.powf(0.5));
    op_chain(c, "pow", (2.0, 0.5), 1, |y, k| y.pow(k));
    op_chain(c, "sqrt", (2.0, 0.0), 1, |y, _| y.sqrt());
    op_chain(c, "abs", (-1.0, 0.0), 1, |y, _| y.abs());
    // The n-ary sum: ONE node over OP_NODES leaves (made untimed); per node = per term.
    bench_phases(
        c,
        "op/sum",
        OP_NODES,
        || {
            (0..OP_NODES)
                .map(|i| Value::new(i as f64))
                .collect::<Vec<_>>()
        },
        |terms| terms.iter().sum(),
    );
}

fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
}

criterion_group! {
    name = benches;
    config = config();
    targets = chain_graph, per_op
}
criterion_main!(benches);

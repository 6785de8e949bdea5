//! One training step of micrograd's demo (the moons data, MLP 2-16-16-1, SVM hinge loss
//! plus 1e-4 L2, SGD): forward, backward and update over all 100 points, three ways.
//!
//! - `dynamic`: the graph is built anew every step from `Value`s, as in Python;
//! - `tape`: the graph is compiled once into a [`Tape`], each step runs it (the
//!   parameters' `Value`s read and written at every step, as an optimiser wants them);
//! - `tape (Training)`: the same tape stepping its own numbers ([`Tape::train`], a
//!   batch of one sample: the graph has no inputs), the `Value`s written at the end;
//! - `handwritten`: the same arithmetic on plain `f64` arrays with the derivatives written
//!   out by hand (`limits::moons`, a layer's 16 sums side by side): no graph at all, the
//!   limit the other two approach.
//!
//! Before timing, the setup checks that the three compute the same loss and gradients
//! on step 0, bit for bit.
//!
//! `cargo bench --bench moons_step`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use limits::moons::Moons;
use limits::{interleaved, Interleaved};
use micrograd::data::{moons100, Dataset};
use micrograd::loss::{l2, svm_hinge, svm_hinge_targets};
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;

/// The L2 weight of the notebook's loss.
const ALPHA: f64 = 1e-4;
/// The bench trains with a constant, small learning rate so that the model (and with it
/// which ReLUs are active) changes little while criterion repeats the step.
const LR: f64 = 0.01;

/// The notebook's model, `random.seed(1337); MLP(2, [16, 16, 1])`.
fn model() -> MLP {
    MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337))
}

/// The model's score of every point.
fn scores(model: &MLP, data: &Dataset) -> Vec<Value> {
    (data.inputs.iter())
        .map(|x| model.forward_f64(x).expect("2 inputs").remove(0))
        .collect()
}

/// The notebook's loss over every point: `svm_hinge(scores) + l2(params, 1e-4)`.
fn notebook_loss(model: &MLP, data: &Dataset) -> Value {
    let loss = svm_hinge(&scores(model, data), &data.labels).expect("labels are -1 or 1");
    loss + l2(&model.parameters(), ALPHA)
}

/// [`notebook_loss`] with the labels as leaves (`no_grad`), the same numbers: a
/// [`Tape::train`] refuses a graph that holds its targets as numbers.
fn notebook_loss_for_training(model: &MLP, data: &Dataset) -> Value {
    let labels: Vec<Value> = (data.labels.iter())
        .map(|&y| Value::new(y).no_grad())
        .collect();
    let loss = svm_hinge_targets(&scores(model, data), &labels).expect("labels are -1 or 1");
    loss + l2(&model.parameters(), ALPHA)
}

/// Step 0 in all three engines: the same loss and the same gradients, bit for bit (as
/// `limits::moons`'s tests check on more models).
fn check_step_zero(data: &Dataset) {
    let dynamic = model();
    let loss = notebook_loss(&dynamic, data);
    loss.backward();

    let taped = model();
    let mut tape = Tape::compile(&notebook_loss(&taped, data)).expect("a graph");
    let tape_loss = tape.forward().expect("finite");
    tape.backward().expect("finite");

    let params: Vec<f64> = dynamic.parameters().iter().map(Value::data).collect();
    let mut net = Moons::new(params);
    let hand_loss = net.loss_and_grads(&data.inputs, &data.labels, ALPHA);

    let bits = loss.data().to_bits();
    assert!(tape_loss.to_bits() == bits && hand_loss.to_bits() == bits);
    let grads = dynamic.parameters().into_iter().map(|p| p.grad());
    let tape_grads = taped.parameters().into_iter().map(|p| p.grad());
    for (i, ((d, t), h)) in grads.zip(tape_grads).zip(&net.grads).enumerate() {
        assert!(t == d && *h == d, "param {i}: {d} {t} {h}");
    }
    println!("step 0: loss {} in all three engines", loss.data());
    check_training_step_zero(data);
}

/// Step 0 through [`Tape::train`]: the same loss, gradients and updated parameters as
/// the dynamic graph's step, bit for bit.
fn check_training_step_zero(data: &Dataset) {
    let dynamic = model();
    let loss = notebook_loss(&dynamic, data);
    loss.backward();
    Sgd::new(dynamic.parameters(), LR)
        .expect("lr > 0")
        .step()
        .expect("finite");

    let taped = model();
    let mut tape = Tape::compile(&notebook_loss_for_training(&taped, data)).expect("a graph");
    let mut opt = Sgd::new(taped.parameters(), LR).expect("lr > 0");
    let input = tape.inputs(&[]).expect("no inputs");
    let mut training = tape.train(&mut opt, 1).expect("1 thread");
    let losses = training.step(&input, &[[0.0; 0]]).expect("finite");
    training.finish();
    assert!(losses.len() == 1 && losses[0].to_bits() == loss.data().to_bits());
    for (i, (d, t)) in dynamic
        .parameters()
        .iter()
        .zip(taped.parameters())
        .enumerate()
    {
        let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
        assert!(
            same(d.grad(), t.grad()),
            "param {i}: grad {} {}",
            d.grad(),
            t.grad()
        );
        assert!(
            same(d.data(), t.data()),
            "param {i}: data {} {}",
            d.data(),
            t.data()
        );
    }
    println!("step 0 through Tape::train: the dynamic graph's loss, gradients and update");
}

fn bench(c: &mut Criterion) {
    let data = moons100();
    check_step_zero(&data);
    let mut group = c.benchmark_group("moons step");

    let dynamic = model();
    let mut opt = Sgd::new(dynamic.parameters(), LR).expect("lr > 0");
    group.bench_function("dynamic", |b| {
        b.iter(|| {
            let loss = notebook_loss(&dynamic, &data);
            opt.zero_grad();
            loss.backward();
            opt.step().expect("finite");
            black_box(loss.data())
        })
    });

    let taped = model();
    let mut tape = Tape::compile(&notebook_loss(&taped, &data)).expect("a graph");
    let mut opt = Sgd::new(taped.parameters(), LR).expect("lr > 0");
    group.bench_function("tape", |b| {
        b.iter(|| {
            let loss = tape.forward().expect("finite");
            opt.zero_grad();
            tape.backward().expect("finite");
            opt.step().expect("finite");
            black_box(loss)
        })
    });

    let trained = model();
    let mut tape = Tape::compile(&notebook_loss_for_training(&trained, &data)).expect("a graph");
    let mut opt = Sgd::new(trained.parameters(), LR).expect("lr > 0");
    let input = tape.inputs(&[]).expect("no inputs");
    let mut training = tape.train(&mut opt, 1).expect("1 thread");
    group.bench_function("tape (Training)", |b| {
        b.iter(|| black_box(training.step(&input, &[[0.0; 0]]).expect("finite")[0]))
    });
    training.finish();

    let params = model().parameters().iter().map(Value::data).collect();
    let mut net = Moons::new(params);
    group.bench_function("handwritten", |b| {
        b.iter(|| {
            let loss = net.loss_and_grads(&data.inputs, &data.labels, ALPHA);
            net.update(LR);
            black_box(loss)
        })
    });
    group.finish();
    interleaved_steps(&data);
}

/// The tape's step and the hand-written step in turn (medians of interleaved runs; see
/// `limits::interleaved`), each on its own copy of the model;
/// then the same for the tape's step through [`Tape::train`].
fn interleaved_steps(data: &Dataset) {
    let (rounds, run) = (15, 400);
    let taped = model();
    let mut tape = Tape::compile(&notebook_loss(&taped, data)).expect("a graph");
    let mut opt = Sgd::new(taped.parameters(), LR).expect("lr > 0");
    let mut net = Moons::new(model().parameters().iter().map(Value::data).collect());
    let tape_step = || {
        black_box(tape.forward().expect("finite"));
        opt.zero_grad();
        tape.backward().expect("finite");
        opt.step().expect("finite");
    };
    let hand_step = |net: &mut Moons| {
        black_box(net.loss_and_grads(&data.inputs, &data.labels, ALPHA));
        net.update(LR);
    };
    let t = interleaved(rounds, run, tape_step, || hand_step(&mut net));
    report(rounds, run, "tape", t);

    let trained = model();
    let mut tape = Tape::compile(&notebook_loss_for_training(&trained, data)).expect("a graph");
    let mut opt = Sgd::new(trained.parameters(), LR).expect("lr > 0");
    let input = tape.inputs(&[]).expect("no inputs");
    let mut training = tape.train(&mut opt, 1).expect("1 thread");
    let mut net = Moons::new(model().parameters().iter().map(Value::data).collect());
    let training_step = || {
        black_box(training.step(&input, &[[0.0; 0]]).expect("finite"));
    };
    let t = interleaved(rounds, run, training_step, || hand_step(&mut net));
    report(rounds, run, "tape (Training)", t);
}

/// Prints one interleaved comparison with the hand-written step.
fn report(rounds: usize, run: usize, name: &str, t: Interleaved) {
    println!(
        "interleaved, {rounds} rounds of {run} steps of each (the last {} timed), µs per \
         step: {name} {:.2}, hand-written {:.2}: {:.2}x (median of the rounds' ratios)",
        run - run / 4,
        t.first,
        t.second,
        t.ratio
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! One training step of micrograd's demo (the moons data, MLP 2-16-16-1, SVM hinge loss
//! plus 1e-4 L2, SGD): forward, backward and update over all 100 points, three ways.
//!
//! - `dynamic`: the graph is built anew every step from `Value`s, as in Python;
//! - `tape`: the graph is compiled once into a [`Tape`], each step runs it;
//! - `handwritten`: the same arithmetic on plain `f64` arrays with the derivatives written
//!   out by hand (the module below): no graph at all, the limit the other two approach.
//!
//! Before timing, the setup checks that the three compute the same loss and gradients
//! on step 0 (to 1e-12 relative).
//!
//! `cargo bench --bench moons_step`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use micrograd::data::{moons100, Dataset};
use micrograd::loss::{l2, svm_hinge};
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

/// The notebook's loss over every point: `svm_hinge(scores) + l2(params, 1e-4)`.
fn notebook_loss(model: &MLP, data: &Dataset) -> Value {
    let scores: Vec<Value> = data
        .inputs
        .iter()
        .map(|x| model.forward_f64(x).expect("2 inputs").remove(0))
        .collect();
    svm_hinge(&scores, &data.labels).expect("labels are -1 or 1") + l2(&model.parameters(), ALPHA)
}

/// The same network and loss with no graph: plain arrays, derivatives by hand.
mod handwritten {
    use micrograd::data::Dataset;

    /// Layer widths, input first.
    const WIDTHS: [usize; 4] = [2, 16, 16, 1];
    /// The widest layer.
    const MAX: usize = 16;

    /// Parameters and their gradients, both in `MLP::parameters()` order: layer by
    /// layer, neuron by neuron, each neuron's weights then its bias.
    pub struct Net {
        pub params: Vec<f64>,
        pub grads: Vec<f64>,
    }

    impl Net {
        pub fn new(params: Vec<f64>) -> Net {
            let grads = vec![0.0; params.len()];
            Net { params, grads }
        }

        /// Forward and backward over all points: returns the loss and leaves its
        /// gradient in `grads`.
        pub fn loss_and_grads(&mut self, data: &Dataset, alpha: f64) -> f64 {
            self.grads.fill(0.0);
            let scale = 1.0 / data.len() as f64;
            // acts[l] is the output of layer l (acts[0] the input).
            let mut acts = [[0.0; MAX]; 4];
            let mut data_loss = 0.0;
            for (x, &y) in data.inputs.iter().zip(&data.labels) {
                acts[0][..2].copy_from_slice(x);
                let mut start = 0;
                for l in 0..3 {
                    let (nin, nout) = (WIDTHS[l], WIDTHS[l + 1]);
                    let rows = &self.params[start..start + nout * (nin + 1)];
                    let (input, output) = acts.split_at_mut(l + 1);
                    forward(rows, &input[l][..nin], &mut output[0][..nout], l < 2);
                    start += nout * (nin + 1);
                }
                // loss_i = relu(1 - y s); d loss_i / d s = -y where it is positive.
                let margin = acts[3][0] * -y + 1.0;
                let hinge = if margin < 0.0 { 0.0 } else { margin };
                data_loss += hinge;
                let mut grad_out = [0.0; MAX];
                grad_out[0] = if hinge > 0.0 { -y * scale } else { 0.0 };
                for l in (0..3).rev() {
                    let (nin, nout) = (WIDTHS[l], WIDTHS[l + 1]);
                    start -= nout * (nin + 1);
                    let end = start + nout * (nin + 1);
                    let mut grad_in = [0.0; MAX];
                    backward(
                        &self.params[start..end],
                        &mut self.grads[start..end],
                        &acts[l][..nin],
                        (&acts[l + 1][..nout], &grad_out[..nout]),
                        &mut grad_in[..nin],
                        l < 2,
                    );
                    grad_out = grad_in;
                }
            }
            // reg = alpha * sum(p * p); d reg / d p = 2 alpha p.
            let mut squares = 0.0;
            for (p, g) in self.params.iter().zip(&mut self.grads) {
                squares += p * p;
                *g += 2.0 * alpha * p;
            }
            data_loss * scale + squares * alpha
        }

        /// `p -= lr * grad` for every parameter.
        pub fn update(&mut self, lr: f64) {
            for (p, g) in self.params.iter_mut().zip(&self.grads) {
                *p -= lr * g;
            }
        }
    }

    /// `out[j] = act(b_j + sum_i w_ji x_i)` for each neuron row `[w_j.., b_j]`.
    fn forward(rows: &[f64], x: &[f64], out: &mut [f64], relu: bool) {
        for (o, row) in out.iter_mut().zip(rows.chunks_exact(x.len() + 1)) {
            let (w, b) = row.split_at(x.len());
            let mut z = b[0];
            for (wi, xi) in w.iter().zip(x) {
                z += wi * xi;
            }
            *o = if relu && z < 0.0 { 0.0 } else { z };
        }
    }

    /// The chain rule through one layer: from d loss / d out (`grad_out`) to the rows'
    /// gradients (added) and d loss / d x (`grad_in`, added).
    fn backward(
        rows: &[f64],
        grads: &mut [f64],
        x: &[f64],
        (out, grad_out): (&[f64], &[f64]),
        grad_in: &mut [f64],
        relu: bool,
    ) {
        let width = x.len() + 1;
        let neurons = rows.chunks_exact(width).zip(grads.chunks_exact_mut(width));
        for ((row, grow), (&o, &go)) in neurons.zip(out.iter().zip(grad_out)) {
            // ReLU passes the gradient where its output is positive.
            let dz = if !relu || o > 0.0 { go } else { 0.0 };
            if dz == 0.0 {
                continue; // nothing flows back (as the tape skips it too)
            }
            let (w, gw) = (&row[..x.len()], &mut grow[..x.len()]);
            for ((wi, gwi), (xi, gi)) in w.iter().zip(gw).zip(x.iter().zip(grad_in.iter_mut())) {
                *gwi += dz * xi;
                *gi += dz * wi;
            }
            grow[x.len()] += dz;
        }
    }
}

/// `|a - b| <= 1e-12 |b|`, with gradients that are exactly 0 in one engine allowed to be
/// within 1e-15 of 0 in another (a sum of terms that cancel).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1e-3)
}

/// Step 0 in all three engines: the same loss and the same gradients.
fn check_step_zero(data: &Dataset) {
    let dynamic = model();
    let loss = notebook_loss(&dynamic, data);
    loss.backward();

    let taped = model();
    let mut tape = Tape::compile(&notebook_loss(&taped, data)).expect("a graph");
    let tape_loss = tape.forward().expect("finite");
    tape.backward().expect("finite");

    let params: Vec<f64> = dynamic.parameters().iter().map(Value::data).collect();
    let mut net = handwritten::Net::new(params);
    let hand_loss = net.loss_and_grads(data, ALPHA);

    assert!(close(tape_loss, loss.data()) && close(hand_loss, loss.data()));
    let grads = dynamic.parameters().into_iter().map(|p| p.grad());
    let tape_grads = taped.parameters().into_iter().map(|p| p.grad());
    for (i, ((d, t), h)) in grads.zip(tape_grads).zip(&net.grads).enumerate() {
        assert!(close(t, d) && close(*h, d), "param {i}: {d} {t} {h}");
    }
    println!("step 0: loss {} in all three engines", loss.data());
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

    let params = model().parameters().iter().map(Value::data).collect();
    let mut net = handwritten::Net::new(params);
    group.bench_function("handwritten", |b| {
        b.iter(|| {
            let loss = net.loss_and_grads(&data, ALPHA);
            net.update(LR);
            black_box(loss)
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);

//! micrograd's demo step by hand: MLP 2-16-16-1 (ReLU, ReLU, linear), the SVM hinge loss
//! over all points plus `1e-4 * sum(p * p)`, and the gradient of it, as
//! `loss::svm_hinge(scores) + loss::l2(params, alpha)` computes them.
//!
//! The forward pass advances the 16 sums of a hidden layer side by side over weights
//! stored input by input (`w[i][j]`: input `i` of neuron `j`), each sum still added bias
//! first, then input 0, 1, ...; the backward pass goes neuron by neuron over the weights
//! in micrograd's order (`[w_j0, w_j1, ..., b_j]`), last neuron first and last point
//! first, as `Value::backward` does, skipping the neurons whose gradient is 0.

/// Neurons per hidden layer.
const H: usize = 16;
/// Where each layer's parameters start in [`Moons::params`]: 16 neurons of 2 weights and
/// a bias, 16 of 16 and a bias, one of 16 and a bias.
const L1: usize = 0;
const L2: usize = L1 + H * 3;
const L3: usize = L2 + H * (H + 1);
/// How many parameters the network has.
pub const PARAMS: usize = L3 + H + 1;

/// What the backward pass needs of one point's forward pass.
#[derive(Clone, Copy)]
struct Point {
    x: [f64; 2],
    h1: [f64; H],
    h2: [f64; H],
    /// d loss / d score.
    g_score: f64,
}

/// The network, its gradients, and room for the points' activations.
pub struct Moons {
    /// The parameters in `MLP::parameters()` order: layer by layer, neuron by neuron,
    /// each neuron's weights then its bias.
    pub params: Vec<f64>,
    /// d loss / d each parameter, in the same order.
    pub grads: Vec<f64>,
    /// The hidden layers' weights input by input (`w1[i][j]` = `params[L1 + 3j + i]`),
    /// copied from `params` after each update.
    w1: [[f64; H]; 2],
    w2: [[f64; H]; H],
    points: Vec<Point>,
}

impl Moons {
    /// The network with the parameters `params` (in `MLP::parameters()` order).
    ///
    /// # Panics
    ///
    /// If `params` does not hold [`PARAMS`] numbers.
    pub fn new(params: Vec<f64>) -> Moons {
        assert_eq!(
            params.len(),
            PARAMS,
            "an MLP 2-16-16-1 has {PARAMS} parameters"
        );
        let mut net = Moons {
            grads: vec![0.0; params.len()],
            params,
            w1: [[0.0; H]; 2],
            w2: [[0.0; H]; H],
            points: Vec::new(),
        };
        net.transpose();
        net
    }

    /// Copies the hidden layers' weights into the input-by-input arrays.
    fn transpose(&mut self) {
        for j in 0..H {
            for i in 0..2 {
                self.w1[i][j] = self.params[L1 + 3 * j + i];
            }
            for i in 0..H {
                self.w2[i][j] = self.params[L2 + (H + 1) * j + i];
            }
        }
    }

    /// The loss over all points (`inputs[k]`, label `labels[k]` = -1 or 1), and its
    /// gradient in [`grads`](Moons::grads) (overwritten).
    pub fn loss_and_grads(&mut self, inputs: &[Vec<f64>], labels: &[f64], alpha: f64) -> f64 {
        let p = &self.params;
        let (b1, b2) = (
            |j: usize| p[L1 + 3 * j + 2],
            |j: usize| p[L2 + (H + 1) * j + H],
        );
        let scale = 1.0 / inputs.len() as f64;
        self.points.clear();
        let mut data_sum = 0.0;
        for (x, &y) in inputs.iter().zip(labels) {
            let x = [x[0], x[1]];
            let h1 = relu_layer(std::array::from_fn(b1), &self.w1, &x);
            let h2 = relu_layer(std::array::from_fn(b2), &self.w2, &h1);
            let score = (0..H).fold(0.0 + p[L3 + H], |s, i| s + p[L3 + i] * h2[i]);
            // svm_hinge: relu(score * -y + 1), summed; d / d score = -y where positive.
            let hinge = relu(score * -y + 1.0);
            data_sum += hinge;
            let g_score = if hinge > 0.0 { -y * scale } else { 0.0 };
            self.points.push(Point { x, h1, h2, g_score });
        }
        // l2: sum(p * p) * alpha, its sum from 0.0 in parameter order.
        let squares = self.params.iter().fold(0.0, |s, p| s + p * p);
        let loss = data_sum * scale + squares * alpha;

        // Backward: the L2 term's two contributions `p * alpha` first (its rule runs
        // before the points'), then the points, last first.
        let (p, g) = (&self.params, &mut self.grads);
        for (g, p) in g.iter_mut().zip(p) {
            *g = 0.0 + p * alpha;
        }
        for (g, p) in g.iter_mut().zip(p) {
            *g += p * alpha;
        }
        for point in self.points.iter().rev() {
            let gs = point.g_score;
            if gs == 0.0 {
                continue; // the hinge is off: nothing flows back
            }
            // The score neuron: its bias, then its weights and inputs.
            g[L3 + H] += gs;
            let mut g_h2 = [0.0; H];
            for i in 0..H {
                g[L3 + i] += point.h2[i] * gs;
                g_h2[i] += p[L3 + i] * gs;
            }
            let mut g_h1 = [0.0; H];
            neurons_backward(
                &p[L2..L3],
                &mut g[L2..L3],
                &point.h1,
                (&point.h2, &g_h2),
                Some(&mut g_h1),
            );
            neurons_backward(
                &p[L1..L2],
                &mut g[L1..L2],
                &point.x,
                (&point.h1, &g_h1),
                None,
            );
        }
        loss
    }

    /// `p -= lr * grad` for every parameter.
    pub fn update(&mut self, lr: f64) {
        for (p, g) in self.params.iter_mut().zip(&self.grads) {
            *p -= lr * g;
        }
        self.transpose();
    }
}

/// micrograd's `relu`: `x < 0 ? 0 : x`.
#[inline]
fn relu(x: f64) -> f64 {
    if x < 0.0 {
        0.0
    } else {
        x
    }
}

/// `relu(b_j + w[0][j] x_0 + w[1][j] x_1 + ...)` for the `H` neurons `j` side by side.
#[inline]
fn relu_layer<const N: usize>(bias: [f64; H], w: &[[f64; H]; N], x: &[f64; N]) -> [f64; H] {
    // (A sum starts from 0.0, as Python's `sum()`: `0.0 + b` is `b` but for -0.0.)
    let mut acc = bias.map(|b| 0.0 + b);
    for (row, &xi) in w.iter().zip(x) {
        for (a, wij) in acc.iter_mut().zip(row) {
            *a += wij * xi;
        }
    }
    acc.map(relu)
}

/// The chain rule through a ReLU layer whose neurons are `rows` (`[w_j.., b_j]` each,
/// gradients `grows`), given its input `x`, its output `out` and d loss / d out: last
/// neuron first, each neuron on (gradient not 0) adds its terms' contributions to its
/// weights' gradients and (if asked) to `grad_in`, d loss / d x.
#[inline]
fn neurons_backward(
    rows: &[f64],
    grows: &mut [f64],
    x: &[f64],
    (out, grad_out): (&[f64; H], &[f64; H]),
    mut grad_in: Option<&mut [f64; H]>,
) {
    let n = x.len();
    let neurons = rows.chunks_exact(n + 1).zip(grows.chunks_exact_mut(n + 1));
    for ((row, grow), (&o, &go)) in neurons.zip(out.iter().zip(grad_out)).rev() {
        let dz = if o > 0.0 { go } else { 0.0 };
        if dz == 0.0 {
            continue;
        }
        grow[n] += dz;
        for (gw, xi) in grow[..n].iter_mut().zip(x) {
            *gw += xi * dz;
        }
        if let Some(gi) = grad_in.as_deref_mut() {
            for (gi, wi) in gi.iter_mut().zip(&row[..n]) {
                *gi += wi * dz;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use micrograd::data::moons100;
    use micrograd::loss::{l2, svm_hinge};
    use micrograd::prelude::*;
    use micrograd::random::PythonRandom;
    use micrograd::tape::Tape;

    /// The notebook's loss: `svm_hinge(model(X)) + l2(params, 1e-4)`.
    fn loss(model: &MLP, inputs: &[Vec<f64>], labels: &[f64]) -> Value {
        let scores: Vec<Value> = inputs
            .iter()
            .map(|x| model.forward_f64(x).unwrap().remove(0))
            .collect();
        svm_hinge(&scores, labels).unwrap() + l2(&model.parameters(), 1e-4)
    }

    /// Loss and gradients of the hand-written step, the dynamic graph and the tape for
    /// `model` on `inputs`: all three bit for bit the same.
    fn assert_same(model: &MLP, inputs: &[Vec<f64>], labels: &[f64]) {
        let params: Vec<f64> = model.parameters().iter().map(Value::data).collect();
        let mut net = Moons::new(params);
        let hand = net.loss_and_grads(inputs, labels, 1e-4);

        model.zero_grad();
        let graph = loss(model, inputs, labels);
        graph.backward();
        let graph_grads: Vec<f64> = model.parameters().iter().map(Value::grad).collect();
        model.zero_grad();
        let mut tape = Tape::compile(&loss(model, inputs, labels)).unwrap();
        let taped = tape.forward().unwrap();
        tape.backward().unwrap();
        let tape_grads: Vec<f64> = model.parameters().iter().map(Value::grad).collect();

        assert_eq!(hand.to_bits(), graph.data().to_bits());
        assert_eq!(hand.to_bits(), taped.to_bits());
        for (i, ((h, d), t)) in net
            .grads
            .iter()
            .zip(&graph_grads)
            .zip(&tape_grads)
            .enumerate()
        {
            assert!(
                h == d && h == t,
                "parameter {i}: by hand {h:e}, graph {d:e}, tape {t:e}"
            );
        }
    }

    #[test]
    fn the_demo_step_by_hand_is_the_graphs_bit_for_bit() {
        let data = moons100();
        let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
        assert_same(&model, &data.inputs, &data.labels);
    }

    #[test]
    fn by_hand_after_updates_and_on_other_models_too() {
        let data = moons100();
        for seed in [1, 2, 3] {
            let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(seed));
            let params: Vec<f64> = model.parameters().iter().map(Value::data).collect();
            let mut net = Moons::new(params);
            for _ in 0..5 {
                net.loss_and_grads(&data.inputs, &data.labels, 1e-4);
                net.update(0.1);
            }
            for (p, &x) in model.parameters().iter().zip(&net.params) {
                p.set_data(x);
            }
            assert_same(&model, &data.inputs, &data.labels);
        }
    }
}

//! An MNIST step by hand: MLP 784-32-10 (ReLU, linear), the softmax cross-entropy of
//! `examples/common/classify_tape.rs` per image, `(ln(sum_j exp(z_j)) - sum_j y_j z_j) *
//! scale` with the one-hot label `y` and `scale` = 1 / batch size, and its gradient
//! summed over a batch, image after image, as `Tape::accumulate` sums it.
//!
//! The forward pass advances the 32 hidden sums side by side over weights stored input
//! by input (`w1[i][j]`: pixel `i` of neuron `j`), each sum still added bias first, then
//! pixel 0, 1, ...; so do the 10 logits over the 32 hidden outputs. The backward pass
//! goes neuron by neuron over the weights in micrograd's order (`[w_j0, .., b_j]`), last
//! neuron first, as `Value::backward` does, and skips the hidden neurons that are off.
//! No gradient is computed for the pixels.

use micrograd::nn::MLP;
use micrograd::prelude::*;
use micrograd::tape::{Inputs, Tape};

/// Pixels per image.
pub const PIXELS: usize = 784;
/// Hidden neurons.
const H: usize = 32;
/// Classes (logits).
pub const CLASSES: usize = 10;
/// Where the output layer's parameters start in [`Mnist::params`].
const L2: usize = H * (PIXELS + 1);
/// How many parameters the network has.
pub const PARAMS: usize = L2 + CLASSES * (H + 1);

/// The network and its gradients summed over the images since the last [`zero_grad`](Mnist::zero_grad).
pub struct Mnist {
    /// The parameters in `MLP::parameters()` order: layer by layer, neuron by neuron,
    /// each neuron's weights then its bias.
    pub params: Vec<f64>,
    /// The sum of d loss / d parameter over the images, in the same order.
    pub grads: Vec<f64>,
    /// The hidden layer's weights pixel by pixel: `w1[i * H + j]` = `params[(PIXELS + 1) j + i]`.
    w1: Vec<f64>,
    /// The output layer's weights input by input: `w2[i][j]` = `params[L2 + (H + 1) j + i]`.
    w2: [[f64; CLASSES]; H],
}

impl Mnist {
    /// The network with the parameters `params` (in `MLP::parameters()` order).
    ///
    /// # Panics
    ///
    /// If `params` does not hold [`PARAMS`] numbers.
    pub fn new(params: Vec<f64>) -> Mnist {
        assert_eq!(
            params.len(),
            PARAMS,
            "an MLP 784-32-10 has {PARAMS} parameters"
        );
        let mut net = Mnist {
            grads: vec![0.0; params.len()],
            params,
            w1: vec![0.0; PIXELS * H],
            w2: [[0.0; CLASSES]; H],
        };
        net.transpose();
        net
    }

    /// Copies the weights into the input-by-input arrays.
    fn transpose(&mut self) {
        for (j, row) in self.params[..L2].chunks_exact(PIXELS + 1).enumerate() {
            for (i, &w) in row[..PIXELS].iter().enumerate() {
                self.w1[i * H + j] = w;
            }
        }
        for (j, row) in self.params[L2..].chunks_exact(H + 1).enumerate() {
            for (i, &w) in row[..H].iter().enumerate() {
                self.w2[i][j] = w;
            }
        }
    }

    /// Sets the summed gradients to 0 (before a batch).
    pub fn zero_grad(&mut self) {
        self.grads.fill(0.0);
    }

    /// One image (`x`, class `label`): returns its loss (times `scale`) and adds its
    /// gradient into [`grads`](Mnist::grads).
    pub fn accumulate(&mut self, x: &[f64], label: usize, scale: f64) -> f64 {
        let (p, g) = (&self.params, &mut self.grads);
        // The hidden layer: 32 sums side by side, pixel by pixel.
        let mut h: [f64; H] = std::array::from_fn(|j| 0.0 + p[(PIXELS + 1) * j + PIXELS]);
        for (row, &xi) in self.w1.chunks_exact(H).zip(&x[..PIXELS]) {
            for (a, w) in h.iter_mut().zip(row) {
                *a += w * xi;
            }
        }
        let h = h.map(|z| if z < 0.0 { 0.0 } else { z });
        // The logits: 10 sums side by side over the 32 hidden outputs.
        let mut z: [f64; CLASSES] = std::array::from_fn(|j| 0.0 + p[L2 + (H + 1) * j + H]);
        for (row, &hi) in self.w2.iter().zip(&h) {
            for (a, w) in z.iter_mut().zip(row) {
                *a += w * hi;
            }
        }
        // ln(sum_j exp(z_j)) - sum_j y_j z_j, times scale.
        let e = z.map(f64::exp);
        let sum = e.iter().fold(0.0, |s, e| s + e);
        let y: [f64; CLASSES] = std::array::from_fn(|j| if j == label { 1.0 } else { 0.0 });
        let picked = y.iter().zip(&z).fold(0.0, |s, (y, z)| s + y * z);
        let loss = (sum.ln() - picked) * scale;

        // Backward: d loss / d (ln - picked) = scale; through ln and the sum of exps.
        let g_sum = 1.0 / sum * scale;
        let g_z: [f64; CLASSES] = std::array::from_fn(|j| e[j] * g_sum + y[j] * -scale);
        // The logits, last first: bias, weights, and the hidden outputs' gradients.
        let mut g_h = [0.0; H];
        for j in (0..CLASSES).rev() {
            let gz = g_z[j];
            let (row, grow) = (L2 + (H + 1) * j, &mut g[L2 + (H + 1) * j..][..H + 1]);
            grow[H] += gz;
            for (gw, hi) in grow[..H].iter_mut().zip(&h) {
                *gw += hi * gz;
            }
            for (gh, w) in g_h.iter_mut().zip(&p[row..row + H]) {
                *gh += w * gz;
            }
        }
        // The hidden neurons that are on, last first: bias and weights.
        for j in (0..H).rev() {
            let dz = if h[j] > 0.0 { g_h[j] } else { 0.0 };
            if dz == 0.0 {
                continue;
            }
            let grow = &mut g[(PIXELS + 1) * j..][..PIXELS + 1];
            grow[PIXELS] += dz;
            for (gw, xi) in grow[..PIXELS].iter_mut().zip(x) {
                *gw += xi * dz;
            }
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

/// One image's loss on a tape, as `examples/common/classify_tape.rs` compiles it, and
/// the leaves an image fills.
pub struct ImageTape {
    /// The compiled graph of one image's loss.
    pub tape: Tape,
    /// The pixels.
    pub image: Inputs,
    /// The one-hot label.
    pub label: Inputs,
    /// `1 / batch size`.
    pub scale: Inputs,
    /// The leaves of the pixels, the one-hot label and the scale.
    pub leaves: [Vec<Value>; 3],
}

impl ImageTape {
    /// Compiles `(ln(sum_j exp(z_j)) - sum_j y_j z_j) * scale` for `z = model(x)`, with
    /// leaves for the pixels `x`, the one-hot label `y` and `scale`.
    ///
    /// # Panics
    ///
    /// If `model` does not take 784 inputs and give 10 outputs.
    pub fn compile(model: &MLP) -> ImageTape {
        let leaves = |n: usize| {
            (0..n)
                .map(|_| Value::new(0.0).no_grad())
                .collect::<Vec<_>>()
        };
        let (x, y, scale) = (leaves(PIXELS), leaves(CLASSES), leaves(1));
        let tape = Tape::compile(&image_loss(model, &x, &y, &scale[0])).expect("a graph");
        ImageTape {
            image: tape.inputs(&x).expect("leaves of the tape"),
            label: tape.inputs(&y).expect("leaves of the tape"),
            scale: tape.inputs(&scale).expect("leaves of the tape"),
            tape,
            leaves: [x, y, scale],
        }
    }

    /// Runs one image (`x`, class `label`) with `scale`, adding its gradient into the
    /// tape's sums (`Tape::accumulate`); returns its loss.
    pub fn accumulate(&mut self, x: &[f64], label: usize, scale: f64) -> f64 {
        let mut y = [0.0; CLASSES];
        y[label] = 1.0;
        let t = &mut self.tape;
        t.set_inputs(&self.image, x).expect("784 pixels");
        t.set_inputs(&self.label, &y).expect("10 classes");
        t.set_inputs(&self.scale, &[scale]).expect("one scale");
        t.accumulate().expect("finite")
    }
}

/// The graph of one image's loss (see [`ImageTape::compile`]).
///
/// # Panics
///
/// If `model` does not take `x.len()` inputs.
pub fn image_loss(model: &MLP, x: &[Value], y: &[Value], scale: &Value) -> Value {
    let logits = model.forward(x).expect("one input per pixel");
    let log_sum_exp = logits.iter().map(Value::exp).sum::<Value>().ln();
    let picked: Value = logits.iter().zip(y).map(|(z, y)| y * z).sum();
    (log_sum_exp - picked) * scale
}

#[cfg(test)]
mod tests {
    use super::*;
    use micrograd::random::PythonRandom;
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};

    /// `n` images of random pixels in [0, 1), a quarter of them 0 (as MNIST's
    /// background), and random labels.
    fn images(n: usize, seed: u64) -> Vec<(Vec<f64>, usize)> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let x = (0..PIXELS)
                    .map(|_| {
                        if rng.random_bool(0.25) {
                            0.0
                        } else {
                            rng.random()
                        }
                    })
                    .collect();
                (x, rng.random_range(0..CLASSES))
            })
            .collect()
    }

    #[test]
    fn a_batch_by_hand_is_the_tapes_and_the_graphs_bit_for_bit() {
        let model = MLP::new(PIXELS, &[H, CLASSES], &mut PythonRandom::seed(1));
        let batch = images(32, 7);
        let scale = 1.0 / batch.len() as f64;
        let params: Vec<f64> = model.parameters().iter().map(Value::data).collect();
        let mut net = Mnist::new(params);
        let mut s = ImageTape::compile(&model);
        for (x, label) in &batch {
            let hand = net.accumulate(x, *label, scale);
            assert_eq!(hand.to_bits(), s.accumulate(x, *label, scale).to_bits());
        }
        model.zero_grad();
        s.tape.flush_grads();
        let tape: Vec<f64> = model.parameters().iter().map(Value::grad).collect();
        // The dynamic graph: each image's loss, backward, gradients summed in the leaves.
        model.zero_grad();
        let one = Value::new(scale);
        for (x, label) in &batch {
            let y: Vec<Value> = (0..CLASSES)
                .map(|j| Value::new(f64::from(j == *label)))
                .collect();
            let pixels: Vec<Value> = x.iter().map(|&p| Value::new(p)).collect();
            image_loss(&model, &pixels, &y, &one).backward();
        }
        let params = model.parameters();
        for (i, ((h, t), p)) in net.grads.iter().zip(&tape).zip(&params).enumerate() {
            let d = p.grad();
            assert!(
                *h == *t && *h == d,
                "parameter {i}: by hand {h:e}, tape {t:e}, graph {d:e}"
            );
        }
    }
}

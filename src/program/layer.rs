//! Layers: [`WIDTH`] `sum`s that read the same inputs, added up together.
//!
//! The neurons of one layer of a network, for one sample, are `sum`s with the same
//! second factors (the layer's inputs, and the constant 1 of the biases) and different
//! first factors (each neuron's bias and weights). Compiling finds [`WIDTH`] such sums
//! next to each other and makes them one [`Layer`]; the forward pass then computes
//!
//! ```text
//! for each term t:  for each neuron j:  acc[j] += w[t][j] * x[t]
//! ```
//!
//! Each neuron's sum is still added up left to right from 0.0 (bit for bit the value of
//! the dynamic graph), but the [`WIDTH`] chains of additions are independent and the
//! inner loop reads the weights `w[t][..]` of term `t` as one contiguous row, so it runs
//! as vector instructions. For that, each worker keeps a copy of the weights stored term
//! by term (a *panel*: row `t` holds term `t` of each neuron), gathered from the leaves
//! by a worker's first forward pass after their data is written. The samples of a batch share their layers'
//! weights, so they share one panel.
//!
//! The backward pass takes a layer as one step too: it computes the [`WIDTH`] sums'
//! gradients together (one activation for all), then goes neuron by neuron as for any
//! other `sum`, skipping the neurons whose gradient is 0. (Adding up the shared inputs'
//! gradients term by term from the panel instead, the inner loop over the neurons, was
//! no faster on the moons step and 8% slower on MNIST, where it cannot skip the neurons
//! that are off.)

use std::collections::HashMap;

use super::{Program, Run, Step};

/// How many sums a [`Layer`] adds up together. Measured on `benches/moons_step.rs`
/// (criterion, back to back, layers in the forward pass only): 41.7 µs per step
/// without layers, 31.6 µs with layers of 8, 30.4 µs with layers of 16 (the moons
/// network's hidden layers are 16 wide).
pub(crate) const WIDTH: usize = 16;

/// [`WIDTH`] sums computed together (see the [module docs](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layer {
    /// The first of the sums: nodes `first..first + WIDTH`.
    pub(crate) first: u32,
    /// Where its weights start in a worker's panels (and in [`Program::gather`]): term
    /// `t` of sum `j` is entry `panel + t * WIDTH + j`.
    pub(crate) panel: u32,
}

impl Program {
    /// Finds the layers among the inner nodes: [`WIDTH`] consecutive sums (all with
    /// the same activation, or all without) at the same depth whose runs have the same lengths and
    /// the same second factors, and whose first factors are leaves. Plans their panels (one per set of weights: [`Program::gather`]). `depths[i]` is the depth of node `first + i`.
    pub(super) fn group_layers(&mut self, first: usize, depths: &[u32]) {
        let is_sum = |step| matches!(step, Step::Dot | Step::DotThen(_));
        let runs = |k: usize| {
            let [a, b] = self.args[k].map(|i| i as usize);
            &self.runs[a..b]
        };
        // The same terms' second factors: same lengths, same `y`s.
        let shares_inputs = |j: usize, k: usize| {
            let same = |r: &Run, s: &Run| (r.y, r.len) == (s.y, s.len);
            runs(j).len() == runs(k).len() && runs(j).iter().zip(runs(k)).all(|(r, s)| same(r, s))
        };
        // The panels are copies of leaves, refreshed when leaves are written: a sum whose
        // first factors are inner nodes (computed in the same forward pass) is no layer.
        let leaf_weights = |j: usize| runs(j).iter().all(|r| (r.x + r.len) as usize <= first);
        let mut panels: HashMap<Vec<u32>, u32> = HashMap::new();
        let mut k = first;
        while k + WIDTH <= self.steps.len() {
            let layer = (k..k + WIDTH).all(|j| {
                is_sum(self.steps[j])
                    && self.steps[j] == self.steps[k]
                    && depths[j - first] == depths[k - first]
                    && shares_inputs(j, k)
                    && leaf_weights(j)
            });
            if !layer {
                k += 1;
                continue;
            }
            // Term t of sum j: the first factor of its t-th term.
            let firsts = |j: usize| runs(j).iter().flat_map(|r| r.xs()).collect::<Vec<_>>();
            let columns: Vec<Vec<usize>> = (k..k + WIDTH).map(firsts).collect();
            let gather: Vec<u32> = (0..columns[0].len())
                .flat_map(|t| columns.iter().map(move |c| c[t] as u32))
                .collect();
            let next = self.gather.len() as u32;
            let panel = *panels.entry(gather).or_insert_with_key(|gather| {
                self.gather.extend(gather);
                next
            });
            self.layers.push(Layer {
                first: k as u32,
                panel,
            });
            k += WIDTH;
        }
    }
}

/// The [`WIDTH`] sums of a layer whose first sum has the terms `runs` (their second
/// factors are the layer's inputs) and whose weights are `panel` (from its start):
/// each sum left to right from 0.0, as [`dot`](super::forward) adds it.
pub(super) fn layer_sums(data: &[f64], runs: &[Run], panel: &[f64]) -> [f64; WIDTH] {
    let mut acc = [0.0; WIDTH];
    let (rows, _) = panel.as_chunks::<WIDTH>();
    let mut rows = rows.iter();
    for run in runs {
        for (x, w) in data[run.ys()].iter().zip(&mut rows) {
            for (acc, w) in acc.iter_mut().zip(w) {
                *acc += w * x;
            }
        }
    }
    acc
}

/// The chain rule through a layer whose sums have the `[start, end]`s `args` into
/// `runs`, given their gradients `g` (after their activation's local derivative): for
/// each neuron whose gradient is not 0 (a ReLU that is on), last to first, each term
/// `x * y` adds `y * g` to `x`'s gradient and `x * g` to `y`'s, as for any other `sum`.
pub(super) fn layer_backward(
    data: &[f64],
    grad: &mut [f64],
    (args, runs): (&[[u32; 2]], &[Run]),
    g: [f64; WIDTH],
) {
    // The last neuron first, as the tape's backward loop takes any other nodes.
    for (&[a, b], &g) in args.iter().zip(&g).rev() {
        if g == 0.0 {
            continue;
        }
        for &run in &runs[a as usize..b as usize] {
            if run.len == 1 {
                // (A neuron's bias: no loop to set up for one term.)
                grad[run.x as usize] += data[run.y as usize] * g;
                grad[run.y as usize] += data[run.x as usize] * g;
            } else {
                add_scaled(&mut grad[run.xs()], &data[run.ys()], g);
                add_scaled(&mut grad[run.ys()], &data[run.xs()], g);
            }
        }
    }
}

/// `grad[i] += factor[i] * g` for every `i`: one half of the chain rule through a run
/// of products.
#[inline]
pub(super) fn add_scaled(grad: &mut [f64], factor: &[f64], g: f64) {
    for (gi, f) in grad.iter_mut().zip(factor) {
        *gi += f * g;
    }
}

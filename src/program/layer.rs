//! Layers: up to [`WIDTH`] `sum`s that read the same inputs, added up together.
//!
//! The neurons of one layer of a network, for one sample, are `sum`s with the same
//! second factors (the layer's inputs, and the constant 1 of the biases) and different
//! first factors (each neuron's bias and weights). Compiling finds such sums next to
//! each other and makes them [`Layer`]s of [`WIDTH`] sums, the last one of a network's
//! layer narrower if its width is not a multiple of [`WIDTH`] (MNIST's 32 hidden neurons
//! are two layers of 16, its 10 logits one of 10); the forward pass then computes
//!
//! ```text
//! for each term t:  for each neuron j:  acc[j] += w[t][j] * x[t]
//! ```
//!
//! Each neuron's sum is still added up left to right from 0.0 (bit for bit the value of
//! the dynamic graph), but the layer's chains of additions are independent and the
//! inner loop reads the weights `w[t][..]` of term `t` as one contiguous row, so it runs
//! as vector instructions. For that, each worker keeps a copy of the weights stored term
//! by term (a *panel*: row `t` holds term `t` of each neuron), gathered from the leaves
//! by a worker's first forward pass after their data is written. The samples of a batch share their layers'
//! weights, so they share one panel.
//!
//! The backward pass takes a layer as one step too: it goes neuron by neuron, last
//! first, as for any other `sum`, skipping the neurons whose gradient is 0. (Adding up the shared inputs'
//! gradients term by term from the panel instead, the inner loop over the neurons, would
//! not skip the neurons that are off, which on MNIST costs more than it saves.)

use std::collections::HashMap;

use super::code::Code;
use super::defer::Lanes;
use super::{all_finite, Program, Run, Step};
use crate::rules::NO_CONSTS;

/// The most sums a [`Layer`] adds up together: the width of the moons network's hidden
/// layers, and wider than 8, which leaves the vector units idle part of the time
/// (`benches/moons_step.rs` compares).
pub(crate) const WIDTH: usize = 16;

/// The fewest sums that make a [`Layer`] (fewer are computed one by one, or four side
/// by side).
const MIN_WIDTH: usize = 2;

/// `width` sums computed together (see the [module docs](self)): nodes
/// `first..first + width`, with `2 <= width <= WIDTH`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layer {
    /// The first of the sums.
    pub(crate) first: u32,
    /// Where its weights start in a worker's panels: term `t` of sum `j` is entry
    /// `panel + t * width + j`.
    pub(crate) panel: u32,
    /// How many sums.
    pub(crate) width: u32,
    /// Whether its sums are neurons whose inputs' gradients the backward pass may take
    /// apart from the weights' (see `neurons_backward`): each sum's terms are a bias
    /// `[b, y]` whose `y` needs no gradient, then one run `[w, x]` over the layer's
    /// inputs, and the inputs need no gradient or lie above every bias and weight.
    pub(crate) neurons: bool,
    /// Whether a batch may defer its weights' gradients to the end of a chunk (see
    /// `defer.rs`): a layer of [`neurons`](Layer::neurons) whose weights get no other
    /// gradient contribution in the program.
    pub(crate) deferred: bool,
    /// `Some([bias, inputs])`, its first sum's two runs, if it is [`WIDTH`]
    /// [`neurons`](Layer::neurons) with the activation ReLU: the forward pass then
    /// takes it in one loop ([`relu_neurons`]) from these, planned once.
    pub(crate) relu: Option<[Run; 2]>,
    /// Where its neurons start in [`Program::neuron_terms`] (if it is of
    /// [`neurons`](Layer::neurons)).
    pub(crate) terms: u32,
}

/// A neuron of a layer of [`neurons`](Layer::neurons) as the backward pass takes it,
/// planned once from its sum's two runs: where its bias and its weights are, and
/// whether they need gradients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NeuronTerms {
    /// Its bias (the first factor of its first term).
    bias: u32,
    /// Its first weight (the first factor of its second run).
    weights: u32,
    /// Whether its bias needs its gradient.
    bias_needs: bool,
    /// Whether its weights need theirs.
    weights_need: bool,
}

impl Layer {
    /// Its nodes.
    pub(crate) fn nodes(self) -> std::ops::Range<usize> {
        self.first as usize..(self.first + self.width) as usize
    }
}

impl Program {
    /// Finds the layers among the inner nodes: up to [`WIDTH`] consecutive sums (all with
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
        while k < self.steps.len() {
            let joins = |j: usize| {
                is_sum(self.steps[j])
                    && self.steps[j] == self.steps[k]
                    && depths[j - first] == depths[k - first]
                    && shares_inputs(j, k)
                    && leaf_weights(j)
            };
            let end = self.steps.len().min(k + WIDTH);
            let width = (k..end).take_while(|&j| joins(j)).count();
            if width < MIN_WIDTH {
                k += 1;
                continue;
            }
            // Term t of sum j: the first factor of its t-th term.
            let firsts = |j: usize| runs(j).iter().flat_map(|r| r.xs()).collect::<Vec<_>>();
            let columns: Vec<Vec<usize>> = (k..k + width).map(firsts).collect();
            let gather: Vec<u32> = (0..columns[0].len())
                .flat_map(|t| columns.iter().map(move |c| c[t] as u32))
                .collect();
            let next = self.gather.len() as u32;
            let panel = *panels.entry(gather).or_insert_with_key(|gather| {
                self.gather.extend(gather);
                next
            });
            let neurons = (k..k + width).all(|j| self.is_neuron(j));
            let relu = match (neurons, width, self.steps[k], runs(k)) {
                (true, WIDTH, Step::DotThen(Code::Relu), &[bias, inputs]) => Some([bias, inputs]),
                _ => None,
            };
            let terms = self.neuron_terms.len() as u32;
            if neurons {
                let planned = (k..k + width).map(|j| {
                    let a = self.args[j][0] as usize;
                    NeuronTerms {
                        bias: self.runs[a].x,
                        weights: self.runs[a + 1].x,
                        bias_needs: self.run_grads[a] & 1 != 0,
                        weights_need: self.run_grads[a + 1] & 1 != 0,
                    }
                });
                self.neuron_terms.extend(planned);
            }
            self.layers.push(Layer {
                first: k as u32,
                panel,
                width: width as u32,
                neurons,
                deferred: false,
                relu,
                terms,
            });
            k += width;
        }
    }
}

impl Program {
    /// Whether the sum `k` of a layer is a neuron as `neurons_backward` takes it (see
    /// [`Layer::neurons`]).
    fn is_neuron(&self, k: usize) -> bool {
        let [a, b] = self.args[k].map(|i| i as usize);
        let ([bias, run], [bias_needs, run_needs]) = (&self.runs[a..b], &self.run_grads[a..b])
        else {
            return false;
        };
        let inputs_apart = run_needs & 2 == 0 || (bias.x < run.y && run.x + run.len <= run.y);
        bias.len == 1 && bias_needs & 2 == 0 && inputs_apart
    }
}

/// The sums of a layer of `width` sums whose first sum has the terms `runs` (their
/// second factors are the layer's inputs) and whose weights are `panel` (from its
/// start), in the first `width` entries: each sum left to right from 0.0, as
/// [`dot`](super::forward) adds it.
#[inline]
pub(super) fn layer_sums(data: &[f64], runs: &[Run], panel: &[f64], width: usize) -> [f64; WIDTH] {
    if width == WIDTH {
        // (The widths the compiler knows: the inner loop fully unrolled.)
        return sums::<WIDTH>(data, runs, panel);
    }
    let mut acc = [0.0; WIDTH];
    let mut rows = panel.chunks_exact(width);
    for run in runs {
        for (x, w) in data[run.ys()].iter().zip(&mut rows) {
            for (acc, w) in acc.iter_mut().zip(w) {
                *acc += w * x;
            }
        }
    }
    acc
}

/// [`layer_sums`] of a layer of `N` sums.
#[inline]
fn sums<const N: usize>(data: &[f64], runs: &[Run], panel: &[f64]) -> [f64; WIDTH] {
    let mut acc = [0.0; WIDTH];
    let (rows, _) = panel.as_chunks::<N>();
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

/// The forward pass through a layer of [`WIDTH`] [neurons](Layer::neurons) with the
/// activation ReLU (the hidden layers of the moons and MNIST networks) whose nodes start
/// at `first`, whose first sum has the terms `[bias, inputs]` ([`Layer::relu`]) and
/// whose weights are `panel` (from its start): its values into its nodes in `data`, the
/// same numbers as [`layer_sums`] and [`activate_layer`] give, in one loop that keeps
/// the sums in registers. Returns the sums times 0.0, added up in two lanes: both 0 if
/// the sums were all finite, a NaN in one if not (see [`all_finite`]; the forward pass
/// adds them up over its layers and looks once, at its end, rather than at each layer).
///
/// Against the general path (the loop over the runs, the sums stored and read back for
/// the activation), this one keeps the sums in registers from the bias to the ReLU, and
/// its two runs are planned once ([`Layer::relu`]) instead of found from the program's
/// `args` and `runs` and matched at each layer.
#[inline]
pub(super) fn relu_neurons(
    data: &mut [f64],
    first: usize,
    [bias, inputs]: [Run; 2],
    panel: &[f64],
) -> [f64; 2] {
    let (rows, _) = panel.as_chunks::<WIDTH>();
    let Some((bias_row, rows)) = rows[..1 + inputs.len as usize].split_first() else {
        unreachable!("a layer's panel has a row per term");
    };
    // (A sum starts from 0.0, as Python's `sum()`; its first term is the bias times its
    // factor, the same node for every sum of a layer. For a neuron, as the tape compiles
    // `Value::neuron` and micrograd's `Neuron`, that is the constant 1.0, the entry after
    // the last node: then the bias as it is, the same number without the product.)
    let one = data.len() - 1;
    let mut acc: [f64; WIDTH] = match bias.y as usize == one {
        true => bias_row.map(|b| 0.0 + b),
        false => {
            let y = data[bias.y as usize];
            bias_row.map(|b| 0.0 + b * y)
        }
    };
    // Two inputs a turn (each sum still adds term `t`, then term `t + 1`): half the
    // loop's own instructions.
    let xs = &data[inputs.ys()];
    let (x_pairs, x_last) = xs.as_chunks::<2>();
    let (w_pairs, w_last) = rows[..xs.len()].as_chunks::<2>();
    for ([x0, x1], [w0, w1]) in x_pairs.iter().zip(w_pairs) {
        for ((acc, w0), w1) in acc.iter_mut().zip(w0).zip(w1) {
            *acc = (*acc + w0 * x0) + w1 * x1;
        }
    }
    for (x, w) in x_last.iter().zip(w_last) {
        for (acc, w) in acc.iter_mut().zip(w) {
            *acc += w * x;
        }
    }
    let out: &mut [f64; WIDTH] = (&mut data[first..first + WIDTH])
        .try_into()
        .expect("a layer of WIDTH nodes");
    *out = acc.map(|sum| Code::Relu.forward(sum, 0.0, NO_CONSTS));
    // (ReLU's value of a finite sum is finite: the sums are all there is to look at.)
    let (pairs, _) = acc.as_chunks::<2>();
    pairs.iter().fold([0.0; 2], |[c0, c1], [s0, s1]| {
        [c0 + s0 * 0.0, c1 + s1 * 0.0]
    })
}

/// The values of a layer's nodes from its `sums`, into `out`: `op` of each sum for a
/// layer of `DotThen(op)` nodes (one loop per op, so that the compiler vectorises
/// ReLU's), else the sums. Returns whether the sums and the values are all finite (an
/// activation may hide an overflow in its sum: `tanh(inf)` is 1). ReLU's value of a
/// finite sum is finite, so only the sums are looked at for it.
#[inline]
pub(super) fn activate_layer(step: Step, sums: &[f64], out: &mut [f64]) -> bool {
    match step {
        Step::DotThen(Code::Relu) => {
            for (o, &sum) in out.iter_mut().zip(sums) {
                *o = Code::Relu.forward(sum, 0.0, NO_CONSTS);
            }
            all_finite(sums)
        }
        Step::DotThen(op) => {
            for (o, &sum) in out.iter_mut().zip(sums) {
                *o = op.forward(sum, 0.0, NO_CONSTS);
            }
            all_finite(sums) & all_finite(out)
        }
        _ => {
            out.copy_from_slice(sums);
            all_finite(sums)
        }
    }
}

/// What [`layer_backward`] reads of the program: its `args`, `runs`, `run_grads` and
/// `neuron_terms`.
pub(super) type LayerPlans<'a> = (&'a [[u32; 2]], &'a [Run], &'a [u8], &'a [NeuronTerms]);

/// The chain rule through the layer `layer`, whose sums have the `[start, end]`s
/// `args` into `runs` and the step `step`: for each neuron whose gradient (after its
/// activation's local derivative) is not 0 (a ReLU that is on), last to first, as
/// [`dot_backward`]. With `lanes`, a [`deferred`](Layer::deferred) layer records its
/// inputs and its neurons' gradients there instead of adding to its weights' gradients
/// (see `defer.rs`). Returns whether every gradient it wrote is finite.
pub(super) fn layer_backward(
    (data, grad): (&[f64], &mut [f64]),
    layer: Layer,
    (args, runs, needs, terms): LayerPlans<'_>,
    step: Step,
    lanes: Option<&mut Lanes>,
) -> bool {
    let nodes = layer.nodes();
    // The sums' gradients `local * out.grad`, all at once (none of the layer's nodes
    // reads another, so no step below changes them): one loop per op, so that the
    // compiler vectorises ReLU's.
    let mut sum_grads = [0.0; WIDTH];
    let sum_grads = &mut sum_grads[..nodes.len()];
    let outs = data[nodes.clone()].iter().zip(&grad[nodes.clone()]);
    match step {
        Step::DotThen(Code::Relu) => {
            for (g, (&out, &out_grad)) in sum_grads.iter_mut().zip(outs) {
                *g = Code::Relu.local_grads(0.0, 0.0, out, NO_CONSTS).0 * out_grad;
            }
        }
        Step::DotThen(op) => {
            for (g, (&out, &out_grad)) in sum_grads.iter_mut().zip(outs) {
                *g = op.local_grads(0.0, 0.0, out, NO_CONSTS).0 * out_grad;
            }
        }
        _ => sum_grads.copy_from_slice(&grad[nodes.clone()]),
    }
    let args = &args[nodes];
    if layer.neurons {
        let weights = match lanes.filter(|_| layer.deferred) {
            Some(lanes) => {
                let run = runs[args[0][0] as usize + 1];
                lanes.record(layer.first, &data[run.ys()], sum_grads);
                false
            }
            None => true,
        };
        let terms = &terms[layer.terms as usize..][..args.len()];
        return neurons_backward(
            (data, grad),
            (args, runs, needs),
            (terms, sum_grads),
            weights,
        );
    }
    let mut finite = true;
    // The last neuron first, as the backward loop takes any other nodes.
    for (&[a, b], &g) in args.iter().zip(sum_grads.iter()).rev() {
        if g != 0.0 {
            let (runs, needs) = (
                &runs[a as usize..b as usize],
                &needs[a as usize..b as usize],
            );
            finite &= dot_backward((data, grad), (runs, needs), g);
        }
    }
    finite
}

/// [`layer_backward`] for a layer of neurons ([`Layer::neurons`], as
/// [`Value::neuron`](crate::Value::neuron) makes them): each sum's terms are its bias
/// `[b, one]`, then one run `[w, y]` over the layer's inputs, whose gradient is needed
/// by no one or lies above every bias and weight.
/// Each neuron with a gradient `g` (in `sum_grads`) that is not 0, last first, adds
/// `data[one] * g` to its bias's gradient, then for each term `w_i * y_i`, `y_i * g` to
/// `w_i`'s and (if needed) `w_i * g` to `y_i`'s, in one loop: each node gets one
/// contribution from the neuron, so the order of the halves changes no sum. Without
/// `weights`, the weights' gradients are left alone (deferred). Returns whether every
/// gradient it wrote is finite (`true` only if so, as [`add_scaled`]).
fn neurons_backward(
    (data, grad): (&[f64], &mut [f64]),
    (args, runs, needs): (&[[u32; 2]], &[Run], &[u8]),
    (terms, sum_grads): (&[NeuronTerms], &[f64]),
    weights: bool,
) -> bool {
    // (The sums of a layer have the same second factors: the first sum's are all's.)
    let inputs = runs[args[0][0] as usize + 1].len;
    // The widths of the moons and MNIST layers' inputs (16, 32) with the length of each
    // neuron's run known to the compiler: its loops unrolled, no remainder to handle.
    let (buffers, arrays, neurons) = ((data, grad), (args, runs, needs), (terms, sum_grads));
    match inputs {
        16 => neurons_backward_of::<16>(buffers, arrays, neurons, weights),
        32 => neurons_backward_of::<32>(buffers, arrays, neurons, weights),
        _ => neurons_backward_of::<0>(buffers, arrays, neurons, weights),
    }
}

/// [`neurons_backward`] for neurons of `N` inputs each (0: any number).
#[inline(always)]
fn neurons_backward_of<const N: usize>(
    (data, grad): (&[f64], &mut [f64]),
    (args, runs, needs): (&[[u32; 2]], &[Run], &[u8]),
    (terms, sum_grads): (&[NeuronTerms], &[f64]),
    weights: bool,
) -> bool {
    let a = args[0][0] as usize;
    let [bias, run] = [runs[a], runs[a + 1]];
    let (y, n) = (run.y as usize, if N > 0 { N } else { run.len as usize });
    let inputs_need = needs[a + 1] & 2 != 0;
    let (one, ys) = (data[bias.y as usize], &data[y..y + n]);
    // The inputs' gradients apart from the weights' (all below them, if needed).
    let (grad, mut input_grads) = match inputs_need {
        true => {
            let (weights, inputs) = grad.split_at_mut(y);
            (weights, Some(&mut inputs[..n]))
        }
        false => (grad, None),
    };
    let mut check = [0.0; LANES];
    for (neuron, &g) in terms.iter().zip(sum_grads).rev() {
        if g == 0.0 {
            continue;
        }
        if neuron.bias_needs {
            let b = neuron.bias as usize;
            grad[b] += one * g;
            check[0] += grad[b];
        }
        let xs = neuron.weights as usize..neuron.weights as usize + n;
        let ws = &data[xs.clone()];
        match (neuron.weights_need && weights, input_grads.as_deref_mut()) {
            (true, Some(gy)) => both_halves(&mut grad[xs], gy, (ws, ys), g, &mut check),
            (true, None) => one_half(&mut grad[xs], ys, g, &mut check),
            (false, Some(gy)) => one_half(gy, ws, g, &mut check),
            (false, None) => {}
        }
    }
    check.iter().all(|c| c.is_finite())
}

/// How many sums side by side the backward kernels add their checks in.
const LANES: usize = 4;

/// `grad[i] += factor[i] * g` for every `i`, each sum written added into `check`.
#[inline(always)]
pub(super) fn one_half(grad: &mut [f64], factor: &[f64], g: f64, check: &mut [f64; LANES]) {
    let (grads, grad_rest) = grad.as_chunks_mut::<LANES>();
    let (factors, factor_rest) = factor.as_chunks::<LANES>();
    for (gs, fs) in grads.iter_mut().zip(factors) {
        let sums: [f64; LANES] = std::array::from_fn(|i| gs[i] + fs[i] * g);
        *gs = sums;
        *check = std::array::from_fn(|i| check[i] + sums[i]);
    }
    for (gi, f) in grad_rest.iter_mut().zip(factor_rest) {
        *gi += f * g;
        check[0] += *gi;
    }
}

/// `gx[i] += y[i] * g` and `gy[i] += x[i] * g` for every `i` (the two halves of the
/// chain rule through a run of products `x[i] * y[i]`), each sum written added into
/// `check`.
#[inline(always)]
fn both_halves(
    gx: &mut [f64],
    gy: &mut [f64],
    (x, y): (&[f64], &[f64]),
    g: f64,
    check: &mut [f64; LANES],
) {
    let (gxs, gx_rest) = gx.as_chunks_mut::<LANES>();
    let (gys, gy_rest) = gy.as_chunks_mut::<LANES>();
    let (xs, x_rest) = x.as_chunks::<LANES>();
    let (ys, y_rest) = y.as_chunks::<LANES>();
    for ((gx, gy), (x, y)) in gxs.iter_mut().zip(gys).zip(xs.iter().zip(ys)) {
        let to_x: [f64; LANES] = std::array::from_fn(|i| gx[i] + y[i] * g);
        let to_y: [f64; LANES] = std::array::from_fn(|i| gy[i] + x[i] * g);
        *gx = to_x;
        *gy = to_y;
        *check = std::array::from_fn(|i| check[i] + to_x[i] + to_y[i]);
    }
    let rest = gx_rest
        .iter_mut()
        .zip(gy_rest)
        .zip(x_rest.iter().zip(y_rest));
    for ((gx, gy), (x, y)) in rest {
        *gx += y * g;
        *gy += x * g;
        check[0] += *gx + *gy;
    }
}

/// The chain rule through a `sum` with the terms `runs` and the gradient `g` (after
/// its activation's local derivative): each term `x * y` adds `y * g` to `x`'s gradient
/// and `x * g` to `y`'s (Python's `self.grad += other.data * out.grad`), where `needs`
/// (the runs' [`run_grads`](Program::run_grads)) says anyone needs them. Returns whether
/// every gradient it wrote is finite.
#[inline]
pub(super) fn dot_backward(
    (data, grad): (&[f64], &mut [f64]),
    (runs, needs): (&[Run], &[u8]),
    g: f64,
) -> bool {
    let mut finite = true;
    for (&run, &need) in runs.iter().zip(needs) {
        let (x, y) = (need & 1 != 0, need & 2 != 0);
        if run.len == 1 {
            // (A neuron's bias: no loops to set up for one term.)
            let (i, j) = (run.x as usize, run.y as usize);
            if x {
                grad[i] += data[j] * g;
                finite &= grad[i].is_finite();
            }
            if y {
                grad[j] += data[i] * g;
                finite &= grad[j].is_finite();
            }
        } else if x && y && (run.x + run.len <= run.y || run.y + run.len <= run.x) {
            // (A neuron's weights and inputs: both halves in one loop. Each of their
            // nodes gets one contribution from the run, so which half comes first
            // changes no sum.)
            finite &= add_scaled_both(grad, data, run, g);
        } else {
            if x {
                finite &= add_scaled(&mut grad[run.xs()], &data[run.ys()], g);
            }
            if y {
                finite &= add_scaled(&mut grad[run.ys()], &data[run.xs()], g);
            }
        }
    }
    finite
}

/// Both halves of the chain rule through a run whose first and second factors do not
/// overlap: `grad[x + i] += data[y + i] * g` and `grad[y + i] += data[x + i] * g`, in
/// one loop. Returns `true` only if every sum it wrote is finite (as [`add_scaled`]).
#[inline]
fn add_scaled_both(grad: &mut [f64], data: &[f64], run: Run, g: f64) -> bool {
    const LANES: usize = 2;
    let (xs, ys) = (&data[run.xs()], &data[run.ys()]);
    // The two ranges of `grad`, split apart.
    let (gx, gy) = if run.x < run.y {
        let (lo, hi) = grad.split_at_mut(run.y as usize);
        (&mut lo[run.xs()], &mut hi[..run.len as usize])
    } else {
        let (lo, hi) = grad.split_at_mut(run.x as usize);
        (&mut hi[..run.len as usize], &mut lo[run.ys()])
    };
    let mut check = [0.0; LANES];
    let (gx, gx_rest) = gx.as_chunks_mut::<LANES>();
    let (gy, gy_rest) = gy.as_chunks_mut::<LANES>();
    let (xs, xs_rest) = xs.as_chunks::<LANES>();
    let (ys, ys_rest) = ys.as_chunks::<LANES>();
    for ((gx, gy), (x, y)) in gx.iter_mut().zip(gy).zip(xs.iter().zip(ys)) {
        let to_x: [f64; LANES] = std::array::from_fn(|i| gx[i] + y[i] * g);
        let to_y: [f64; LANES] = std::array::from_fn(|i| gy[i] + x[i] * g);
        *gx = to_x;
        *gy = to_y;
        check = std::array::from_fn(|i| check[i] + to_x[i] + to_y[i]);
    }
    let rest = gx_rest
        .iter_mut()
        .zip(gy_rest)
        .zip(xs_rest.iter().zip(ys_rest));
    for ((gx, gy), (x, y)) in rest {
        *gx += y * g;
        *gy += x * g;
        check[0] += *gx + *gy;
    }
    check.iter().all(|c| c.is_finite())
}

/// `grad[i] += factor[i] * g` for every `i`: one half of the chain rule through a run
/// of products. Returns `true` only if every sum it wrote is finite, checked on the way
/// (so that a run need not look at every leaf's gradient afterwards): the sums it
/// wrote are added up in four independent lanes, which the compiler vectorises, and a
/// NaN or infinity among them leaves a lane NaN or infinite. Finite sums whose total
/// overflows make it return `false` too: the caller then looks at every leaf's
/// gradient, which decides (see `Program::backward`). (Adding `sum * 0.0`, 0 exactly
/// for a finite sum, would cost one multiplication more per element; a `bool` and-ed
/// per element, or `is_finite`, is not vectorised.)
#[inline]
fn add_scaled(grad: &mut [f64], factor: &[f64], g: f64) -> bool {
    const LANES: usize = 4;
    let mut check = [0.0; LANES];
    let (grads, grad_rest) = grad.as_chunks_mut::<LANES>();
    let (factors, factor_rest) = factor.as_chunks::<LANES>();
    for (gs, fs) in grads.iter_mut().zip(factors) {
        let sums: [f64; LANES] = std::array::from_fn(|i| gs[i] + fs[i] * g);
        *gs = sums;
        check = std::array::from_fn(|i| check[i] + sums[i]);
    }
    for (gi, f) in grad_rest.iter_mut().zip(factor_rest) {
        *gi += f * g;
        check[0] += *gi;
    }
    check.iter().all(|c| c.is_finite())
}

//! The forward pass: compute every inner node in order from the leaves' data.

use super::layer::{activate_layer, layer_sums, relu_neurons, WIDTH};
use super::{Buffers, Program, Run, Step};
use crate::error::Error;
use crate::rules::NO_CONSTS;

impl Program {
    /// The forward loop over the inner nodes, from the leaf data in `buf`: computes each
    /// inner node from its parents in topological order, with exactly the arithmetic of
    /// the dynamic graph, and returns the root's value. Nothing is allocated.
    ///
    /// On a NaN or infinity (also one hidden inside a fused node) it returns the error
    /// the dynamic graph reports for these values, keeping the values computed and
    /// noting it in `buf.data_finite`.
    pub(crate) fn forward(&self, buf: &mut Buffers) -> Result<f64, Error> {
        let first = self.leaves;
        // A NaN or infinity is noted on the way and located afterwards. Noted without a
        // branch or a compare: `x * 0.0` is 0 for a finite `x` and NaN for any other,
        // and a NaN stays in a sum, so `check` is 0 until one is met (a layer of ReLU
        // neurons hands back its sums' in two lanes, added up in `lanes`).
        let mut finite = buf.leaves_finite;
        let (mut check, mut lanes) = (0.0, [0.0; 2]);
        if buf.panels_stale {
            buf.fill_panels(self);
        }
        let (data, runs, consts) = (&mut buf.data, &self.runs, &self.consts);
        // The next layer and group of four, and where they start (`usize::MAX`: none
        // left): one compare per node, no iterator state to test.
        let (mut layer_at, mut group_at) = (0, 0);
        let layer_start = |i: usize| self.layers.get(i).map_or(usize::MAX, |l| l.first as usize);
        let group_start = |i: usize| self.side_by_side.get(i).map_or(usize::MAX, |&k| k as usize);
        let (mut next_layer, mut next_group) = (layer_start(0), group_start(0));
        let mut k = first;
        while k < self.steps.len() {
            if k == next_layer {
                let layer = self.layers[layer_at];
                layer_at += 1;
                next_layer = layer_start(layer_at);
                let panel = &buf.panels[layer.panel as usize..];
                if let Some(terms) = layer.relu {
                    let [c0, c1] = relu_neurons(data, k, terms, panel);
                    lanes = [lanes[0] + c0, lanes[1] + c1];
                    k += WIDTH;
                    continue;
                }
                let ([a, b], width) = (self.args[k].map(|i| i as usize), layer.width as usize);
                let sums = layer_sums(data, &runs[a..b], panel, width);
                // (The sums of a layer have the same step: one activation for all.)
                let out = &mut data[layer.nodes()];
                finite &= activate_layer(self.steps[k], &sums[..width], out);
                k += width;
                continue;
            }
            if k == next_group {
                group_at += 1;
                next_group = group_start(group_at);
                let sums = dot4(data, runs, &self.args[k..k + 4]);
                for (j, sum) in (k..k + 4).zip(sums) {
                    data[j] = activate(self.steps[j], sum);
                    finite &= sum.is_finite() & data[j].is_finite();
                }
                k += 4;
                continue;
            }
            let [a, b] = self.args[k].map(|i| i as usize);
            let out = match self.steps[k] {
                step @ (Step::Dot | Step::DotThen(_)) => {
                    let sum = dot(data, &runs[a..b]);
                    // (An activation may hide an overflow of its sum: `tanh(inf)` is 1.)
                    check += sum * 0.0;
                    activate(step, sum)
                }
                Step::Binary(op) => op.forward(data[a], data[b], NO_CONSTS),
                Step::Unary(op) => op.forward(data[a], 0.0, consts[b]),
                Step::BinaryRule(r) => self.rules[r as usize].forward(data[a], data[b], NO_CONSTS),
                Step::UnaryRule(r) => self.rules[r as usize].forward(data[a], 0.0, consts[b]),
                Step::Custom(c) => {
                    let parents = &self.custom_parents[a..b];
                    let p = gather(&mut buf.scratch, data, parents);
                    self.customs[c as usize].forward(p)
                }
                // (No inner node is a leaf.)
                Step::Leaf => data[k],
            };
            data[k] = out;
            check += out * 0.0;
            k += 1;
        }
        finite &= check == 0.0 && lanes[0] + lanes[1] == 0.0;
        buf.data_finite = finite;
        if !finite {
            return Err(self.value_error(&buf.data));
        }
        Ok(buf.data[self.root()])
    }

    /// The error for a forward pass that met a NaN or infinity in `data`: the one the
    /// dynamic graph reports for these values (see `graph.rs`).
    pub(crate) fn value_error(&self, data: &[f64]) -> Error {
        self.graph_error(data, None)
            .unwrap_or_else(|| disagreement("forward"))
    }
}

/// The error for a pass in which the tape met a NaN or infinity and the rebuilt graph
/// did not: a bug of the tape, reported instead of a wrong number.
pub(crate) fn disagreement(pass: &str) -> Error {
    Error::InvalidInput(format!(
        "the tape's {pass} pass met a NaN or infinity that the dynamic graph does not: \
         a bug in micrograd's tape; please report it, and use the dynamic graph meanwhile"
    ))
}

/// `sum(data[x] * data[y] for [x, y] in runs)`, left to right from 0.0, as Python's
/// `sum()` adds the terms of a neuron.
#[inline]
fn dot(data: &[f64], runs: &[Run]) -> f64 {
    // (A neuron, its bias `[b, one]` then its weights and inputs, as the tape compiles
    // `Value::neuron` and micrograd's `Neuron`: no loop over its two runs.)
    if let [bias, weights] = runs {
        if bias.len == 1 {
            let acc = 0.0 + data[bias.x as usize] * data[bias.y as usize];
            return terms(acc, &data[weights.xs()], &data[weights.ys()]);
        }
    }
    runs.iter().fold(0.0, |acc, run| {
        if run.len == 1 {
            // (A neuron's bias, `[b, one]`: no loop to set up for one term.)
            return acc + data[run.x as usize] * data[run.y as usize];
        }
        terms(acc, &data[run.xs()], &data[run.ys()])
    })
}

/// `acc + xs[0] * ys[0] + xs[1] * ys[1] + ...`, each term added after the one before:
/// eight terms a turn of the loop, so that its own instructions run once per eight
/// terms (as do the neurons' in [`dot`]).
#[inline(always)]
fn terms(acc: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let ((x8, x_rest), (y8, y_rest)) = (xs.as_chunks::<8>(), ys.as_chunks::<8>());
    let acc = (x8.iter().zip(y8)).fold(acc, |acc, (x, y)| {
        (0..8).fold(acc, |acc, i| acc + x[i] * y[i])
    });
    x_rest
        .iter()
        .zip(y_rest)
        .fold(acc, |acc, (x, y)| acc + x * y)
}

/// Copies the data of a custom node's `parents` into the front of `scratch` and returns
/// that part: the `&[f64]` its closures take.
#[inline]
pub(super) fn gather<'s>(scratch: &'s mut [f64], data: &[f64], parents: &[u32]) -> &'s mut [f64] {
    let p = &mut scratch[..parents.len()];
    for (slot, &i) in p.iter_mut().zip(parents) {
        *slot = data[i as usize];
    }
    p
}

/// A `Dot` node's value from its sum, or a `DotThen(op)` node's: `op` of the sum.
#[inline]
fn activate(step: Step, sum: f64) -> f64 {
    match step {
        Step::DotThen(op) => op.forward(sum, 0.0, NO_CONSTS),
        _ => sum,
    }
}

/// Four [`dot`]s whose runs have the same lengths (`args` are their `[start, end]`),
/// computed side by side: term `t` of each, then term `t + 1` of each. Each sum is still
/// added up left to right, so the values are those of `dot`, bit for bit; but the four
/// chains of additions are independent, so the processor need not wait for each
/// addition to finish before starting the next.
fn dot4(data: &[f64], runs: &[Run], args: &[[u32; 2]]) -> [f64; 4] {
    let [a0, a1, a2, a3] = [0, 1, 2, 3].map(|j| args[j][0] as usize);
    let end = args[0][1] as usize;
    let mut acc = [0.0; 4];
    for (i, r0) in runs[a0..end].iter().enumerate() {
        let [r1, r2, r3] = [a1, a2, a3].map(|a| runs[a + i]);
        if r0.len == 1 {
            // (The neurons' biases: no loops to set up for one term each.)
            for (acc, r) in acc.iter_mut().zip([r0, &r1, &r2, &r3]) {
                *acc += data[r.x as usize] * data[r.y as usize];
            }
            continue;
        }
        let terms = |r: &Run| data[r.xs()].iter().zip(&data[r.ys()]);
        let lanes = terms(r0).zip(terms(&r1)).zip(terms(&r2).zip(terms(&r3)));
        for (((x0, y0), (x1, y1)), ((x2, y2), (x3, y3))) in lanes {
            acc[0] += x0 * y0;
            acc[1] += x1 * y1;
            acc[2] += x2 * y2;
            acc[3] += x3 * y3;
        }
    }
    acc
}

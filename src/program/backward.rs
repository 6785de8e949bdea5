//! The backward pass: the chain rule as one reverse loop over the program.

use super::forward::gather;
use super::layer::{add_scaled, layer_backward, WIDTH};
use super::{all_finite, Buffers, Program, Step};
use crate::engine::rules::NO_CONSTS;
use crate::error::{Error, Pass};

impl Program {
    /// The chain rule over the program: adds this run's d root / d leaf to the leaves'
    /// entries of `buf.grad` (which it does not reset), recomputing the inner nodes'
    /// from 0. `start` gives what the leaves' entries started from, for the error
    /// (`None`: from 0; the dynamic graph checks the sums it makes); it is called only
    /// on an error.
    ///
    /// After a non-finite gradient the leaves' entries are set to 0; the error of an
    /// earlier forward leaves them as they are.
    pub(crate) fn backward(
        &self,
        buf: &mut Buffers,
        start: impl FnOnce() -> Option<Vec<f64>>,
    ) -> Result<(), Error> {
        if !buf.data_finite {
            return Err(self.value_error(&buf.data));
        }
        self.sweep(&buf.data, &mut buf.grad, &mut buf.scratch);
        // A non-finite gradient reaches every parent of its node (`local * inf` and
        // `local * NaN` are never finite, not even for `local = 0`), and from there
        // every leaf below. So the leaves' gradients tell whether any step went wrong;
        // only then is the graph rebuilt, for the dynamic graph to name the culprit.
        let first = self.leaves;
        if !all_finite(&buf.grad[..first]) {
            // A constant the engine made for an `f64` operand is read by no one: a
            // non-finite gradient there alone is no error (as for `Value::try_backward`).
            let visible = |&i: &usize| !self.hidden[i];
            let bad = (0..first).filter(|&i| !buf.grad[i].is_finite());
            let Some(leaf) = bad.into_iter().find(visible) else {
                return Ok(());
            };
            let (leaf, sum) = (Some(leaf), buf.grad[leaf]);
            buf.grad[..first].fill(0.0);
            let grads = start();
            // Without a culprit in this run, each run's gradient was finite but their
            // sum over the runs of `accumulate` was not: name the leaf.
            return Err(self.graph_error(&buf.data, grads.as_deref()).unwrap_or(
                Error::NonFinite {
                    pass: Pass::Backward,
                    op: "",
                    label: leaf.and_then(|i| self.label_of(i)),
                    value: sum,
                },
            ));
        }
        Ok(())
    }

    /// The reverse loop over the values `data`, with `grad` for the gradients: adds
    /// into its leaves' entries, recomputes the others from 0.
    /// `scratch` is room for a custom node's parents' data and local derivatives.
    pub(crate) fn sweep(&self, data: &[f64], grad: &mut [f64], scratch: &mut [f64]) {
        let first = self.leaves;
        let root = self.root();
        let runs = &self.runs;
        grad[first..].fill(0.0);
        grad[root] = 1.0;
        let mut layers = self.layers.iter().rev().peekable();
        let mut k = root + 1;
        while k > first {
            k -= 1;
            if let Some(layer) = layers.next_if(|l| l.first as usize + WIDTH - 1 == k) {
                k = layer.first as usize;
                // (The sums of a layer have the same step.)
                let (out, g_out) = (&data[k..k + WIDTH], &grad[k..k + WIDTH]);
                let g: [f64; WIDTH] = match self.steps[k] {
                    Step::DotThen(op) => std::array::from_fn(|j| {
                        op.local_grads(0.0, 0.0, out[j], NO_CONSTS).0 * g_out[j]
                    }),
                    _ => std::array::from_fn(|j| g_out[j]),
                };
                if g.iter().all(|&g| g == 0.0) {
                    continue;
                }
                layer_backward(data, grad, (&self.args[k..k + WIDTH], runs), g);
                continue;
            }
            let [a, b] = self.args[k].map(|i| i as usize);
            let g = grad[k];
            match self.steps[k] {
                Step::Dot | Step::DotThen(_) => {
                    let g = match self.steps[k] {
                        // The fused sum's gradient: `local * out.grad`.
                        Step::DotThen(op) => op.local_grads(0.0, 0.0, data[k], NO_CONSTS).0 * g,
                        _ => g,
                    };
                    // Nothing flows back through a zero gradient (a ReLU that is off):
                    // every term would add `finite * 0.0`, which leaves a sum unchanged.
                    if g == 0.0 {
                        continue;
                    }
                    for &run in &runs[a..b] {
                        // d (x * y) / dx = y: Python's `self.grad += other.data * out.grad`
                        if run.len == 1 {
                            // (A neuron's bias: no loops to set up for one term.)
                            let (x, y) = (run.x as usize, run.y as usize);
                            grad[x] += data[y] * g;
                            grad[y] += data[x] * g;
                        } else {
                            add_scaled(&mut grad[run.xs()], &data[run.ys()], g);
                            add_scaled(&mut grad[run.ys()], &data[run.xs()], g);
                        }
                    }
                }
                Step::Binary(op) => {
                    let (da, db) = op.local_grads(data[a], data[b], data[k], NO_CONSTS);
                    grad[a] += da * g;
                    grad[b] += db * g;
                }
                Step::Unary(op) => {
                    let (da, _) = op.local_grads(data[a], 0.0, data[k], self.consts[b]);
                    grad[a] += da * g;
                }
                Step::Custom(c) => {
                    // As the dynamic graph's `custom_rule`: `grad[p_i] += d[i] * g`.
                    let parents = &self.custom_parents[a..b];
                    let (p, d) = scratch.split_at_mut(parents.len());
                    let d = &mut d[..parents.len()];
                    let custom = &self.customs[c as usize];
                    custom.local_grads(gather(p, data, parents), data[k], d);
                    for (&i, di) in parents.iter().zip(d.iter()) {
                        grad[i as usize] += di * g;
                    }
                }
                // (No inner node is a leaf.)
                Step::Leaf => {}
            }
        }
    }
}

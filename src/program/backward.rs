//! The backward pass: the chain rule as one reverse loop over the program.

use super::defer::Lanes;
use super::forward::gather;
use super::layer::{dot_backward, layer_backward};
use super::{all_finite, all_zero, Buffers, Program, Step};
use crate::error::{Error, Pass};
use crate::rules::NO_CONSTS;

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
        self.backward_deferring(buf, None, start)
    }

    /// [`backward`](Program::backward), every inner node's gradient kept in `buf.grad`
    /// afterwards (a pass sets them to 0 as it goes): for
    /// [`Tape::check`](crate::tape::Tape::check), which compares them with the graph's.
    pub(crate) fn backward_keeping(
        &self,
        buf: &mut Buffers,
        start: impl FnOnce() -> Option<Vec<f64>>,
    ) -> Result<(), Error> {
        self.backward_as::<true>(buf, None, start)
    }

    /// [`backward`](Program::backward), the deferred layers' weight gradients recorded
    /// in `lanes` (if given) rather than added (see `defer.rs`).
    pub(crate) fn backward_deferring(
        &self,
        buf: &mut Buffers,
        lanes: Option<&mut Lanes>,
        start: impl FnOnce() -> Option<Vec<f64>>,
    ) -> Result<(), Error> {
        self.backward_as::<false>(buf, lanes, start)
    }

    /// [`backward_deferring`](Program::backward_deferring); with `KEEP`, the inner
    /// nodes' gradients are kept (see [`sweep`](Program::sweep)).
    fn backward_as<const KEEP: bool>(
        &self,
        buf: &mut Buffers,
        lanes: Option<&mut Lanes>,
        start: impl FnOnce() -> Option<Vec<f64>>,
    ) -> Result<(), Error> {
        if !buf.data_finite {
            return Err(self.value_error(&buf.data));
        }
        let wrote_finite = match KEEP {
            true => {
                // (The kept gradients are not 0: the next sweep sets them to 0 first.)
                buf.inner_grads_zero = false;
                self.sweep_as::<true>(&buf.data, &mut buf.grad, &mut buf.scratch, lanes, false)
            }
            false => {
                let zeroed = &mut buf.inner_grads_zero;
                self.sweep(&buf.data, &mut buf.grad, &mut buf.scratch, lanes, zeroed)
            }
        };
        // Every gradient the sweep wrote was finite, and the leaves' entries were before:
        // they still are, and nothing went wrong (no need to look at every leaf).
        if wrote_finite && buf.grads_finite {
            return Ok(());
        }
        // A non-finite gradient reaches every parent of its node (`local * inf` and
        // `local * NaN` are never finite, not even for `local = 0`), and from there
        // every leaf below. So the leaves' gradients tell whether any step went wrong;
        // only then is the graph rebuilt, for the dynamic graph to name the culprit.
        let first = self.leaves;
        buf.grads_finite = all_finite(&buf.grad[..first]);
        if !buf.grads_finite || (!wrote_finite && !self.frozen_late.is_empty()) {
            // On the leaf shown for an `f64` operand (`Program::hidden`), a non-finite
            // gradient alone is no error (as for `Value::try_backward`).
            let visible = |&i: &usize| !self.hidden[i];
            let bad = (0..first).filter(|&i| !buf.grad[i].is_finite());
            let Some(leaf) = bad.into_iter().find(visible) else {
                // Nor on a frozen leaf, whose entry the sweep set back to 0; but one
                // marked after compiling may have got it from a node that still needs
                // its gradient in the user's graph, and an operand's leaf from an inner
                // node whose gradient the graph checks: the graph decides.
                let operand_leaf_bad = !buf.grads_finite;
                if wrote_finite || (self.frozen_late.is_empty() && !operand_leaf_bad) {
                    return Ok(());
                }
                let Some(err) = self.graph_error(&buf.data, start().as_deref()) else {
                    return Ok(());
                };
                buf.grad[..first].fill(0.0);
                buf.grads_finite = true;
                return Err(err);
            };
            let (leaf, sum) = (Some(leaf), buf.grad[leaf]);
            buf.grad[..first].fill(0.0);
            buf.grads_finite = true;
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
    /// into its leaves' entries; the inner nodes' it computes from 0 and leaves at 0.
    /// `scratch` is room for a custom node's parents' data and local derivatives; with
    /// `lanes`, the deferred layers record their weights' gradients there.
    ///
    /// `zeroed` says whether the inner nodes' entries of `grad` are all +0.0, as every
    /// sweep that finishes leaves them (each node's entry is set to 0 once the sweep has
    /// read it; a node it jumps over was written by no one, see `private.rs`): then they
    /// need not be set to 0 first (29 KB for the moons step). It is `false` while the
    /// sweep runs, so that one a custom op's panic stopped is followed by a full reset.
    pub(crate) fn sweep(
        &self,
        data: &[f64],
        grad: &mut [f64],
        scratch: &mut [f64],
        lanes: Option<&mut Lanes>,
        zeroed: &mut bool,
    ) -> bool {
        let fresh = std::mem::replace(zeroed, false);
        let finite = self.sweep_as::<false>(data, grad, scratch, lanes, fresh);
        *zeroed = true;
        finite
    }

    /// [`sweep`](Program::sweep), the inner nodes' entries of `grad` all +0.0 already if
    /// `zeroed`; with `KEEP`, each node's gradient is left in its entry, not set to 0.
    fn sweep_as<const KEEP: bool>(
        &self,
        data: &[f64],
        grad: &mut [f64],
        scratch: &mut [f64],
        mut lanes: Option<&mut Lanes>,
        zeroed: bool,
    ) -> bool {
        let mut finite = true;
        let first = self.leaves;
        let root = self.root();
        let runs = &self.runs;
        match zeroed {
            // (The constant 1.0 after the root collects products no one reads.)
            true => grad[root + 1..].fill(0.0),
            false => grad[first..].fill(0.0),
        }
        grad[root] = 1.0;
        // The next layer back (the last one not yet taken is `layers[..left]`'s) and the
        // node it ends at (`usize::MAX`: none left): one compare per node.
        let mut left = self.layers.len();
        let layer_end = |left: usize| {
            left.checked_sub(1)
                .map_or(usize::MAX, |i| self.layers[i].nodes().end - 1)
        };
        let mut next_layer = layer_end(left);
        let mut k = root + 1;
        while k > first {
            k -= 1;
            if k == next_layer {
                left -= 1;
                let layer = self.layers[left];
                next_layer = layer_end(left);
                k = layer.first as usize;
                // A layer whose outputs all have gradient 0 passes nothing back (each sum's
                // would be `local * 0.0`, 0 for the finite local derivatives of these ops
                // on finite values): the moons step's points whose hinge is off. (A
                // batch's deferred layer still records its zeros: its lane is read later.)
                // Their entries are +0.0 already and stay so, as the sweep leaves every
                // entry it has read: a sum that starts from +0.0 is never -0.0.
                let recording = lanes.is_some() && layer.deferred;
                if !recording && all_zero(&grad[layer.nodes()]) {
                    continue;
                }
                // (The sums of a layer have the same step.)
                let step = self.steps[k];
                let arrays = (
                    &self.args[..],
                    &runs[..],
                    &self.run_grads[..],
                    &self.neuron_terms[..],
                );
                let lanes = lanes.as_deref_mut();
                finite &= layer_backward((data, grad), layer, arrays, step, lanes);
                if !KEEP {
                    grad[layer.nodes()].fill(0.0);
                }
                continue;
            }
            let g = match KEEP {
                true => grad[k],
                false => std::mem::replace(&mut grad[k], 0.0),
            };
            // A zero gradient with finite local derivatives passes nothing back, through
            // this node or the nodes only it reads (`private.rs`): one jump over them all
            // (the moons step's points whose hinge is off), past the layers among them.
            let private = self.private[k] as usize;
            if g == 0.0 && private <= k {
                k = private;
                while left > 0 && self.layers[left - 1].first as usize >= k {
                    left -= 1;
                }
                next_layer = layer_end(left);
                continue;
            }
            let [a, b] = self.args[k].map(|i| i as usize);
            match self.steps[k] {
                Step::Dot | Step::DotThen(_) => {
                    let g = match self.steps[k] {
                        // The fused sum's gradient: `local * out.grad`.
                        Step::DotThen(op) => op.local_grads(0.0, 0.0, data[k], NO_CONSTS).0 * g,
                        _ => g,
                    };
                    // Nothing flows back through a zero gradient (a ReLU that is off):
                    // every term would add `finite * 0.0`, which leaves a sum unchanged.
                    if g != 0.0 {
                        let needs = &self.run_grads[a..b];
                        finite &= dot_backward((data, grad), (&runs[a..b], needs), g);
                    }
                }
                Step::BinaryRule(r) => {
                    let rule = self.rules[r as usize];
                    let (da, db) = rule.local_grads(data[a], data[b], data[k], NO_CONSTS);
                    grad[a] += da * g;
                    grad[b] += db * g;
                    finite &= grad[a].is_finite() & grad[b].is_finite();
                }
                Step::UnaryRule(r) => {
                    let rule = self.rules[r as usize];
                    let (da, _) = rule.local_grads(data[a], 0.0, data[k], self.consts[b]);
                    grad[a] += da * g;
                    finite &= grad[a].is_finite();
                }
                Step::Binary(op) => {
                    let (da, db) = op.local_grads(data[a], data[b], data[k], NO_CONSTS);
                    grad[a] += da * g;
                    grad[b] += db * g;
                    finite &= grad[a].is_finite() & grad[b].is_finite();
                }
                Step::Unary(op) => {
                    let (da, _) = op.local_grads(data[a], 0.0, data[k], self.consts[b]);
                    grad[a] += da * g;
                    finite &= grad[a].is_finite();
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
                        finite &= grad[i as usize].is_finite();
                    }
                }
                // (No inner node is a leaf.)
                Step::Leaf => {}
            }
        }
        // What the dynamic graph does not compute is not handed over (`Value::no_grad`).
        for &i in &self.frozen_written {
            grad[i as usize] = 0.0;
        }
        finite
    }
}

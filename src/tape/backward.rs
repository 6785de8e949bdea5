//! The backward pass: the chain rule as one reverse loop over the tape, then the
//! leaves' gradients handed back to their `Value`s.

use super::forward::gather;
use super::layer::{layer_backward, WIDTH};
use super::layout::{all_finite, Step};
use super::Tape;
use crate::engine::rules::NO_CONSTS;
use crate::engine::Value;
use crate::error::{Error, Pass};

impl Tape {
    /// Computes d root / d node for every node of the tape, then **adds** each leaf's
    /// gradient into that leaf's [`Value`](crate::Value) grad.
    ///
    /// Python's `self.grad = 1; for v in reversed(topo): v._backward()`: the root's
    /// gradient is set to 1, and each inner node, last to first, adds `local * out.grad`
    /// to its parents' gradients, with the local derivatives of the dynamic graph. The
    /// tape's own gradients start from 0 on every call; only the leaf `Value`s
    /// accumulate, exactly as after [`Value::backward`](crate::Value::backward), so an
    /// optimiser that reads `p.grad()` and writes `p.set_data(..)` works unchanged and
    /// the parameters' grads must be zeroed between steps (`zero_grad`) as usual. The
    /// gradient of this pass alone is [`grad_of`](Tape::grad_of).
    ///
    /// It differentiates the values of the last [`forward`](Tape::forward) (or those of
    /// the graph at [`compile`](Tape::compile) time). Nothing is allocated.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`]: with pass `Forward` if the last forward left a NaN or
    /// infinity (nothing is computed); with pass `Backward` naming the op and label of
    /// the first node (root first) whose rule left a non-finite gradient on a parent. On
    /// either error no leaf `Value`'s grad is touched.
    ///
    /// [`Error::InvalidInput`] if [`accumulate`](Tape::accumulate) summed gradients that
    /// [`flush_grads`](Tape::flush_grads) has not handed over yet (this pass would
    /// overwrite them); the sums are kept.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let w = Value::new(0.5);
    /// let x = Value::new(0.0);
    /// let mut tape = Tape::compile(&(&w * &x).tanh())?;
    /// for input in [1.0, 2.0] {
    ///     x.set_data(input);
    ///     tape.forward()?;
    ///     tape.backward()?;       // adds d tanh(w x) / dw = x (1 - tanh(w x)^2)
    /// }
    /// let dw = |x: f64| x * (1.0 - (0.5 * x).tanh().powi(2));
    /// assert!((w.grad() - (dw(1.0) + dw(2.0))).abs() < 1e-15);
    /// assert_eq!(tape.grad_of(&w)?, dw(2.0));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn backward(&mut self) -> Result<(), Error> {
        if self.unflushed {
            return Err(Error::InvalidInput(
                "tape.backward() after tape.accumulate() would drop the gradients summed \
                 since the last flush: call tape.flush_grads() first"
                    .to_owned(),
            ));
        }
        // The dynamic graph adds each contribution into a leaf's grad in turn,
        // `(G + c1) + c2`, which is not always `G + (c1 + c2)`: start from the grads.
        let first = self.leaves.len();
        for (g, leaf) in self.grad[..first].iter_mut().zip(&self.leaves) {
            *g = leaf.grad();
        }
        let from_zero = self.grad[..first].iter().all(|g| g.to_bits() == 0);
        self.run_backward(true)?;
        for (leaf, &g) in self.leaves.iter().zip(&self.grad) {
            leaf.set_grad(g);
        }
        // `grad_of` wants this pass alone: the leaves' entries are it only if they
        // started from 0; else `grad_of` runs the pass again from 0 if it is asked.
        self.alone_elsewhere = !from_zero;
        self.alone.get_mut().clear();
        Ok(())
    }

    /// The gradient of the last [`backward`](Tape::backward) alone for leaf `i` (see
    /// [`grad_of`](Tape::grad_of)).
    pub(super) fn pass_alone(&self, i: usize) -> f64 {
        if !self.alone_elsewhere {
            return self.grad[i];
        }
        let mut alone = self.alone.borrow_mut();
        if alone.is_empty() {
            alone.resize(self.grad.len(), 0.0);
            self.sweep(&mut alone, &mut vec![0.0; self.scratch.len()]);
        }
        alone[i]
    }

    /// The chain rule over the tape: adds this run's d root / d leaf to the leaves'
    /// entries of `grad` (which it does not reset), recomputing the inner nodes' from 0.
    /// `from_grads` says that the leaves' entries started from their `Value`s' grads
    /// (for the error: the dynamic graph checks the sums it makes).
    ///
    /// After a non-finite gradient the leaves' entries are set to 0; the error of an
    /// earlier forward leaves them as they are.
    pub(super) fn run_backward(&mut self, from_grads: bool) -> Result<(), Error> {
        if !self.data_finite {
            return Err(self.value_error());
        }
        let (mut grad, mut scratch) = (
            std::mem::take(&mut self.grad),
            std::mem::take(&mut self.scratch),
        );
        self.sweep(&mut grad, &mut scratch);
        (self.grad, self.scratch) = (grad, scratch);
        // A non-finite gradient reaches every parent of its node (`local * inf` and
        // `local * NaN` are never finite, not even for `local = 0`), and from there
        // every leaf below. So the leaves' gradients tell whether any step went wrong;
        // only then is the graph rebuilt, for the dynamic graph to name the culprit.
        let first = self.leaves.len();
        if !all_finite(&self.grad[..first]) {
            // A constant the engine made for an `f64` operand is read by no one: a
            // non-finite gradient there alone is no error (as for `Value::try_backward`).
            let visible = |&i: &usize| !self.leaves[i].node().hidden;
            let bad = (0..first).filter(|&i| !self.grad[i].is_finite());
            let Some(leaf) = bad.into_iter().find(visible) else {
                return Ok(());
            };
            let (leaf, sum) = (Some(leaf), self.grad[leaf]);
            self.grad[..first].fill(0.0);
            let grads: Option<Vec<f64>> =
                from_grads.then(|| self.leaves.iter().map(Value::grad).collect());
            // Without a culprit in this run, each run's gradient was finite but their
            // sum over the runs of `accumulate` was not: name the leaf.
            return Err(self
                .graph_error(grads.as_deref())
                .unwrap_or(Error::NonFinite {
                    pass: Pass::Backward,
                    op: "",
                    label: leaf.and_then(|i| self.label_of(i)),
                    value: sum,
                }));
        }
        Ok(())
    }

    /// The reverse loop, with `grad` for the tape's gradients: adds into its leaves'
    /// entries, recomputes the others from 0.
    /// `scratch` is room for a custom node's parents' data and local derivatives.
    fn sweep(&self, grad: &mut [f64], scratch: &mut [f64]) {
        let first = self.leaves.len();
        let root = self.root();
        let (data, runs) = (&self.data, &self.runs);
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

/// `grad[i] += factor[i] * g` for every `i`: one half of the chain rule through a run
/// of products.
#[inline]
pub(super) fn add_scaled(grad: &mut [f64], factor: &[f64], g: f64) {
    for (gi, f) in grad.iter_mut().zip(factor) {
        *gi += f * g;
    }
}

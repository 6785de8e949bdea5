//! The backward pass: the chain rule as one reverse loop over the tape, then the
//! leaves' gradients handed back to their `Value`s.

use super::layout::all_finite;
use super::Tape;
use crate::engine::rules::Arity;
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
        if !self.data_finite {
            return Err(self.forward_anomaly());
        }
        self.sweep::<false>();
        // A non-finite gradient reaches every parent of its node (`local * inf` and
        // `local * NaN` are never finite, not even for `local = 0`), and from there
        // every leaf below. So the leaves' gradients tell whether any step went wrong;
        // only then is the sweep re-run step by step to find it.
        if !all_finite(&self.grad[..self.leaves.len()]) {
            if let Some((k, value)) = self.sweep::<true>() {
                return Err(Error::NonFinite {
                    pass: Pass::Backward,
                    op: self.ops[k].symbol(),
                    label: self.label_of(k),
                    value,
                });
            }
        }
        for (leaf, &g) in self.leaves.iter().zip(&self.grad) {
            leaf.add_grad(g);
        }
        Ok(())
    }

    /// The reverse loop. With `CHECK`, it stops at the first node whose rule leaves a
    /// non-finite gradient on one of its parents and returns that node and gradient.
    fn sweep<const CHECK: bool>(&mut self) -> Option<(usize, f64)> {
        let first = self.leaves.len();
        let root = self.grad.len() - 1;
        let (data, grad, terms) = (&self.data, &mut self.grad, &self.terms);
        grad.fill(0.0);
        grad[root] = 1.0;
        for k in (first..=root).rev() {
            let op = self.ops[k];
            let [a, b] = self.args[k].map(|i| i as usize);
            let g = grad[k];
            match op.arity() {
                Arity::Two => {
                    let (da, db) = op.local_grads(data[a], data[b], data[k], 0.0);
                    grad[a] += da * g;
                    grad[b] += db * g;
                }
                Arity::Many => {
                    for &t in &terms[a..b] {
                        grad[t as usize] += g;
                    }
                }
                // (No inner node is a leaf.)
                Arity::One | Arity::Zero => {
                    let (da, _) = op.local_grads(data[a], 0.0, data[k], self.consts[b]);
                    grad[a] += da * g;
                }
            }
            if CHECK {
                let bad = parents(op.arity(), [a, b], terms).find(|&p| !grad[p].is_finite());
                if let Some(p) = bad {
                    return Some((k, grad[p]));
                }
            }
        }
        None
    }
}

/// The parent indices of a node with this arity and these `args` (see [`Tape`]).
fn parents(arity: Arity, [a, b]: [usize; 2], terms: &[u32]) -> impl Iterator<Item = usize> + '_ {
    let (pair, terms) = match arity {
        Arity::Zero => ([None, None], &[][..]),
        Arity::One => ([Some(a), None], &[][..]),
        Arity::Two => ([Some(a), Some(b)], &[][..]),
        Arity::Many => ([None, None], &terms[a..b]),
    };
    let terms = terms.iter().map(|&t| t as usize);
    pair.into_iter().flatten().chain(terms)
}

//! The forward pass: read the leaves, then compute every inner node in order.

use super::layout::{all_finite, Run, Step};
use super::Tape;
use crate::engine::op::Op;
use crate::error::{Error, Pass};

impl Tape {
    /// Recomputes the graph from the leaves' current data and returns the root's value.
    ///
    /// Reads `data()` of every leaf (so `x.set_data(..)` on an input or parameter takes
    /// effect here), then computes each inner node from its parents in topological
    /// order, with exactly the arithmetic of the dynamic graph (`Value::relu`,
    /// `Value::tanh`, ...). A `sum` adds its terms left to right from 0.0. Nothing is
    /// allocated.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] (pass `Forward`) if any value comes out NaN or infinite,
    /// naming the first such node in topological order: its op and label (a leaf holding
    /// the value is reported with op `""`). The tape keeps the values computed, and a
    /// [`backward`](Tape::backward) returns the same error until a forward succeeds.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(1.0);
    /// let mut tape = Tape::compile(&x.ln().with_label("log x"))?;
    /// x.set_data(std::f64::consts::E);
    /// assert_eq!(tape.forward()?, 1.0);
    /// x.set_data(-1.0);
    /// let err = tape.forward().unwrap_err();
    /// assert!(matches!(err, Error::NonFinite { op: "ln", .. }));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn forward(&mut self) -> Result<f64, Error> {
        self.read_leaves();
        self.run_forward()
    }

    /// The forward loop over the inner nodes, from the leaf data the tape holds.
    pub(super) fn run_forward(&mut self) -> Result<f64, Error> {
        let first = self.leaves.len();
        // A NaN or infinity is noted on the way (a compare per node, no branch) and
        // located afterwards.
        let mut finite = self.leaves_finite;
        let (data, runs, consts) = (&mut self.data, &self.runs, &self.consts);
        for k in first..self.steps.len() {
            let [a, b] = self.args[k].map(|i| i as usize);
            let out = match self.steps[k] {
                Step::Dot => dot(data, &runs[a..b]),
                Step::DotThen(op) => op.forward(dot(data, &runs[a..b]), 0.0, 0.0),
                Step::Binary(op) => op.forward(data[a], data[b], 0.0),
                Step::Unary(op) => op.forward(data[a], 0.0, consts[b]),
                // (No inner node is a leaf.)
                Step::Leaf => data[k],
            };
            data[k] = out;
            finite &= out.is_finite();
        }
        self.data_finite = finite;
        if !self.data_finite {
            return Err(self.forward_anomaly());
        }
        Ok(self.value())
    }

    /// The error for the first non-finite value in topological order: all of its
    /// parents are finite, so its op (or, for a leaf, the user) made it.
    pub(super) fn forward_anomaly(&self) -> Error {
        let k = self.data.iter().position(|x| !x.is_finite()).unwrap_or(0);
        let (mut op, mut label, mut value) =
            (self.steps[k].symbol(), self.label_of(k), self.data[k]);
        if let Step::Dot | Step::DotThen(_) = self.steps[k] {
            let [a, b] = self.args[k].map(|i| i as usize);
            let sum = dot(&self.data, &self.runs[a..b]);
            if !sum.is_finite() {
                // The sum made it (a fused one had no label), or one of its fused
                // products did (its factors are finite; it had no label either).
                (op, label, value) = (Op::Sum.symbol(), None, sum);
                let products = self.runs[a..b].iter().flat_map(|r| {
                    let (xs, ys) = (&self.data[r.xs()], &self.data[r.ys()]);
                    xs.iter().zip(ys).map(|(x, y)| x * y)
                });
                if let Some(bad) = products.into_iter().find(|p| !p.is_finite()) {
                    (op, value) = (Op::Mul.symbol(), bad);
                }
                if self.steps[k] == Step::Dot {
                    label = self.label_of(k);
                }
            }
        }
        Error::NonFinite {
            pass: Pass::Forward,
            op,
            label,
            value,
        }
    }
}

/// `sum(data[x] * data[y] for [x, y] in runs)`, left to right from 0.0, as Python's
/// `sum()` adds the terms of a neuron.
#[inline]
fn dot(data: &[f64], runs: &[Run]) -> f64 {
    runs.iter().fold(0.0, |acc, run| {
        let (xs, ys) = (&data[run.xs()], &data[run.ys()]);
        xs.iter().zip(ys).fold(acc, |acc, (x, y)| acc + x * y)
    })
}

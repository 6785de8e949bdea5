//! The forward pass: read the leaves, then compute every inner node in order.

use super::layout::all_finite;
use super::Tape;
use crate::engine::rules::Arity;
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
        let first = self.leaves.len();
        for (d, leaf) in self.data.iter_mut().zip(&self.leaves) {
            *d = leaf.data();
        }
        // A NaN or infinity is noted on the way (a compare per node, no branch) and
        // located afterwards.
        let mut finite = all_finite(&self.data[..first]);
        let data = &mut self.data;
        for k in first..data.len() {
            let op = self.ops[k];
            let [a, b] = self.args[k].map(|i| i as usize);
            let out = match op.arity() {
                Arity::Two => op.forward(data[a], data[b], 0.0),
                Arity::Many => self.terms[a..b]
                    .iter()
                    .fold(0.0, |acc, &t| acc + data[t as usize]),
                // (No inner node is a leaf.)
                Arity::One | Arity::Zero => op.forward(data[a], 0.0, self.consts[b]),
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
        Error::NonFinite {
            pass: Pass::Forward,
            op: self.ops[k].symbol(),
            label: self.label_of(k),
            value: self.data[k],
        }
    }
}

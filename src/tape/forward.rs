//! The forward pass of a [`Tape`]: read the leaves, then run the program.

use super::Tape;
use crate::error::Error;

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
    /// [`Error::ConstantTarget`] if a loss of the graph took its target as a number and
    /// a leaf that needs no gradient (an input made with `no_grad`) holds another number
    /// than when the tape was compiled: the tape is right for that sample only.
    /// [`Error::NonFinite`] (pass `Forward`) if any value comes out NaN or infinite
    /// (also one hidden inside a fused node, such as an overflowing sum under a `tanh`),
    /// naming the same op and label as [`Value::try_backward`](crate::Value::try_backward)
    /// of the dynamic graph would (a leaf holding the value is reported with op `""`,
    /// and its label now, even one given after compiling; an inner node's label is the
    /// one it had at compile time: the tape keeps no handle to it). The tape keeps the values computed, and a
    /// [`backward`](Tape::backward) returns the same error until a forward succeeds.
    ///
    /// # Panics
    ///
    /// If the closure of a [`Value::custom`](crate::Value::custom) op panics, the panic
    /// goes on to the caller. The tape then holds values of two runs (the nodes before
    /// the op of this one, the others of the last), so [`backward`](Tape::backward)
    /// returns an error, and [`value`](Tape::value) and [`outputs`](Tape::outputs) give
    /// NaN, until a forward finishes; run `forward` again on data the op accepts.
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

    /// The forward pass from the leaf data the tape holds (read again first if a
    /// `Value`'s data was written since the tape last read it).
    pub(super) fn run_forward(&mut self) -> Result<f64, Error> {
        self.read_written_leaves()?;
        self.values_change();
        // (Still set if a custom op's closure panics and unwinds out of the pass.)
        self.forward_unfinished = true;
        let value = self.program.forward(&mut self.buf);
        (self.forward_unfinished, self.fed_unrun) = (false, false);
        value
    }
}

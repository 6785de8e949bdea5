//! Compiling a [`Tape`]: the graph's [`Program`], one set of buffers, and the leaves.

use std::sync::atomic::{AtomicU64, Ordering};

use super::Tape;
use crate::engine::Value;
use crate::error::Error;
use crate::program::{Buffers, Compiled, Program};

impl Tape {
    /// Compiles the graph under `root` once, so that [`forward`](Tape::forward) and
    /// [`backward`](Tape::backward) can run it many times.
    ///
    /// Every value that `root` was computed from becomes a node of the tape, each shared
    /// node once. Leaves (inputs, parameters, and the constants that `&x * 2.0` wraps in
    /// a leaf, as Python does) stay [`Value`]s the tape holds handles to; the inner
    /// nodes are copied into flat arrays and the tape keeps no handle to them. The tape
    /// starts out holding the graph's current values, so [`value`](Tape::value) is
    /// `root.data()` and `backward` can run right away.
    ///
    /// Time and memory are linear in the size of the graph.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `root` is a leaf (there is nothing to compile), if
    /// the graph has more than `u32::MAX` nodes, or if it reads further the leaf shown
    /// for the `f64` operand of a node that needs no gradient (`two = y.parents()[1]`
    /// for `y = &x * 2.0` with `x` marked [`no_grad`](Value::no_grad), then `&two *
    /// &w`): the graph adds nothing from `y` to that leaf's gradient, as `y`'s rule
    /// never runs, which a tape cannot leave out.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * 3.0))?;
    /// assert_eq!((tape.value(), tape.node_count()), (6.0, 3));
    /// assert!(matches!(Tape::compile(&x), Err(Error::InvalidInput(_))));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn compile(root: &Value) -> Result<Tape, Error> {
        Tape::compile_with_outputs(root, &[])
    }

    /// A tape of several outputs and no loss, for inference: a model's outputs (all of
    /// them, e.g. the logits), read with [`outputs`](Tape::outputs) or
    /// [`evaluate_batch`](Tape::evaluate_batch). No root is needed: the tape's root is
    /// `0·o₀ + 0·o₁ + ...`, 0 on finite outputs (so [`value`](Tape::value) is 0 and
    /// [`backward`](Tape::backward) gives zero gradients; an output that is not finite
    /// is reported at its own op, as by [`forward`](Tape::forward)).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `outputs` is empty, or has more than `u32::MAX` nodes
    /// under it, or as [`compile`](Tape::compile).
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use micrograd::tape::Tape;
    /// let model = MLP::new(2, &[4, 3], &mut micrograd::random::PythonRandom::seed(1));
    /// let x = [Value::new(0.0).no_grad(), Value::new(0.0).no_grad()];
    /// let logits = model.forward(&x)?;
    /// let mut tape = Tape::compile_outputs(&logits)?;
    /// let input = tape.inputs(&x)?;
    /// let rows = tape.evaluate_batch(&input, &[[0.5, -1.0]], 1)?;
    /// let expected: Vec<f64> = model.forward_f64(&[0.5, -1.0])?.iter().map(Value::data).collect();
    /// assert_eq!(rows[0], expected);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn compile_outputs(outputs: &[Value]) -> Result<Tape, Error> {
        if outputs.is_empty() {
            return Err(Error::InvalidInput(
                "Tape::compile_outputs of no outputs: list the values to compute".to_owned(),
            ));
        }
        let root: Value = outputs.iter().map(|o| o * 0.0).sum();
        Tape::compile_with_outputs(&root, outputs)
    }

    /// [`compile`](Tape::compile), keeping the values of `outputs` (nodes of the graph
    /// other than the root, such as a network's scores when the root is the loss) so
    /// that [`outputs`](Tape::outputs) reads them after each forward.
    ///
    /// # Errors
    ///
    /// As [`compile`](Tape::compile), and [`Error::NotInGraph`] (naming its place and
    /// label) if one of `outputs` is not a node of the graph under `root`.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let score = x.tanh();
    /// let loss = (&score - 1.0).powf(2.0);
    /// let mut tape = Tape::compile_with_outputs(&loss, &[score.clone()])?;
    /// x.set_data(0.5);
    /// tape.forward()?;
    /// assert_eq!(tape.outputs().collect::<Vec<_>>(), [0.5f64.tanh()]);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn compile_with_outputs(root: &Value, outputs: &[Value]) -> Result<Tape, Error> {
        let marks_seen = crate::watch::grad_marks();
        let labels_seen = crate::watch::label_writes();
        let Compiled {
            program,
            leaves,
            data,
            data_finite,
        } = Program::compile(root, outputs)?;
        static TAPES: AtomicU64 = AtomicU64::new(0);
        let compiled_sample = match program.constant_target {
            Some(_) => (0u32..)
                .zip(&data[..leaves.len()])
                .map(|(k, d)| (k, d.to_bits()))
                .collect(),
            None => Vec::new(),
        };
        Ok(Tape {
            compiled_sample,
            id: TAPES.fetch_add(1, Ordering::Relaxed),
            buf: Buffers::new(&program, data, data_finite),
            leaf_index: leaves
                .iter()
                .zip(0u32..)
                .map(|(v, i)| (v.address(), i))
                .collect(),
            fed: vec![false; leaves.len()],
            leaves,
            program,
            leaves_read_at: crate::watch::data_writes(),
            alone_elsewhere: false,
            alone: Default::default(),
            alone_gone: false,
            marks_seen,
            labels_seen,
            forward_unfinished: false,
            fed_unrun: false,
            backward_unfinished: false,
            unflushed: false,
            workers: Default::default(),
            plan: Default::default(),
        })
    }
}

//! [`Tape::check`]: is this tape still the graph the program builds?
//!
//! Compiling records the graph's shape and its constants as they were. A constant the
//! program computed from `.data()` while building (the largest logit, a sign), or a
//! branch it took on one, is frozen: on other data the tape keeps computing the old
//! graph, correctly, but it is not the graph the program would build now. Only building
//! it again can tell, as PyTorch's `torch.jit.trace(check_inputs=...)` does.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use super::Tape;
use crate::address::AddressMap;
use crate::engine::Value;
use crate::error::Error;

impl Tape {
    /// Builds the graph again with `build`, on the leaf data the tape holds now, and
    /// compares it with the tape node by node (shape, labels, values and gradients, bit
    /// for bit): `Ok(())` if they are the same graph with the same numbers. (An inner
    /// node that needs no gradient, made of values marked [`no_grad`](Value::no_grad)
    /// alone, has none in the graph: its gradient is not compared.)
    ///
    /// `build` must make the expression the tape was compiled from, out of the same
    /// leaf `Value`s. While it runs, those leaves hold the tape's numbers (the samples
    /// [`set_inputs`](Tape::set_inputs) wrote included); afterwards their data and grads
    /// are as before. The tape runs forward and backward first (the sums of
    /// [`accumulate`](Tape::accumulate) not yet flushed are kept).
    ///
    /// # Errors
    ///
    /// [`Error::TapeMismatch`] naming the first node (parents before children) where the
    /// two differ: its op, its label, and what differs. [`Error::NonFinite`] if the
    /// tape's forward or backward pass fails; `build`'s own error if it fails.
    ///
    /// # Panics
    ///
    /// If `build`, or a closure of a [`Value::custom`] op, panics, the panic goes on to
    /// the caller after the leaves' data and grads, and the tape's sums not yet
    /// flushed, are put back as they were.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(2.0);
    /// // A branch on the data while building: the tape keeps the branch it saw.
    /// let build = || -> Result<Value, Error> {
    ///     Ok(if x.data() > 0.0 { &x * 3.0 } else { &x * -3.0 })
    /// };
    /// let mut tape = Tape::compile(&build()?)?;
    /// assert!(tape.check(build).is_ok());
    /// x.set_data(-1.0);
    /// assert_eq!(tape.forward()?, -3.0);             // still 3x: the branch is frozen
    /// let err = tape.check(build).unwrap_err();
    /// assert!(matches!(err, Error::TapeMismatch { .. }));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn check(&mut self, build: impl FnOnce() -> Result<Value, Error>) -> Result<(), Error> {
        // The tape's numbers: a forward, and one backward pass alone (the leaves'
        // entries of `grad` are put back, also if a custom op's gradient closure
        // panics: they may hold sums not yet flushed).
        self.run_forward()?;
        let first = self.leaves.len();
        let (sums, sums_finite) = (self.buf.grad[..first].to_vec(), self.buf.grads_finite);
        self.buf.grad[..first].fill(0.0);
        self.buf.grads_finite = true;
        // (Every node's gradient, not only the leaves': `compare` looks at them all.)
        self.notice_no_grad();
        let ran = catch_unwind(AssertUnwindSafe(|| {
            self.program.backward_keeping(&mut self.buf, || None)
        }));
        let tape_grads = self.buf.grad.clone();
        self.buf.grad[..first].copy_from_slice(&sums);
        self.buf.grads_finite = sums_finite;
        ran.unwrap_or_else(|panic| resume_unwind(panic))?;

        // The graph built again on the tape's leaf data, differentiated from zero. The
        // leaves get their own numbers back however `build` ends, a panic too.
        let saved: Vec<(f64, f64)> = self.leaves.iter().map(|l| (l.data(), l.grad())).collect();
        for (leaf, &x) in self.leaves.iter().zip(&self.buf.data) {
            leaf.set_data(x);
            leaf.zero_grad();
        }
        let compared = catch_unwind(AssertUnwindSafe(|| {
            build().and_then(|built| {
                built.zero_grad_graph();
                built.backward();
                let rebuilt = self.program.rebuild(&self.buf.data, None);
                self.compare(&built, &rebuilt, &tape_grads)
            })
        }));
        for (leaf, (x, g)) in self.leaves.iter().zip(saved) {
            leaf.set_data(x);
            leaf.set_grad(g);
        }
        compared.unwrap_or_else(|panic| resume_unwind(panic))
    }

    /// Walks the graph `built` and the tape (as `rebuilt`, its nodes by tape index) in
    /// the same order and returns the first difference.
    fn compare(&self, built: &Value, rebuilt: &[Value], grads: &[f64]) -> Result<(), Error> {
        let Some(root) = rebuilt.last() else {
            return Ok(());
        };
        root.backward();
        // The tape's own numbers for its nodes; fused nodes have only the rebuilt ones.
        let tape_node: AddressMap<usize> = rebuilt
            .iter()
            .enumerate()
            .map(|(k, v)| (v.address(), k))
            .collect();
        let number = |v: &Value| match tape_node.get(&v.address()) {
            Some(&k) => (self.buf.data[k], grads[k]),
            None => (v.data(), v.grad()),
        };
        let (ours, theirs) = (root.topo(), built.topo());
        let position = |order: &[Value]| -> AddressMap<usize> {
            order
                .iter()
                .enumerate()
                .map(|(i, v)| (v.address(), i))
                .collect()
        };
        let (our_pos, their_pos) = (position(&ours), position(&theirs));
        let parents = |v: &Value, pos: &AddressMap<usize>| -> Vec<usize> {
            v.parents().iter().map(|p| pos[&p.address()]).collect()
        };
        let mismatch = |g: &Value, detail: String| Error::TapeMismatch {
            op: g.op(),
            label: g.label(),
            detail,
        };
        // Shapes and values parents first: the first difference is where it starts.
        for (i, (t, g)) in ours.iter().zip(&theirs).enumerate() {
            if (t.op(), t.label()) != (g.op(), g.label())
                || parents(t, &our_pos) != parents(g, &their_pos)
            {
                return Err(mismatch(
                    g,
                    format!(
                        "node {i} (parents first) is `{}`{} of other operands on the tape",
                        t.op(),
                        t.label()
                            .map_or_else(String::new, |l| format!(" (label {l:?})"))
                    ),
                ));
            }
            let (value, v) = (number(t).0, g.data());
            if value.to_bits() != v.to_bits() {
                return Err(mismatch(
                    g,
                    format!("its value is {value:?} on the tape but {v:?} in the graph"),
                ));
            }
        }
        // Gradients from the root down, the way they flow. (Not an inner node's that
        // needs none: the graph runs no rule there and writes it no gradient.)
        let compared = |g: &&Value| g.requires_grad() || g.op().is_empty();
        for (t, g) in ours.iter().zip(&theirs).rev().filter(|(_, g)| compared(g)) {
            let (grad, d) = (number(t).1, g.grad());
            if grad.to_bits() != d.to_bits() {
                return Err(mismatch(
                    g,
                    format!("its gradient is {grad:?} on the tape but {d:?} in the graph"),
                ));
            }
        }
        if ours.len() != theirs.len() {
            return Err(Error::TapeMismatch {
                op: built.op(),
                label: built.label(),
                detail: format!(
                    "the graph has {} nodes, the tape {}",
                    theirs.len(),
                    ours.len()
                ),
            });
        }
        Ok(())
    }
}

//! The backward pass of a [`Tape`]: run the program's chain rule, then hand the
//! leaves' gradients back to their `Value`s.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};

use super::Tape;
use crate::engine::Value;
use crate::error::Error;
use crate::watch::{grad_marks, label_writes};

/// The bits of -0.0.
const NEGATIVE_ZERO: u64 = 1 << 63;

impl Tape {
    /// Computes d root / d node for every node of the tape, then **adds** each leaf's
    /// gradient into that leaf's [`Value`] grad.
    ///
    /// Python's `self.grad = 1; for v in reversed(topo): v._backward()`: the root's
    /// gradient is set to 1, and each inner node, last to first, adds `local * out.grad`
    /// to its parents' gradients, with the local derivatives of the dynamic graph. The
    /// tape's own gradients start from 0 on every call; only the leaf `Value`s
    /// accumulate, exactly as after [`Value::backward`](crate::Value::backward), so an
    /// optimiser that reads `p.grad()` and writes `p.set_data(..)` works unchanged and
    /// the parameters' grads must be zeroed between steps (`zero_grad`) as usual (a grad
    /// that starts at -0.0 ends with the graph's bits too, through a slower path). The
    /// gradient of this pass alone is [`grad_of`](Tape::grad_of).
    ///
    /// It differentiates the values of the last [`forward`](Tape::forward) (or those of
    /// the graph at [`compile`](Tape::compile) time). Nothing is allocated. A leaf that
    /// needs no gradient ([`Value::no_grad`](crate::Value::no_grad), also when marked
    /// after compiling) keeps its grad, as in the dynamic graph, and its
    /// [`grad_of`](Tape::grad_of) is 0.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`]: with pass `Forward` if the last forward left a NaN or
    /// infinity (nothing is computed); with pass `Backward` naming the op and label of
    /// the first node (root first) whose rule left a non-finite gradient on a parent. On
    /// either error no leaf `Value`'s grad is touched. After a forward error nothing
    /// else is either ([`grad_of`](Tape::grad_of) and [`leaf_grads`](Tape::leaf_grads)
    /// still give the last pass that succeeded); after a backward error both give 0.
    ///
    /// [`Error::InvalidInput`] if the last [`forward`](Tape::forward) did not finish (a
    /// custom op's closure panicked; run `forward` again first), if
    /// [`set_inputs`](Tape::set_inputs) wrote a sample no forward has run yet, if a leaf
    /// is a parameter that a live [`Training`](super::Training) of another tape holds, or if
    /// [`accumulate`](Tape::accumulate) summed gradients that
    /// [`flush_grads`](Tape::flush_grads) has not handed over yet (this pass would
    /// overwrite them); the sums are kept.
    ///
    /// # Panics
    ///
    /// If the gradient closure of a [`Value::custom`](crate::Value::custom) op panics,
    /// the panic goes on to the caller, and no leaf `Value`'s grad is touched. The
    /// tape's own gradients were half computed: [`leaf_grads`](Tape::leaf_grads) gives 0
    /// (as after a backward error) and [`grad_of`](Tape::grad_of) returns an error,
    /// until a backward finishes (or [`accumulate`](Tape::accumulate) starts new sums).
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
        if self.forward_unfinished {
            return Err(Error::InvalidInput(
                "tape.backward() after a tape.forward() that did not finish (a custom op's \
                 closure panicked): the tape holds values of two different runs; call \
                 tape.forward() again, on data the op accepts, before tape.backward()"
                    .to_owned(),
            ));
        }
        if self.fed_unrun {
            return Err(Error::InvalidInput(
                "tape.backward() after tape.set_inputs(): the sample it wrote is for \
                 tape.accumulate(), which runs it; backward() would differentiate the last \
                 run's values with the new sample's inputs. Call tape.accumulate() (then \
                 tape.flush_grads()), or tape.forward() to run the input Values' data"
                    .to_owned(),
            ));
        }
        // (Its copy of a parameter that another tape's live Training holds is from
        // before the training, as `forward` refuses too.)
        self.check_not_held()?;
        // Values the last forward found not finite are refused before anything is
        // touched: the leaves' entries still hold the last pass (`grad_of`, `leaf_grads`).
        self.notice_labels();
        if !self.buf.data_finite {
            return Err(self.program.value_error(&self.buf.data));
        }
        self.notice_no_grad();
        // The dynamic graph adds each contribution into a leaf's grad in turn,
        // `(G + c1) + c2`, which is not always `G + (c1 + c2)`: start from the grads.
        let first = self.leaves.len();
        let mut negative_zero = false;
        for (g, leaf) in self.buf.grad[..first].iter_mut().zip(&self.leaves) {
            *g = leaf.grad();
            negative_zero |= g.to_bits() == NEGATIVE_ZERO;
        }
        // (A leaf the graph gives no gradient gets none from the pass: its entry is 0.)
        for &i in &self.program.frozen {
            self.buf.grad[i as usize] = 0.0;
        }
        let from_zero = self.buf.grad[..first].iter().all(|g| g.to_bits() == 0);
        // (Any number may have been there: the pass looks at every leaf's.)
        self.buf.grads_finite = false;
        // (A custom op's gradient closure may panic: then the leaves' entries are half
        // written, so they are set to 0 and `grad_of` refuses until a backward finishes.)
        self.backward_unfinished = true;
        let ran = catch_unwind(AssertUnwindSafe(|| {
            self.run_backward(true)?;
            if negative_zero {
                self.zeros_as_the_graph_adds_them();
            }
            Ok(())
        }));
        let ran = ran.unwrap_or_else(|panic| {
            self.buf.grad[..first].fill(0.0);
            self.buf.grads_finite = true;
            self.alone_elsewhere = false;
            self.alone.get_mut().clear();
            resume_unwind(panic)
        });
        self.backward_unfinished = false;
        if let Err(err) = ran {
            // The leaves' entries are 0 now, and so is this pass's `grad_of`.
            self.alone_elsewhere = false;
            self.alone_gone = false;
            self.alone.get_mut().clear();
            return Err(err);
        }
        // (A leaf the graph gives no gradient keeps its own: the stretches between the
        // frozen leaves, which are in order, are handed theirs.)
        let mut start = 0;
        for end in self
            .program
            .frozen
            .iter()
            .map(|&i| i as usize)
            .chain([first])
        {
            let stretch = self.leaves[start..end]
                .iter()
                .zip(&self.buf.grad[start..end]);
            for (leaf, &g) in stretch {
                leaf.set_grad(g);
            }
            start = end + 1;
        }
        // `grad_of` wants this pass alone: the leaves' entries are it only if they
        // started from 0; else `grad_of` runs the pass again from 0 if it is asked.
        self.alone_elsewhere = !from_zero;
        self.alone_gone = false;
        self.alone.get_mut().clear();
        Ok(())
    }

    /// After a pass from leaf grads some of which were -0.0: the sign of a zero that
    /// such a leaf ends with, as the dynamic graph gives it.
    ///
    /// The graph adds every contribution in turn, zeros too (an off ReLU's `0 * w`),
    /// and `-0.0 + 0.0` is `0.0` while `-0.0 + -0.0` is `-0.0`; the tape skips
    /// contributions it knows are 0, and the sign of a zero may differ where it fuses
    /// nodes. Neither changes a sum that is not -0.0 (only `-0.0 + -0.0` is -0.0, and
    /// a zero changes no other number), nor a sum from +0.0: so only a leaf that
    /// started at -0.0 and ends at a zero is in doubt, and for those the graph built
    /// again decides (slow, and only then).
    fn zeros_as_the_graph_adds_them(&mut self) {
        let first = self.leaves.len();
        let frozen = &self.program.frozen;
        let doubtful = |i: &usize| {
            self.buf.grad[*i] == 0.0
                && self.leaves[*i].grad().to_bits() == NEGATIVE_ZERO
                && frozen.binary_search(&(*i as u32)).is_err()
        };
        let doubtful: Vec<usize> = (0..first).filter(doubtful).collect();
        if doubtful.is_empty() {
            return;
        }
        let nodes = self.program.rebuild(&self.buf.data, None);
        for (node, leaf) in nodes.iter().zip(&self.leaves) {
            node.set_grad(leaf.grad());
        }
        if let Some(root) = nodes.last() {
            root.backward();
        }
        for i in doubtful {
            self.buf.grad[i] = nodes[i].grad();
        }
    }

    /// Freezes the leaves marked [`no_grad`](Value::no_grad) since the tape last looked
    /// (one compare with the thread's count of marks, unless there were some): as in
    /// the dynamic graph, a backward pass then adds nothing to them.
    pub(super) fn notice_no_grad(&mut self) {
        let marks = grad_marks();
        if marks == self.marks_seen {
            return;
        }
        self.marks_seen = marks;
        let frozen = &self.program.frozen;
        let late: Vec<u32> = (0u32..)
            .zip(&self.leaves)
            .filter(|&(i, leaf)| !leaf.requires_grad() && frozen.binary_search(&i).is_err())
            .map(|(i, _)| i)
            .collect();
        // (The workers' records of the deferred layers are made again if one is no more.)
        if !late.is_empty() && self.program.freeze(&late) {
            self.workers = Default::default();
        }
    }

    /// Reads the leaves' labels again if a shared value was labelled since the tape last
    /// did (one compare with the thread's count, unless one was): the errors name a leaf
    /// as the graph would, also by a label given after compiling.
    pub(super) fn notice_labels(&mut self) {
        let labels = label_writes();
        if labels == self.labels_seen {
            return;
        }
        self.labels_seen = labels;
        self.program
            .relabel_leaves(self.leaves.iter().map(Value::label));
    }

    /// The gradient of the last [`backward`](Tape::backward) alone for leaf `i` (see
    /// [`grad_of`](Tape::grad_of)).
    pub(super) fn pass_alone(&self, i: usize) -> f64 {
        if !self.alone_elsewhere {
            return self.buf.grad[i];
        }
        let mut alone = self.alone.borrow_mut();
        if alone.is_empty() {
            alone.resize(self.buf.grad.len(), 0.0);
            let mut scratch = vec![0.0; self.buf.scratch.len()];
            self.program
                .sweep(&self.buf.data, &mut alone, &mut scratch, None, &mut true);
        }
        alone[i]
    }

    /// The chain rule over the tape: adds this run's d root / d leaf to the leaves'
    /// entries of the gradients (which it does not reset), recomputing the inner
    /// nodes' from 0. `from_grads` says that the leaves' entries started from their
    /// `Value`s' grads (for the error: the dynamic graph checks the sums it makes).
    ///
    /// After a non-finite gradient the leaves' entries are set to 0; the error of an
    /// earlier forward leaves them as they are.
    pub(super) fn run_backward(&mut self, from_grads: bool) -> Result<(), Error> {
        // (The labels are read by each caller's forward, or by `backward` itself.)
        self.notice_no_grad();
        let leaves = &self.leaves;
        let start = || from_grads.then(|| leaves.iter().map(Value::grad).collect());
        self.program.backward(&mut self.buf, start)
    }
}

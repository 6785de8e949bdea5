//! The [`Tape`] itself: a program, its buffers and its leaves; what can be read from it.

use std::cell::RefCell;
use std::fmt;

use super::parallel::Workers;
use super::step::StepPlan;
use crate::address::AddressMap;
use crate::engine::Value;
use crate::error::Error;
use crate::program::{Buffers, Program};

/// A graph of [`Value`]s compiled once into flat arrays, then run many times on one
/// thread.
///
/// A tape is three things: the compiled [`Program`] (the instructions: `Send + Sync`,
/// see [`program`](crate::program) for its layout), one set of buffers to run it (each
/// node's value and gradient), and the leaf `Value`s at the edge: node `i <
/// leaves().len()` is `leaves()[i]`, whose data the tape reads in before a run and whose
/// gradients it hands back after one. Only this edge holds `Rc`s, so only the tape
/// itself stays on its thread; its batch methods run the program on several threads
/// (see `docs/tape.md`, "Threads").
///
/// See the [module docs](crate::tape) for how to use it.
pub struct Tape {
    /// A number no other tape of this process has (so [`Inputs`](super::Inputs) know
    /// their tape).
    pub(super) id: u64,
    /// The instructions.
    pub(super) program: Program,
    /// The numbers of the tape's own runs.
    pub(super) buf: Buffers,
    /// The leaves, as handles: node `i < leaves.len()` is `leaves[i]`.
    pub(super) leaves: Vec<Value>,
    /// A leaf's node address → its index, for [`grad_of`](Tape::grad_of).
    pub(super) leaf_index: AddressMap<u32>,
    /// The count of data writes on this thread ([`data_writes`](crate::watch::data_writes))
    /// when the tape last read its leaves' data: a run that sees another count reads
    /// them again, so that no change made through a `Value` is missed.
    pub(super) leaves_read_at: u64,
    /// For each leaf, whether [`set_inputs`](Tape::set_inputs) wrote it since the last
    /// [`read_leaves`](Tape::read_leaves): such a leaf takes the sample's number, not its
    /// `Value`'s data, until then.
    pub(super) fed: Vec<bool>,
    /// Whether the leaves' entries of `grad` hold more than the last
    /// [`backward`](Tape::backward) alone (it started from the leaves' grads, which
    /// were not all 0), so that [`grad_of`](Tape::grad_of) must look in `alone`.
    pub(super) alone_elsewhere: bool,
    /// The gradients of the last `backward` alone, when `alone_elsewhere`: computed by
    /// the first `grad_of` that asks (empty until then).
    pub(super) alone: RefCell<Vec<f64>>,
    /// Whether the values of the last `backward` changed before `alone` was computed
    /// from them: [`grad_of`](Tape::grad_of) can no longer give that pass alone, and
    /// says so rather than compute it from other values.
    pub(super) alone_gone: bool,
    /// [`grad_marks`](crate::watch::grad_marks) when the tape last looked for leaves
    /// marked [`no_grad`](Value::no_grad) since it was compiled.
    pub(super) marks_seen: u64,
    /// [`label_writes`](crate::watch::label_writes) when the tape last read its leaves'
    /// labels into the program (for its errors).
    pub(super) labels_seen: u64,
    /// Whether a forward pass started and did not return (a custom op's closure
    /// panicked): the values are then partly of that run and partly of the one before,
    /// and [`backward`](Tape::backward) refuses them until a forward finishes.
    pub(super) forward_unfinished: bool,
    /// Whether [`set_inputs`](Tape::set_inputs) wrote a sample that no run has used yet
    /// (it is for [`accumulate`](Tape::accumulate)): the leaves are then that sample's
    /// and the values the last run's, and [`backward`](Tape::backward) refuses them
    /// until a run.
    pub(super) fed_unrun: bool,
    /// If a loss of the graph took its target as a number: every leaf with the bits it
    /// had when the tape was compiled. Another number in a leaf that gets no gradient
    /// (an input, also one marked `no_grad` after compiling) is another sample, and
    /// refused ([`Error::ConstantTarget`]).
    pub(super) compiled_sample: Vec<(u32, u64)>,
    /// Whether a backward pass started and did not return (a custom op's gradient
    /// closure panicked): the leaves' entries of `grad` were set to 0, and
    /// [`grad_of`](Tape::grad_of) refuses them until a backward finishes.
    pub(super) backward_unfinished: bool,
    /// Whether the leaves' entries of `grad` are sums of [`Tape::accumulate`] runs not
    /// yet handed to the `Value`s (rather than the gradient of the last `backward`).
    pub(super) unflushed: bool,
    /// The workers of the batch methods (`parallel.rs`): none until the first batch.
    pub(super) workers: Workers,
    /// Which leaf each parameter of the last optimiser stepped by
    /// [`flush_and_step`](Tape::flush_and_step) is (`step.rs`): empty until then.
    pub(super) plan: StepPlan,
}

impl Tape {
    /// The root's value from the last [`forward`](Tape::forward) (right after
    /// [`compile`](Tape::compile), the root's `data()` at that time).
    ///
    /// NaN after a forward pass that did not finish (a custom op's closure panicked),
    /// until one does: the tape then holds values of two runs, and the root's is of
    /// neither.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(3.0);
    /// let mut tape = Tape::compile(&(&x * &x))?;
    /// assert_eq!(tape.value(), 9.0);
    /// x.set_data(4.0);
    /// assert_eq!(tape.value(), 9.0);     // not recomputed yet
    /// assert_eq!(tape.forward()?, 16.0);
    /// assert_eq!(tape.value(), 16.0);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn value(&self) -> f64 {
        match self.forward_unfinished {
            true => f64::NAN,
            false => self.buf.data[self.program.root()],
        }
    }

    /// The values of the outputs named at
    /// [`compile_with_outputs`](Tape::compile_with_outputs), in that order, from the last
    /// forward (or from the graph, before one). All NaN after a forward pass that did
    /// not finish (a custom op's closure panicked), until one does, as
    /// [`value`](Tape::value).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(3.0);
    /// let y = &x * &x;
    /// let tape = Tape::compile_with_outputs(&(&y + 1.0), &[y.clone(), x.clone()])?;
    /// assert_eq!(tape.outputs().collect::<Vec<_>>(), [9.0, 3.0]);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn outputs(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        let unfinished = self.forward_unfinished;
        self.program.outputs.iter().map(move |&k| match unfinished {
            true => f64::NAN,
            false => self.buf.data[k as usize],
        })
    }

    /// d root / d `leaf` from the last [`backward`](Tape::backward) of this tape alone
    /// (unlike `leaf.grad()`, which adds up every backward pass since the last
    /// `zero_grad`); 0 before the first backward, and after a backward that failed on a
    /// non-finite gradient (as [`leaf_grads`](Tape::leaf_grads)). After
    /// [`accumulate`](Tape::accumulate) it is the sum over the runs since the last
    /// [`flush_grads`](Tape::flush_grads) (or [`flush_and_step`](Tape::flush_and_step),
    /// which hands them over too; one after a `backward` and no batch hands over nothing
    /// and leaves that backward's gradient here).
    ///
    /// When that backward started from leaf grads that were all 0 (after `zero_grad`,
    /// as in a training step), the tape holds its gradient and `grad_of` reads it at any
    /// time. Otherwise the leaves' entries hold the sums handed to the `Value`s, and the
    /// first `grad_of` runs the pass again from 0 on the values of that backward
    /// (keeping the result): ask before the tape's values change.
    ///
    /// # Errors
    ///
    /// [`Error::NotOnTape`] if `leaf` is not one of [`leaves`](Tape::leaves): a value of
    /// another graph, or an inner node (the tape keeps no handles to those).
    ///
    /// [`Error::InvalidInput`] if the last backward did not finish (a custom op's
    /// gradient closure panicked; run `backward` again), or if it started from leaf
    /// grads that were not all 0 and the tape's values changed since (a [`forward`](Tape::forward),
    /// [`set_inputs`](Tape::set_inputs), a step) before any `grad_of` asked: that
    /// pass's own gradient was never computed, and its values are gone. Ask before the
    /// next forward, or run `backward` again.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(3.0);
    /// let y = &x * &x;
    /// let mut tape = Tape::compile(&y)?;
    /// tape.backward()?;
    /// assert_eq!(tape.grad_of(&x)?, 6.0);
    /// assert!(matches!(tape.grad_of(&y), Err(Error::NotOnTape { .. })));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn grad_of(&self, leaf: &Value) -> Result<f64, Error> {
        let Some(&i) = self.leaf_index.get(&leaf.address()) else {
            return Err(Error::NotOnTape {
                label: leaf.label(),
            });
        };
        if self.backward_unfinished {
            return Err(Error::InvalidInput(format!(
                "tape.grad_of({}) after a tape.backward() that did not finish (a custom \
                 op's gradient closure panicked): its gradient was never computed; run \
                 tape.backward() again, on data the op accepts",
                leaf_name(leaf)
            )));
        }
        if self.alone_gone {
            let name = leaf_name(leaf);
            return Err(Error::InvalidInput(format!(
                "tape.grad_of({name}) after the tape's values changed (forward, set_inputs, \
                 a step): the last backward started from leaf grads that were not all 0, so \
                 its own gradient was not kept, and the values it came from are gone; call \
                 grad_of before the next forward, or run backward again (after zero_grad, \
                 grad_of needs no values)"
            )));
        }
        Ok(self.pass_alone(i as usize))
    }

    /// Notes that the tape's values are about to change (a forward pass, new leaf data):
    /// the last backward's pass alone, if not computed yet, can no longer be.
    pub(super) fn values_change(&mut self) {
        if self.alone_elsewhere && self.alone.get_mut().is_empty() {
            self.alone_gone = true;
        }
    }

    /// The tape's gradients of its leaves, aligned with [`leaves`](Tape::leaves)
    /// (`leaf_grads()[i]` belongs to `leaves()[i]`), as plain numbers: after
    /// [`accumulate`](Tape::accumulate) or
    /// [`accumulate_batch`](Tape::accumulate_batch), the sums since the last
    /// [`flush_grads`](Tape::flush_grads); after [`backward`](Tape::backward), what it
    /// set the leaves' grads to (0 after a backward that failed, or whose custom op's
    /// gradient closure panicked: [`grad_of`](Tape::grad_of) then says so). For handing gradients on without going through the
    /// `Value`s (to another thread, or into [`Value::add_grad`] of other handles).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let (w, x) = (Value::new(3.0), Value::new(2.0));
    /// let mut tape = Tape::compile(&(&w * &x))?;
    /// tape.accumulate()?;
    /// tape.accumulate()?;
    /// let grads: Vec<(f64, f64)> = tape.leaves().iter().map(Value::data).zip(tape.leaf_grads().iter().copied()).collect();
    /// assert!(grads.contains(&(3.0, 4.0)));   // w: d (w x) / dw = x = 2, twice
    /// assert!(grads.contains(&(2.0, 6.0)));   // x: w = 3, twice
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn leaf_grads(&self) -> &[f64] {
        &self.buf.grad[..self.leaves.len()]
    }

    /// The leaves of the graph (its inputs, parameters and constants), each once, in the
    /// order the tape stores them: handles to the same nodes as the user's values.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * &x + 1.0))?;   // leaves: x and the constant 1
    /// assert_eq!(tape.leaves().len(), 2);
    /// assert!(tape.leaves().iter().any(|l| Value::ptr_eq(l, &x)));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn leaves(&self) -> &[Value] {
        &self.leaves
    }

    /// How many nodes the tape holds, leaves included (each shared node once). Products
    /// fused into the `sum` that uses them (see [`Tape`]) are not nodes of the tape.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let y = &x * &x;                       // nodes: x, y
    /// assert_eq!(Tape::compile(&(&y + &y))?.node_count(), 3);
    /// let (w, b) = (Value::new(0.5), Value::new(1.0));
    /// let z: Value = [b, &w * &x].into_iter().sum(); // w * x is fused into the sum
    /// assert_eq!(Tape::compile(&z)?.node_count(), 4); // w, x, b, sum
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn node_count(&self) -> usize {
        self.program.node_count()
    }

    /// The compiled instructions, which any thread may run (`Program: Send + Sync`);
    /// the tape adds the buffers of one run and its leaf `Value`s.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * &x))?;
    /// assert_eq!(tape.program().leaf_count(), tape.leaves().len());
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn program(&self) -> &Program {
        &self.program
    }
}

/// How an error names a leaf: `the leaf "w"`, or `a leaf` if it has no label.
pub(super) fn leaf_name(leaf: &Value) -> String {
    leaf.label()
        .map_or_else(|| "a leaf".to_owned(), |l| format!("the leaf {l:?}"))
}

impl fmt::Debug for Tape {
    /// A summary: `Tape { nodes: 5, leaves: 2, value: 9.0 }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tape")
            .field("nodes", &self.node_count())
            .field("leaves", &self.leaves.len())
            .field("value", &self.value())
            .finish()
    }
}

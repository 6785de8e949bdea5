//! The one crate-internal hook between the engine and the layers above it: per-thread
//! counts of the writes to values that a compiled [`Tape`](crate::tape::Tape) must
//! notice, and the numbers a live [`Training`](crate::tape::Training) holds for values
//! whose nodes it has not written yet.
//!
//! A tape holds a copy of its leaves' data, which of them need a gradient, and their
//! labels. The engine bumps a count here when one of those changes
//! ([`Value::set_data`](crate::Value::set_data), an optimiser's update,
//! [`Value::no_grad`](crate::Value::no_grad) and
//! [`Value::set_label`](crate::Value::set_label) on a value held elsewhere); the tape
//! compares the count with the one it saw when it last read them, so no user call is
//! needed to tell it. The engine calls the `count_` functions and reads nothing; it
//! knows nothing of tapes. (`Value` is not `Send`, so a tape and its leaves live on one
//! thread.)
//!
//! The other way round, a `Training` steps its parameters on the tape's own numbers and
//! writes their nodes only when it ends. So that [`Value::data`](crate::Value::data)
//! (and `{:?}`) of such a parameter gives the newer number, the tape keeps the count of
//! live trainings on this thread here ([`set_trainings`]), and `data()` looks at it:
//! one thread-local read while it is 0, the only cost when no training is live. When it
//! is not, `data()` asks for the node's number ([`data_read`]), which the tape answers
//! from its registry of held parameters (the one that also stops another tape reading
//! them). Every read of a value's data in the engine is `data()` (an op's forward value,
//! its backward rule), so a graph built from such a parameter computes with the
//! training's number as well; the neuron node and the `f64`-operand node of `src/fast/`
//! look at the count once per node instead of once per read, which keeps the dynamic
//! graph's speed.
use std::cell::Cell;

thread_local! {
    /// Writes of a value's data on this thread so far.
    static DATA_WRITES: Cell<u64> = const { Cell::new(0) };
    /// Leaves held elsewhere (by a tape, a model, an optimiser) marked `no_grad` on this
    /// thread so far: a tape that keeps which parameters need a gradient
    /// (`Tape::flush_and_step`) looks again when it changes.
    static GRAD_MARKS: Cell<u64> = const { Cell::new(0) };
    /// Values held elsewhere labelled on this thread so far: a tape, which names its
    /// leaves in its errors, reads their labels again when it changes.
    static LABEL_WRITES: Cell<u64> = const { Cell::new(0) };
    /// Trainings on this thread that hold numbers their parameters' nodes do not have
    /// yet (kept equal to the length of the tape's registry of them).
    static TRAININGS: Cell<usize> = const { Cell::new(0) };
    /// Where [`data_read`] asks: the function the tape registered with
    /// [`set_trainings`] (the engine never names the tape).
    static LOOKUP: Cell<Lookup> = const { Cell::new(stored_only) };
}

/// `(node, its own data) -> the number to read`: how the tape answers [`data_read`].
pub(crate) type Lookup = fn(*const (), f64) -> f64;

/// The lookup before any training: the node's own data.
fn stored_only(_node: *const (), stored: f64) -> f64 {
    stored
}

/// Adds one to `counter`.
#[inline]
fn bump(counter: &'static std::thread::LocalKey<Cell<u64>>) {
    counter.with(|n| n.set(n.get().wrapping_add(1)));
}

/// The number of data writes on this thread so far.
#[inline]
pub(crate) fn data_writes() -> u64 {
    DATA_WRITES.with(Cell::get)
}

/// Counts one more data write (after a pass of writes that are not counted one by one,
/// one for them all: what a tape looks at is whether the count changed).
#[inline]
pub(crate) fn count_data_write() {
    bump(&DATA_WRITES);
}

/// The number of `no_grad` marks on shared leaves on this thread so far.
#[inline]
pub(crate) fn grad_marks() -> u64 {
    GRAD_MARKS.with(Cell::get)
}

/// Counts one more `no_grad` mark on a leaf held elsewhere.
#[inline]
pub(crate) fn count_grad_mark() {
    bump(&GRAD_MARKS);
}

/// The number of labels given to shared values on this thread so far.
#[inline]
pub(crate) fn label_writes() -> u64 {
    LABEL_WRITES.with(Cell::get)
}

/// Counts one more label given to a value held elsewhere.
#[inline]
pub(crate) fn count_label_write() {
    bump(&LABEL_WRITES);
}

/// Whether a training on this thread holds numbers newer than its parameters' nodes:
/// [`Value::data`](crate::Value::data) looks here first, and asks [`data_read`] only
/// if so.
#[inline]
pub(crate) fn trainings_live() -> bool {
    TRAININGS.with(Cell::get) != 0
}

/// Sets how many trainings on this thread hold numbers newer than their parameters'
/// nodes, and the function that finds a node's number among them (the tape calls it
/// whenever its registry of them changes).
pub(crate) fn set_trainings(live: usize, lookup: Lookup) {
    TRAININGS.with(|n| n.set(live));
    LOOKUP.with(|l| l.set(lookup));
}

/// What [`Value::data`](crate::Value::data) reads for the node at `node`, whose own
/// data is `stored`, given whether a training is live on this thread (`live`, from
/// [`trainings_live`], looked at once for many reads where it is passed as a
/// constant): the number a live training holds for the node, what the node will hold
/// when the training ends; `stored` itself if no training is live or holds the node,
/// or while the training's step changes its numbers.
#[inline]
pub(crate) fn data_read(live: bool, node: *const (), stored: f64) -> f64 {
    match live {
        true => LOOKUP.with(Cell::get)(node, stored),
        false => stored,
    }
}

//! [`Tape::threads_for`]: how many threads pay for a batch.
//!
//! Sharing a batch costs about the same on any tape (a fork and join of the threads,
//! each worker's copy of the leaves, the chunk sums added up), so a second thread pays
//! only when the batch's arithmetic is well above it: on a small model (iris, the
//! moons, 8x8 digits) two threads are slower than one.

use super::{Tape, CHUNK};

/// The work of a batch (see `Program::work`: a unit per node and per term of a sum, for
/// every sample) that each thread must have for one more thread to pay. Measured on a
/// 2-core machine: the 8x8 digits' batch of 32 (about 80 thousand units) ran slower on
/// two threads than on one, MNIST's (about 820 thousand) faster (`docs/benchmarks.md`,
/// "Threads by default").
pub const WORK_PER_THREAD: usize = 250_000;

impl Tape {
    /// How many threads to run a batch of `batch` samples on, from the work: one per
    /// [`WORK_PER_THREAD`] units of it (a unit per node and per term of a sum of the
    /// tape, for every sample), at least 1, and at most the machine's cores and the
    /// batch's chunks of [`CHUNK`] samples. The numbers are the same bit for bit on any
    /// number of threads; only the time changes.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let (w, x) = (Value::new(3.0), Value::new(0.0));
    /// let tape = Tape::compile(&(&w * &x).powi(2))?;
    /// assert_eq!(tape.threads_for(32), 1);            // a tiny graph: one thread
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn threads_for(&self, batch: usize) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        let most = cores.min(batch.div_ceil(CHUNK)).max(1);
        (self.program.work().saturating_mul(batch) / WORK_PER_THREAD).clamp(1, most)
    }
}

//! A compiled tape: the fast path for a graph that is run many times.
//!
//! The [`Value`](crate::Value) graph is built anew by every expression, which is what
//! makes it easy to learn from and to change. Training repeats the *same* graph
//! thousands of times; a [`Tape`] compiles it once into flat arrays in topological
//! order (op codes, parent indices, values, gradients; no `Rc`, no allocation per node
//! or per run) and then runs [`forward`](Tape::forward) and
//! [`backward`](Tape::backward) over it as plain loops.
//!
//! The leaves (inputs, parameters, constants) stay `Value`s: set an input with
//! [`Value::set_data`](crate::Value::set_data), run `forward`, run `backward`, and read
//! the gradients with [`Value::grad`](crate::Value::grad) as after
//! [`Value::backward`](crate::Value::backward). Only the data of leaves may change
//! between runs; to change the expression, compile a new tape.
//!
//! Compiled or not, the numbers are the same bit for bit (values, gradients, and the
//! errors of a NaN or infinity). What a tape cannot know is a number the program read
//! with `.data()` while building: it is frozen into the tape.
//! [`Tape::check`] builds the graph again and says where it differs.
//! `docs/tape.md` (in the repository and the published crate) has the rules and when to use which engine.
//!
//! | file | what it holds |
//! |------|---------------|
//! | `layout.rs` | the [`Tape`]: its program, buffers and leaves; reading results |
//! | `compile.rs` | [`Tape::compile`] (the compiling itself is [`program`](crate::program)'s) |
//! | `forward.rs` | [`Tape::forward`]: read the leaves, run the program |
//! | `backward.rs` | [`Tape::backward`]: run the program, hand the gradients back |
//! | `check.rs` | [`Tape::check`]: the tape against the graph built again |
//! | `batch.rs` | mini-batches: [`Tape::accumulate`] and what it uses, [`Inputs`] |
//! | `parallel.rs` | mini-batches on several threads: [`Tape::accumulate_batch`], its fixed order of sums |
//! | `step.rs` | the optimiser's step on the tape's numbers: [`Tape::flush_and_step`] |
//! | `thread_count.rs` | how many threads pay for a batch: [`Tape::threads_for`] |
//! | `training.rs` | many such steps, the parameters' `Value`s written at the end: [`Training`] |
//!
//! The instructions, their layout, the forward and backward loops and the layers are
//! in [`program`](crate::program), which any thread may run.
//!
//! ```
//! use micrograd::{tape::Tape, Value};
//! // a neuron, tanh(w·x + b), fitted to y = 0.5 at x = 1 and x = 2
//! let (w, b) = (Value::new(0.1), Value::new(0.0));
//! let (x, y) = (Value::new(0.0), Value::new(0.0));
//! let loss = ((&w * &x + &b).tanh() - &y).powf(2.0);
//! let mut tape = Tape::compile(&loss)?;
//! for _ in 0..100 {
//!     for (xi, yi) in [(1.0, 0.5), (2.0, 0.5)] {
//!         x.set_data(xi);
//!         y.set_data(yi);
//!         tape.forward()?;
//!         tape.backward()?;              // adds into w.grad() and b.grad()
//!     }
//!     for p in [&w, &b] {
//!         p.set_data(p.data() - 0.1 * p.grad());
//!         p.zero_grad();
//!     }
//! }
//! x.set_data(1.0);
//! assert!(tape.forward()? < 1e-3);
//! # Ok::<(), micrograd::Error>(())
//! ```

mod backward;
mod batch;
mod check;
mod compile;
mod forward;
mod layout;
mod parallel;
mod step;
mod thread_count;
mod training;

pub use batch::Inputs;
pub use layout::Tape;
pub use parallel::CHUNK;
pub use thread_count::WORK_PER_THREAD;
pub use training::Training;
pub(crate) use training::{check_not_training, trained_data};

/// Runs the example of `docs/tape.md` as a doctest, so the guide stays correct.
#[cfg(doctest)]
#[doc = include_str!("../../docs/tape.md")]
struct TapeGuide;

//! The limits the benches measure micrograd against: the networks of the benches
//! trained by hand, on plain `f64` arrays with the derivatives written out, and nothing
//! else: no graph, no tape, no allocation per step.
//!
//! Each step keeps micrograd's arithmetic, so that the limit is honest: every sum is
//! added in micrograd's order (a neuron's bias first, then input 0, 1, ...; a gradient's
//! contributions in the order `Value::backward` makes them), and the tests below check
//! that the loss and the gradients equal the tape's and the dynamic graph's **bit for
//! bit**. What the hand-written steps do differently is only what a compiler of the
//! same arithmetic could also do: they advance the sums of a layer side by side over
//! weights stored input by input (so that the independent additions of the neurons
//! overlap and vectorise), and they compute no gradient that nobody reads (the inputs').
//!
//! | module | network | used by |
//! |--------|---------|---------|
//! | [`moons`] | micrograd's demo: MLP 2-16-16-1, SVM hinge loss + 1e-4 L2, 100 points | `moons_step.rs` |
//! | [`mnist`] | MLP 784-32-10, softmax cross-entropy, summed over a batch | `mnist_step.rs` |
//!
//! [`interleaved`](interleaved()) times a micrograd step and its limit in turn, for the
//! ratio of the two on a machine whose speed moves.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod interleaved;
pub mod mnist;
pub mod moons;

pub use interleaved::{interleaved, Interleaved};

//! # micrograd, in Rust
//!
//! Scalar reverse-mode autograd with a small neural-network library on top: Andrej
//! Karpathy's [micrograd](https://github.com/karpathy/micrograd), line for line, with
//! graphs of any size (no recursion anywhere) and no garbage collector.
//!
//! ## 1. Values remember how they were made
//!
//! ```
//! use micrograd::Value;
//! let a = Value::new(2.0).with_label("a");
//! let b = Value::new(-3.0).with_label("b");
//! let c = &a * &b + 10.0;          // `&` keeps `a` and `b` usable, like Python names
//! assert_eq!(c.data(), 4.0);
//! assert_eq!(c.op(), "+");
//! ```
//!
//! ## 2. `backward()` fills in every gradient
//!
//! ```
//! # use micrograd::Value;
//! let a = Value::new(2.0);
//! let b = Value::new(-3.0);
//! let c = (&a * &b + 10.0).relu();  // relu(4) = 4
//! c.backward();
//! assert_eq!(a.grad(), -3.0);       // dc/da = b
//! assert_eq!(b.grad(), 2.0);        // dc/db = a
//! ```
//!
//! ## 3. Gradients accumulate, as in Python
//!
//! ```
//! # use micrograd::Value;
//! let w = Value::new(0.5);
//! for _ in 0..2 {
//!     let loss = &w * 3.0;          // a new graph each time, as in training
//!     loss.backward();
//! }
//! assert_eq!(w.grad(), 6.0);        // 3 + 3: reset with `w.zero_grad()`
//! w.zero_grad();
//! assert_eq!(w.grad(), 0.0);
//! ```
//!
//! ## 4. Bad numbers are found, not spread
//!
//! ```
//! # use micrograd::Value;
//! let x = Value::new(0.0).with_label("x");
//! let y = (1.0 / &x).with_label("y");     // inf
//! let err = y.try_backward().unwrap_err();
//! assert!(err.to_string().contains("op `/`"), "{err}");
//! ```
//!
//! ## 5. Graphs of any depth
//!
//! ```
//! # use micrograd::Value;
//! let x = Value::new(1.0);
//! let mut y = x.clone();
//! for _ in 0..100_000 {
//!     y = &y * 1.0;                 // Python's recursive backward dies at ~1000
//! }
//! y.backward();
//! assert_eq!(x.grad(), 1.0);
//! drop(y);                          // freed without recursion too
//! ```
//!
//! ## 6. A neural net learns
//!
//! ```
//! use micrograd::prelude::*;
//! use micrograd::{loss, random::PythonRandom};
//! // Python: random.seed(1337); model = MLP(3, [4, 4, 1])
//! let model = MLP::new(3, &[4, 4, 1], &mut PythonRandom::seed(1337));
//! let xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]];
//! let ys = [1.0, -1.0, -1.0, 1.0];
//! let mut opt = Adam::new(model.parameters(), 0.05)?;
//! let mut losses = Vec::new();
//! for _ in 0..50 {
//!     let preds: Vec<Value> = xs
//!         .iter()
//!         .map(|x| Ok(model.forward_f64(x)?.remove(0)))
//!         .collect::<Result<_, Error>>()?;
//!     let loss = loss::mse(&preds, &ys)?;    // mean of (pred - y)²
//!     losses.push(loss.data());
//!     opt.zero_grad();
//!     loss.backward();
//!     opt.step()?;
//! }
//! assert!(losses[49] < losses[0] / 10.0, "{losses:?}");
//! # Ok::<(), micrograd::Error>(())
//! ```
//!
//! | module | Python | what |
//! |--------|--------|------|
//! | [`engine`] | `engine.py` | [`Value`] and its ops |
//! | [`nn`] | `nn.py` | [`Module`](nn::Module), [`MLP`](nn::MLP) |
//! | [`loss`] | `demo.ipynb`'s `loss()` | hinge, MSE, cross-entropy, L2, accuracy |
//! | [`optim`] | `p.data -= lr * p.grad` | SGD, Adam, AdamW, schedules |
//! | [`data`] | `make_moons` | CSV, MNIST, synthetic data, batches |
//! | [`codegen`] | — | C that trains a compiled [`tape`] with no Rust, no allocator |
//! | [`random`] | `random.seed`, `random.uniform` | Python's generator, bit for bit |
//! | [`metrics`] | — | confusion matrix, accuracy, MSE, MAE (scikit-learn's) |
//!
//! `docs/python-to-rust.md` (in the repository and the published crate) maps every line of `engine.py`, `nn.py` and the demo notebook to its Rust counterpart.
//!
//! ## Features
//!
//! `flate2`, `rand_mt` and `parallel` are on by default; without them (`default-features = false`)
//! the crate needs only `rand` (with no features of its own) and `thiserror`.
//!
//! | feature | what it adds |
//! |---------|--------------|
//! | `layout` (off by default) | drawing graphs as SVG without Graphviz installed (pure-Rust `layout-rs`) |
//! | `serde` (off by default) | `Serialize`/`Deserialize` for the saved forms of models and optimisers |
//! | `flate2` | reading gzip-compressed data files (`.csv.gz`, MNIST's `.gz`); without it such a file is an [`Error::Parse`] that says so |
//! | `rand_mt` | `random::PythonRandom`: CPython's generator, for Python micrograd's exact weights |
//! | `parallel` | [`Tape::accumulate_batch`](tape::Tape::accumulate_batch) and [`Tape::evaluate_batch`](tape::Tape::evaluate_batch) run a batch's samples on several threads (`rayon`); without it on the calling thread, with the same numbers bit for bit |

#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod address;
pub mod codegen;
pub mod data;
pub mod engine;
mod error;
mod fast;
mod files;
pub mod loss;
mod mark;
pub mod metrics;
pub mod nn;
mod ops;
pub mod optim;
pub mod program;
pub mod random;
mod repr;
mod rules;
pub mod tape;
mod threads;
pub mod view;
mod watch;

pub use engine::Value;
pub use error::{Error, Pass};
/// The `rand` this crate is built with: its [`Rng`](rand::Rng) is what
/// [`MLP::new`](nn::MLP::new) and [`Dataset::shuffle`](data::Dataset::shuffle) take, so a
/// generator from `micrograd::rand` always fits (one from another major version of `rand`
/// does not). Built without default features: [`SmallRng`](rand::rngs::SmallRng) is
/// there; for `StdRng` depend on `rand` 0.10 yourself, and Cargo shares one copy.
pub use rand;

/// Everything a typical program needs: `use micrograd::prelude::*;`.
///
/// ```
/// use micrograd::prelude::*;
/// let x = Value::new(3.0);
/// let y: Value = [&x, &x].into_iter().sum();
/// y.backward();
/// assert_eq!(x.grad(), 2.0);
/// ```
pub mod prelude {
    pub use crate::engine::Value;
    pub use crate::error::{Error, Pass};
    pub use crate::nn::{Activation, Module, MLP};
    pub use crate::optim::{Adam, Optimizer, Sgd};
}

/// The README's quick start, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// `docs/python-to-rust.md`: its Rust snippets, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../docs/python-to-rust.md")]
pub struct PythonToRustDoctests;

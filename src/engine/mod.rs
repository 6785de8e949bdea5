//! The autograd engine: micrograd's `engine.py`.
//!
//! A [`Value`] wraps a scalar and remembers how it was computed. Arithmetic on values
//! builds a graph on the fly; [`Value::backward`] walks it in reverse and fills in every
//! node's gradient by the chain rule.
//!
//! A learner who knows `engine.py` reads the core in this order: [`Value`] and its
//! `Node` (`value.rs`); `+` and `*` (`arithmetic.rs`, with the shape every op's rule
//! shares in `ops.rs`); `**` (`powers.rs`); `relu` and `tanh` (`activations.rs`); `exp`
//! (`functions.rs`); [`Value::backward`] (`backward.rs`); and freeing a graph without
//! recursion (`drop.rs`). The rest are further ops and tools:
//!
//! | file | what it holds | Python |
//! |------|---------------|--------|
//! | `value.rs` | `Value`, `Node`, constructors and accessors | `class Value`, `__init__`, `__repr__` |
//! | `op.rs` | the kind of op that made a node, as a one-byte code (`Op`), and a neuron node's activation (`Act`) | `_op` |
//! | `parents.rs` | a node's parents: inline for up to two, a list, or a compact form of `src/fast/` | `_prev` |
//! | `arithmetic.rs` | `+ - * /`, negation: each op's method (`out`, then its backward closure), then its rule (forward value, local derivatives, C, text) and the type that names it | `__add__`, `__mul__`, `__neg__`, ... |
//! | `activations.rs` | `relu`, `tanh`, each with its rule | `relu()`, the lecture's `tanh()` |
//! | `functions.rs` | `exp` with its rule | the lecture's `exp()` |
//! | `powers.rs` | `powf` with its rule | `__pow__` |
//! | `ops.rs` | what the ops' methods share (making the node, its parents in the closure, the closure's type, the op's name); `Sum`, `Product` | `Value(data, children, op)` |
//! | `rules.rs` | what a rule is: an op's numbers, C and text | |
//! | `operators.rs` | `+ - * /` for `Value` and `&Value` (with an `f64`: `src/fast/constant.rs`) | `__radd__`, `__sub__`, `__truediv__`, ... |
//! | `neuron.rs` | the lists a neuron node shares (the node is made in `src/fast/`) | `Neuron.__call__` |
//! | `custom.rs` | [`Value::custom`]: your own op from two closures | a method with its own `_backward` |
//! | `backward.rs` | `backward()` (`build_topo`, then each rule in reverse), `topo()`, one node's `backward_step()`, anomaly detection | `backward()`, `build_topo`, `_backward()` |
//! | `gradcheck.rs` | [`check_gradients`]: backward against finite differences | the lecture's `lol()` |
//! | `drop.rs` | freeing a graph without recursion | the garbage collector |
//!
//! Pictures of a graph (Graphviz DOT, SVG, the backward-pass stepper) are in
//! [`crate::view`]; nothing here depends on them.
//!
//! # Adding an op
//!
//! Every op is written as `tanh` is: its method (`out`, then its backward closure), its
//! rule, and a type that names it. The ops beyond micrograd's and the lecture's (`ln`,
//! `sqrt`, `atan`, `max`, ...) are written so on top of the engine, in `src/ops/`, one
//! file of each kind; its `mod.rs` shows how to add one.
//!
//! ```
//! use micrograd::Value;
//! // micrograd's test_sanity_check
//! let x = Value::new(-4.0);
//! let z = 2.0 * &x + 2.0 + &x;
//! let q = z.relu() + &z * &x;
//! let h = (&z * &z).relu();
//! let y = &h + &q + &q * &x;
//! y.backward();
//! assert_eq!(format!("{y:?}"), "Value(data=-20.0, grad=1.0)");
//! assert_eq!(x.grad(), 46.0);
//! ```

pub(crate) mod activations;
pub(crate) mod arithmetic;
mod backward;
pub(crate) mod custom;
mod drop;
pub(crate) mod functions;
mod gradcheck;
pub(crate) mod neuron;
pub(crate) mod op;
mod operators;
pub(crate) mod ops;
pub(crate) mod parents;
pub(crate) mod powers;
pub(crate) mod rules;
pub(crate) mod value;

pub use gradcheck::{check_gradients, GradientCheck, LeafCheck};
pub use value::Value;

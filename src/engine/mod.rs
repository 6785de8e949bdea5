//! The autograd engine: micrograd's `engine.py`.
//!
//! A [`Value`] wraps a scalar and remembers how it was computed. Arithmetic on values
//! builds a graph on the fly; [`Value::backward`] walks it in reverse and fills in every
//! node's gradient by the chain rule.
//!
//! # The learner's path
//!
//! A learner who knows `engine.py` reads these files, in this order:
//!
//! | file | what it holds | Python |
//! |------|---------------|--------|
//! | `value.rs` | [`Value`] and its `Node`: data, grad, parents, and the closure, which names the op; `Value::new`, `data()`, `grad()` | `class Value`, `__init__` |
//! | `ops.rs` | what every op's method shares: the closure's type, making the node, finding its parents in the closure | `Value(data, children, op)`, `self`, `other` |
//! | `arithmetic.rs` | `+` and `*`: each op's method, `out` and then its backward closure, which calls the op's rule (`src/rules/`) | `__add__`, `__mul__` |
//! | `powers.rs` | `powf` | `__pow__` |
//! | `activations.rs` | `relu`, `tanh` | `relu()`, the lecture's `tanh()` |
//! | `functions.rs` | `exp` | the lecture's `exp()` |
//! | `backward.rs` | [`Value::backward`]: `build_topo` with a stack of its own, then each closure in reverse | `backward()`, `build_topo` |
//! | `drop.rs` | freeing a graph without recursion | the garbage collector |
//!
//! # The rest of the engine
//!
//! | file | what it holds | Python |
//! |------|---------------|--------|
//! | `rules.rs` | how a node's closure carries its op's rule (`Tagged`), and the op's constants | |
//! | `walk.rs` | the hooks (`Walk`) by which `topo()` and `try_backward` read the graph their way over `backward.rs`'s `build_topo` | |
//! | `operators.rs` | `+ *` for `Value` and `&Value`, `Value::from(f64)` (`- /` and negation: `src/ops/composed.rs`; with an `f64`: `src/fast/constant.rs`) | `__radd__`, `__rmul__`, ... |
//! | `parents.rs` | a node's parents: inline for up to two, a list, or an `f64` operand kept in the node (`src/fast/constant.rs`) | `_prev` |
//! | `inspect.rs` | reading a node: `op()`, `parents()`, `id()`, `ptr_eq`; what a reader asks of a node's closure (`Reader`: the hook for the floors above, which the drop also calls) | `v._op`, `v._prev`, `id(v)`, `a is b` |
//! | `write.rs` | `add_grad`, `set_data`, `set_grad`, `zero_grad` | `self.grad += ...`, `p.data = ...`, `p.grad = 0` |
//! | `label.rs` | labels, in `Extra`: what few nodes have (a label, an op's two constants) | the lecture's `e.label = 'e'` |
//! | `no_grad.rs` | values that need no gradient | PyTorch's `requires_grad=False` |
//! | `topo.rs` | `topo()`, one node's `backward_step()`, `zero_grad_graph()` | the lecture's backpropagation by hand |
//! | `anomaly.rs` | [`Value::try_backward`]: NaN and infinities reported | |
//! | `custom.rs` | [`Value::custom`]: your own op from two closures | a method with its own `_backward` |
//! | `gradcheck.rs` | [`check_gradients`]: backward against finite differences | the lecture's `lol()` |
//!
//! How a value prints (`__repr__`) is in `src/repr.rs`; pictures of a graph (Graphviz
//! DOT, SVG, the backward-pass stepper) are in [`crate::view`]; nothing here depends on
//! them.
//!
//! # Adding an op
//!
//! Every op is written as `tanh` is: its method (`out`, then its backward closure), its
//! rule (forward value, local derivative, C and text), and a type that names it. Here
//! the rules are in `src/rules/`, below the engine, which reads them. The ops beyond
//! micrograd's and the lecture's (`ln`, `sqrt`, `atan`, `max`, ...) are written so on
//! top of the engine, in `src/ops/`, each with its rule in the one file of its family;
//! its `mod.rs` shows how to add one.
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
mod anomaly;
pub(crate) mod arithmetic;
mod backward;
pub(crate) mod custom;
mod drop;
pub(crate) mod functions;
mod gradcheck;
pub(crate) mod inspect;
pub(crate) mod label;
mod no_grad;
pub(crate) mod operators;
pub(crate) mod ops;
pub(crate) mod parents;
pub(crate) mod powers;
pub(crate) mod rules;
mod topo;
pub(crate) mod value;
mod walk;
mod write;

pub use gradcheck::{check_gradients, GradientCheck, LeafCheck};
pub use value::Value;

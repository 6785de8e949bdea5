//! The autograd engine: micrograd's `engine.py`.
//!
//! A [`Value`] wraps a scalar and remembers how it was computed. Arithmetic on values
//! builds a graph on the fly; [`Value::backward`] walks it in reverse and fills in every
//! node's gradient by the chain rule.
//!
//! | file | what it holds | Python |
//! |------|---------------|--------|
//! | `value.rs` | `Value`, `Node`, constructors and accessors | `class Value`, `__init__`, `__repr__` |
//! | `ops.rs` | every op as a method, with its backward rule | `__add__`, `__mul__`, `__pow__`, `relu` |
//! | `rules.rs` | every op's arithmetic: forward value, local derivatives | the numbers inside those methods |
//! | `operators.rs` | `+ - * /` for `Value`, `&Value`, `f64` | `__radd__`, `__sub__`, `__truediv__`, ... |
//! | `custom.rs` | [`Value::custom`]: your own op from two closures | a method with its own `_backward` |
//! | `backward.rs` | `backward()`, one node's `backward_step()`, anomaly detection | `backward()`, `_backward()` |
//! | `gradcheck.rs` | [`check_gradients`]: backward against finite differences | the lecture's `lol()` |
//! | `drop.rs` | freeing a graph without recursion | the garbage collector |
//! | `walk.rs`, `address.rs` | `topo()`; visiting every node once; sets and maps keyed by node address | `build_topo` and its `visited` set |
//!
//! Pictures of a graph (Graphviz DOT, SVG, the backward-pass stepper) are in
//! [`crate::view`]; nothing here depends on them.
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

pub(crate) mod address;
mod backward;
pub(crate) mod custom;
mod drop;
mod gradcheck;
pub(crate) mod op;
mod operators;
mod ops;
pub(crate) mod repr;
pub(crate) mod rules;
pub(crate) mod value;
pub(crate) mod walk;

pub use gradcheck::{check_gradients, GradientCheck, LeafCheck};
pub(crate) use value::data_writes;
pub use value::Value;

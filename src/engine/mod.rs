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
//! | `parents.rs` | a node's parents: inline for up to two, a list, or a compact form of `src/fast/` | `_prev` |
//! | `arithmetic.rs` | `+ - * /`, negation: each op's method (`out`, then its backward closure), then its rule (forward value, local derivatives, C, text) | `__add__`, `__mul__`, `__neg__`, ... |
//! | `activations.rs` | `relu`, `leaky_relu`, `tanh`, `sigmoid`, `softplus`, each with its rule | `relu()`, the lecture's `tanh()` |
//! | `functions.rs` | `exp`, `ln`, `log1p`, `sqrt`, `sin`, `cos`, `atan`, each with its rule | the lecture's `exp()` |
//! | `powers.rs` | `powf`, `powi`, `pow`, each with its rule | `__pow__` |
//! | `piecewise.rs` | `abs`, `clamp`, `max`, `min`, each with its rule | |
//! | `ops.rs` | what the ops' methods share (making the node, its parents in the closure); `Sum`, `Product` | `Value(data, children, op)` |
//! | `rules.rs` | what a rule is (numbers, C, text); the table from op code to rule, shared with the tape, the C and the stepper | |
//! | `operators.rs` | `+ - * /` for `Value` and `&Value` (with an `f64`: `src/fast/constant.rs`) | `__radd__`, `__sub__`, `__truediv__`, ... |
//! | `constant.rs` | a node that keeps an `f64` operand (made in `src/fast/`), shown as Python's leaf | `Value(other)` in `__mul__` |
//! | `neuron.rs` | the lists a neuron node shares (the node is made in `src/fast/`), shown as Python's `[b, w0, x0, ...]` | `Neuron.__call__` |
//! | `custom.rs` | [`Value::custom`]: your own op from two closures | a method with its own `_backward` |
//! | `backward.rs` | `backward()` (`build_topo`, then each rule in reverse), one node's `backward_step()`, anomaly detection | `backward()`, `_backward()` |
//! | `gradcheck.rs` | [`check_gradients`]: backward against finite differences | the lecture's `lol()` |
//! | `drop.rs` | freeing a graph without recursion | the garbage collector |
//! | `walk.rs`, `address.rs` | `topo()`; visiting every node once; sets and maps keyed by node address | `build_topo` and its `visited` set |
//!
//! Pictures of a graph (Graphviz DOT, SVG, the backward-pass stepper) are in
//! [`crate::view`]; nothing here depends on them.
//!
//! # Adding an op
//!
//! An op is written once, in the file of its kind: `atan` (in `functions.rs`) is the
//! method, which computes `out` and right under it the backward closure, and under the
//! method its rule, with everything the rest of the crate reads (its `_op` name, the
//! tape's numbers, the C, the stepper's lines). Then the op gets its code: its line in
//! the table of `rules.rs` (`Atan => super::functions::ATAN,`), which adds the variant
//! `Op::Atan`. The tape, the code generator, the pictures and the rebuilt graphs need
//! nothing more.
//!
//! ```rust,ignore
//! pub fn atan(&self) -> Value {
//!     let out = (ATAN.forward)(self.data(), NO_CONSTS);
//!     let backward = |out: &Node| {
//!         let x = out.x();
//!         let dx = (ATAN.local_grad)(x.data(), out.data, NO_CONSTS);
//!         x.add_grad(dx * out.grad);
//!     };
//!     self.unary(out, Op::Atan, NO_CONSTS, Box::new(backward))
//! }
//!
//! pub(crate) const ATAN: Rule1 = Rule1 {
//!     name: "atan",
//!     method: |x, _| x.atan(),
//!     forward: |x, _| x.atan(),
//!     local_grad: |x, _out, _| 1.0 / (1.0 + x * x),
//!     c_forward: |w, a, _| w.call("atan", a),
//!     c_local_grad: |w, a, _out, _| format!("({one} / ({one} + {a} * {a}))", one = w.num(1.0)),
//!     text: RuleText {
//!         source: NotInMicrograd,
//!         python: &["self.grad += 1 / (1 + self.data**2) * out.grad"],
//!         rust: &["local_grad: |x, _out, _| 1.0 / (1.0 + x * x),", UNARY],
//!     },
//! };
//! ```
//!
//! Its tests: the derivative against central finite differences (`check_gradients`,
//! `tests/13_more_ops.rs`), the tape against the graph bit for bit (the same file), and
//! the C against the tape bit for bit (`tests/32_codegen.rs`'s list of every op).
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

mod activations;
pub(crate) mod address;
mod arithmetic;
mod backward;
mod constant;
pub(crate) mod custom;
mod drop;
mod functions;
mod gradcheck;
pub(crate) mod neuron;
pub(crate) mod op;
mod operators;
mod ops;
pub(crate) mod parents;
mod piecewise;
mod powers;
pub(crate) mod repr;
pub(crate) mod rules;
pub(crate) mod value;
pub(crate) mod walk;

pub use gradcheck::{check_gradients, GradientCheck, LeafCheck};
pub use value::Value;

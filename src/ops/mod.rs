//! The further ops, beyond micrograd's and the lecture's: `sigmoid`, `leaky_relu`, `softplus`,
//! `ln`, `log1p`, `sqrt`, `sin`, `cos`, `atan`, `powi`, `pow`, `abs`, `clamp`, `max`,
//! `min`. They are methods of [`Value`](crate::Value) like `+` and `tanh`, written the
//! same way, on top of the engine. Here too: `sum()` of values as one n-ary node.
//!
//! | file | ops |
//! |------|-----|
//! | `composed.rs` | `-`, `/`, negation (Python composes them from `+`, `*`, `**`) |
//! | `activations.rs` | `sigmoid`, `leaky_relu`, `softplus` |
//! | `functions.rs` | `ln`, `log1p`, `sqrt`, `sin`, `cos`, `atan` |
//! | `powers.rs` | `powi`, `pow` (a `Value` exponent) |
//! | `piecewise.rs` | `abs`, `clamp`, `max`, `min` |
//! | `sum.rs` | `Sum` (one n-ary node), `Product` |
//!
//! # Adding an op
//!
//! An op is written once, in one file: `atan` (in `functions.rs`) is its method, which
//! computes `out` and right under it the backward closure, as Python's `_backward`;
//! then its rule, with everything the rest of the crate reads (its `_op` name, the
//! tape's numbers, the C, the stepper's lines); then a type that names the op. The
//! closure carries the rule with it (`unary::<Atan>`), so the tape, the code
//! generator, the pictures and the rebuilt graphs find the op through its node and need
//! nothing more.
//!
//! ```rust,ignore
//! impl Value {
//!     pub fn atan(&self) -> Value {
//!         let out = (ATAN.forward)(self.data(), NO_CONSTS);
//!         let backward = |out: &Node| {
//!             let x = out.x();
//!             let dx = (ATAN.local_grad)(x.data(), out.data, NO_CONSTS);
//!             x.add_grad(dx * out.grad);
//!         };
//!         self.unary::<Atan>(out, NO_CONSTS, backward)
//!     }
//! }
//!
//! pub(crate) const ATAN: Rule1 = Rule1 {
//!     name: "atan",
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
//!
//! struct Atan;
//!
//! impl Named for Atan {
//!     const RULE: Rule = Rule::One(&ATAN);
//! }
//! ```
//!
//! If its C calls a libm function that is not exactly rounded and not yet kept a call by
//! `codegen::C_FLAGS` (`-fno-builtin-atan`, ...), add it there too (`src/codegen/mod.rs`),
//! or GCC may work out a call on a constant with its own rounding; generating the op's
//! C in a debug build (as `cargo test` does) stops with that advice.
//!
//! Its tests: the derivative against central finite differences (`check_gradients`,
//! `tests/13_more_ops.rs`), the tape against the graph bit for bit (the same file), and
//! the C against the tape bit for bit (`tests/32_generated_c_matches_the_tape.rs`'s list
//! of every op).
//!
//! The engine's own ops (`+ *`, `powf`, `relu`, `tanh`, `exp`) are written the same way,
//! their methods in `src/engine/` and their rules, which the engine reads, in
//! `src/rules/`. The tape knows them, `-`, `/`, negation and `sigmoid` by a one-byte code
//! of its own (`src/program/code.rs`), so that its inner loops call their rules directly.

pub(crate) mod activations;
pub(crate) mod composed;
mod functions;
mod piecewise;
mod powers;
mod sum;

pub(crate) use sum::is_sum;

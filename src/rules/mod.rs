//! Each op's rule, written once: its forward value and local derivative side by side,
//! the C the code generator writes for it, and the text of its backward rule. Every
//! floor reads an op from its rule: the engine's backward closures, the tape, the code
//! generator and the stepper. (The floors above add to [`Rule`] what they read of it:
//! the tape its numbers, `src/program/rule.rs` and `src/program/code.rs`; the code
//! generator its C, `src/codegen/ops.rs`; the stepper its text, `src/view/rule_text.rs`.)
//!
//! | file | the rules of | their methods |
//! |------|--------------|---------------|
//! | `arithmetic.rs` | `+`, `*` | `src/engine/arithmetic.rs` |
//! | `powers.rs` | `powf` (micrograd's `**`) | `src/engine/powers.rs` |
//! | `activations.rs` | `relu`, `tanh` | `src/engine/activations.rs` |
//! | `functions.rs` | `exp` | `src/engine/functions.rs` |
//! | `forms.rs` | the types of a rule's C and text | |
//!
//! The further ops (`-`, `/`, `ln`, `atan`, `max`, ...) keep their rules beside their
//! methods, in `src/ops/`. That is the shape of `Value::custom` too: a forward function
//! and the local derivatives d out / d parent.

pub(crate) mod activations;
pub(crate) mod arithmetic;
pub(crate) mod forms;
pub(crate) mod functions;
pub(crate) mod powers;

use forms::{CWriter, RuleText};

/// The constants of an op (`leaky_relu`'s slope, `powf`'s exponent, `clamp`'s bounds);
/// `[0.0, 0.0]` for the ops without any.
pub(crate) type Consts = [f64; 2];

/// The constants of the ops that have none.
pub(crate) const NO_CONSTS: Consts = [0.0, 0.0];

/// Whether `c` is [`NO_CONSTS`], bit for bit (a `-0.0` is a constant).
pub(crate) fn no_consts(c: Consts) -> bool {
    c.map(f64::to_bits) == [0, 0]
}

/// The rule of a one-parent op `out = f(x)`: its numbers, its C, and its text.
pub(crate) struct Rule1 {
    /// The op as Python's `_op` string (`"tanh"`, `"+"`), as `Value::op` shows it.
    pub(crate) name: &'static str,
    /// `out` from `x` and the op's constants.
    pub(crate) forward: fn(f64, Consts) -> f64,
    /// d out / d x from `x`, `out` and the op's constants.
    pub(crate) local_grad: fn(f64, f64, Consts) -> f64,
    /// The C expression of `forward` from the operand's C `a` and the constants.
    pub(crate) c_forward: fn(&mut dyn CWriter, &str, Consts) -> String,
    /// The C expression of `local_grad` from the C of `a` and `out`, and the constants.
    pub(crate) c_local_grad: fn(&mut dyn CWriter, &str, &str, Consts) -> String,
    /// The backward rule as micrograd's Python and this crate's Rust lines.
    pub(crate) text: RuleText,
}

/// The rule of a two-parent op `out = f(a, b)`: its numbers, its C, and its text.
pub(crate) struct Rule2 {
    /// The op as Python's `_op` string (`"tanh"`, `"+"`), as `Value::op` shows it.
    pub(crate) name: &'static str,
    /// `out` from `a` and `b`.
    pub(crate) forward: fn(f64, f64) -> f64,
    /// `(d out / d a, d out / d b)` from `a`, `b` and `out`.
    pub(crate) local_grads: fn(f64, f64, f64) -> (f64, f64),
    /// The C expression of `forward` from the operands' C `a` and `b`.
    pub(crate) c_forward: fn(&mut dyn CWriter, &str, &str) -> String,
    /// The C expressions of `local_grads` from the C of `a`, `b` and `out`.
    pub(crate) c_local_grads: fn(&mut dyn CWriter, &str, &str, &str) -> (String, String),
    /// The backward rule as micrograd's Python and this crate's Rust lines.
    pub(crate) text: RuleText,
}

/// The rule of a one- or two-parent op, wherever the op is defined: what the tape's
/// rebuilt graph, the C and the pictures read.
#[derive(Clone, Copy)]
pub(crate) enum Rule {
    /// A one-parent op's rule.
    One(&'static Rule1),
    /// A two-parent op's rule.
    Two(&'static Rule2),
}

impl Rule {
    /// The op as Python's `_op` string.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Rule::One(r) => r.name,
            Rule::Two(r) => r.name,
        }
    }
}

/// Two rules are the same op's when their names are (every op has its own).
impl PartialEq for Rule {
    fn eq(&self, other: &Rule) -> bool {
        self.name() == other.name()
    }
}

impl Eq for Rule {}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Rule({:?})", self.name())
    }
}

/// An op, named by a type of its own (`struct Tanh;`) so that its node's closure can
/// carry its rule without storing it.
pub(crate) trait Named {
    /// The op's rule.
    const RULE: Rule;
}

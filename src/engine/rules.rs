//! What every op's rule looks like (its numbers, its C, its text), and the table that
//! finds an op's rule from its code.
//!
//! Each op is written once, in the file of its method (`arithmetic.rs`,
//! `activations.rs`, ...): the method computes `out` and, right under it, writes the
//! closure that is its `_backward`, as micrograd's `engine.py` does; right under the
//! method, its rule holds the op's numbers: its forward value and its local derivative
//! side by side, which the method and its closure call. For `tanh`:
//!
//! ```rust,ignore
//! pub fn tanh(&self) -> Value {
//!     let out = (TANH.forward)(self.data(), NO_CONSTS);
//!     let backward = |out: &Node| {
//!         let x = out.x();
//!         let dx = (TANH.local_grad)(x.data(), out.data, NO_CONSTS);
//!         x.add_grad(dx * out.grad);
//!     };
//!     self.unary(out, Op::Tanh, NO_CONSTS, Box::new(backward))
//! }
//!
//! pub(crate) const TANH: Rule1 = Rule1 {
//!     method: |x, _| x.tanh(),
//!     forward: |x, _| x.tanh(),
//!     local_grad: |_x, out, _| 1.0 - out * out,
//!     // ...
//! };
//! ```
//!
//! The same rule also holds the op's C (`c_forward`, `c_local_grad`: what the code
//! generator writes, with the same operations in the same order) and the text of its
//! backward rule (micrograd's Python lines and the Rust lines above, which the
//! backward-pass stepper shows). So an op is written in one place, and the dynamic
//! graph, the tape, the C and the pictures all read it from there.
//!
//! That is the shape of [`Value::custom`](crate::Value::custom) too: a forward function
//! and the local derivatives d out / d parent. The tape (`program/backward.rs`) reaches
//! the rule of one of the engine's ops through [`Op::forward`] and [`Op::local_grads`],
//! a `match` on the op code whose arms call the rules' functions directly (the compiler
//! inlines them: no indirect call per node), so the two engines compute the same
//! floating-point numbers; a graph rebuilt from op codes makes each node with the op's
//! `method` ([`Op::apply1`], [`Op::apply2`]). The ops of `src/ops/` have no code: their
//! closures carry their rules ([`Rule`]), which the tape calls through their pointers.
//!
//! The floors above add to [`Rule`] what they read of it: the tape its numbers
//! (`src/program/rule.rs`), the code generator its C (`src/codegen/ops.rs`), the stepper
//! its text (`src/view/rule_text.rs`).

use super::op::Act;
use super::value::Value;

/// The constants of an op (`leaky_relu`'s slope, `powf`'s exponent, `clamp`'s bounds);
/// `[0.0, 0.0]` for the ops without any.
pub(crate) type Consts = [f64; 2];

/// The constants of the ops that have none.
pub(crate) const NO_CONSTS: Consts = [0.0, 0.0];

/// The rule of a one-parent op `out = f(x)`: its numbers, its C, and its text.
pub(crate) struct Rule1 {
    /// The op as Python's `_op` string (`"tanh"`, `"+"`), as [`Value::op`] shows it.
    pub(crate) name: &'static str,
    /// The op's method (`|x, _| x.tanh()`): a node with the parent `x` and the constants.
    pub(crate) method: fn(&Value, Consts) -> Value,
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
    /// The op as Python's `_op` string (`"tanh"`, `"+"`), as [`Value::op`] shows it.
    pub(crate) name: &'static str,
    /// The op's method (`|a, b| a.pow(b)`): a node with the parents `a` and `b`.
    pub(crate) method: fn(&Value, &Value) -> Value,
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

/// What an op's C is written with: numbers and math calls of the C's precision
/// (implemented by the code generator, which writes `double` or `float` C).
pub(crate) trait CWriter {
    /// `x` as a C constant that reads back exactly (`0.5`, `(-1.0)`, `0.5f`).
    fn num(&self, x: f64) -> String;
    /// The math.h function `name` of the precision applied to `args`: `exp(a)`, `expf(a)`.
    fn call(&self, name: &str, args: &str) -> String;
    /// `call`, which uses the small C function `function`: noted, so that its definition
    /// is written into the source.
    fn c_function(&mut self, function: CFunction, call: String) -> String;
}

/// The small C functions that some ops' C calls, each the C of a Rust function here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CFunction {
    /// `sigmoid`, `softplus`'s derivative (`activations.rs`: `logistic`).
    Logistic,
    /// `powi` (Rust's `f64::powi`).
    Powi,
    /// `abs`'s derivative (`src/ops/piecewise.rs`: `sign`).
    Sign,
}

/// Where the Python lines of a rule come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PythonSource {
    /// micrograd's `engine.py` has the op.
    Engine,
    /// The Zero-to-Hero lecture's `Value` has it (`tanh`, `exp`).
    Lecture,
    /// micrograd builds the op from others; the lines are what their rules add up to.
    Composed(&'static str),
    /// micrograd has no such op; the lines are written in its style.
    NotInMicrograd,
}

/// The text of one op's backward rule, as the backward-pass stepper shows it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleText {
    /// Where `python` comes from.
    pub(crate) source: PythonSource,
    /// The body of Python's `_backward` (empty for a custom op).
    pub(crate) python: &'static [&'static str],
    /// The lines of this crate's engine that do it (each one is a line of
    /// `src/engine/`, which a test checks; empty for a custom op, whose closure has no
    /// source line to show).
    pub(crate) rust: &'static [&'static str],
}

/// The Rust line of every one-parent op's backward rule (`ops.rs`).
pub(crate) const UNARY: &str = "x.add_grad(dx * out.grad);";
/// The Rust lines of every two-parent op's backward rule (`ops.rs`).
pub(crate) const BINARY_A: &str = "a.add_grad(da * out.grad);";
/// See [`BINARY_A`].
pub(crate) const BINARY_B: &str = "b.add_grad(db * out.grad);";

/// How many parents an op takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    /// A leaf has none.
    Zero,
    /// `relu`, `tanh`, `powf`, `neg`, ...
    One,
    /// `+ - * /`, `pow`, `max`, `min`.
    Two,
    /// The n-ary `sum` and custom ops.
    Many,
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

    /// [`Arity::One`] or [`Arity::Two`].
    pub(crate) fn arity(self) -> Arity {
        match self {
            Rule::One(_) => Arity::One,
            Rule::Two(_) => Arity::Two,
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

/// Writes the enum [`Op`] and its [`Op::symbol`], [`Op::arity`], [`Op::forward`],
/// [`Op::local_grads`] and [`Op::rule`] from the list of the engine's one-parent and
/// two-parent ops and their rules.
macro_rules! rule_table {
    (one: { $($one:ident => $rule1:path,)* } two: { $($two:ident => $rule2:path,)* }) => {
        /// Which operation produced a [`Value`]; [`Value::op`] shows it as Python's `_op`
        /// string. Besides the engine's ops of the table (each named by its rule): a
        /// leaf made by the user (`""`), the n-ary sum of [`std::iter::Sum`] (`"sum"`),
        /// a [`Value::custom`] op (its name is kept with its closures), an op defined
        /// above the engine (`src/ops/`: its closure carries its rule), and
        /// [`Value::neuron`]'s `act(b + w0·x0 + w1·x1 + ...)` as one node (`"neuron"`,
        /// `"relu neuron"`, ...).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub(crate) enum Op {
            /// A leaf.
            Leaf,
            /// The n-ary sum.
            Sum,
            /// A custom op.
            Custom,
            /// An op defined above the engine, whose closure carries its rule.
            Rule,
            /// A neuron as one node.
            Neuron(Act),
            $(#[doc = concat!("`", stringify!($rule1), "`.")] $one,)*
            $(#[doc = concat!("`", stringify!($rule2), "`.")] $two,)*
        }

        impl Op {
            /// The op as Python's `_op` string (`""` for a leaf).
            pub(crate) fn symbol(self) -> &'static str {
                match self {
                    Op::Leaf => "",
                    Op::Sum => "sum",
                    Op::Custom => "custom",
                    Op::Rule => "rule",
                    Op::Neuron(act) => act.symbol(),
                    $(Op::$one => $rule1.name,)*
                    $(Op::$two => $rule2.name,)*
                }
            }

            /// How many parents a node with this op has ([`Arity::Many`] for
            /// [`Op::Rule`]: its rule says).
            pub(crate) fn arity(self) -> Arity {
                match self {
                    Op::Leaf => Arity::Zero,
                    Op::Sum | Op::Custom | Op::Neuron(_) | Op::Rule => Arity::Many,
                    $(Op::$one)|* => Arity::One,
                    $(Op::$two)|* => Arity::Two,
                }
            }

            /// The value this op computes from its parents' values `a` and `b` (`b` is
            /// ignored by one-parent ops) and its constants `c` (ignored by the others).
            ///
            /// For `Sum` it is one step of the left-to-right sum, `acc + term` (a sum
            /// starts at 0.0, like Python's `sum()`); a leaf just holds `a`.
            // (Inlined into the tape's loops, so that each arm is a direct call: a plain
            // `#[inline]` was not inlined there.)
            #[inline(always)]
            pub(crate) fn forward(self, a: f64, b: f64, c: Consts) -> f64 {
                match self {
                    Op::Leaf => a,
                    Op::Sum => a + b,
                    $(Op::$one => ($rule1.forward)(a, c),)*
                    $(Op::$two => ($rule2.forward)(a, b),)*
                    Op::Custom | Op::Rule => unreachable!("{self:?} computes with its own functions"),
                    Op::Neuron(_) => unreachable!("a neuron computes in `src/fast/neuron.rs`"),
                }
            }

            /// The local derivatives `(d out / d a, d out / d b)` of this op, given its
            /// parents' values `a` and `b`, its own value `out` and its constants `c`
            /// (as for [`forward`](Op::forward)). One-parent ops return 0 for `b`;
            /// `Sum` returns 1 for a term.
            #[inline(always)]
            pub(crate) fn local_grads(self, a: f64, b: f64, out: f64, c: Consts) -> (f64, f64) {
                match self {
                    Op::Leaf => (0.0, 0.0),
                    Op::Sum => (1.0, 1.0),
                    $(Op::$one => (($rule1.local_grad)(a, out, c), 0.0),)*
                    $(Op::$two => ($rule2.local_grads)(a, b, out),)*
                    Op::Custom | Op::Rule => unreachable!("{self:?} computes with its own functions"),
                    Op::Neuron(_) => unreachable!("a neuron computes in `src/fast/neuron.rs`"),
                }
            }

            /// The rule of one of the engine's one- or two-parent ops (`None` for the
            /// others; for [`Op::Rule`], ask the node: `Node::rule`).
            pub(crate) fn rule(self) -> Option<Rule> {
                match self {
                    $(Op::$one => Some(Rule::One(&$rule1)),)*
                    $(Op::$two => Some(Rule::Two(&$rule2)),)*
                    Op::Sum | Op::Neuron(_) | Op::Leaf | Op::Custom | Op::Rule => None,
                }
            }

            /// The engine's one- and two-parent ops, in the order of the table.
            #[cfg(test)]
            pub(crate) const BUILTIN: &'static [Op] = &[$(Op::$one,)* $(Op::$two,)*];
        }
    };
}

rule_table! {
    one: {
        Neg => super::arithmetic::NEG,
        Relu => super::activations::RELU,
        Tanh => super::activations::TANH,
        Sigmoid => super::activations::SIGMOID,
        Exp => super::functions::EXP,
        Powf => super::powers::POWF,
    }
    two: {
        Add => super::arithmetic::ADD,
        Sub => super::arithmetic::SUB,
        Mul => super::arithmetic::MUL,
        Div => super::arithmetic::DIV,
    }
}

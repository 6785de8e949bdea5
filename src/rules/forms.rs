//! An op's rule in the two forms besides its numbers: the C the code generator writes
//! for it, and the text of its backward rule that the backward-pass stepper shows. Each
//! op's rule (`src/rules/`) holds both, written beside its numbers.

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
    /// `sigmoid`, `softplus`'s derivative (`src/ops/activations.rs`: `logistic`).
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
    /// The lines of this crate that do it (each one is a line of `src/`, which a test
    /// checks; empty for a custom op, whose closure has no source line to show).
    pub(crate) rust: &'static [&'static str],
}

/// The Rust line of every one-parent op's backward closure.
pub(crate) const UNARY: &str = "x.add_grad(dx * out.grad);";
/// The Rust lines of every two-parent op's backward closure.
pub(crate) const BINARY_A: &str = "a.add_grad(da * out.grad);";
/// See [`BINARY_A`].
pub(crate) const BINARY_B: &str = "b.add_grad(db * out.grad);";

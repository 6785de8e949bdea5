//! Each op's backward rule as text: micrograd's Python line(s) and the Rust line(s)
//! of this crate that do the same, for the backward-pass stepper.

use crate::engine::op::Op;

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

impl PythonSource {
    /// A one-line caption for the Python lines.
    pub(crate) fn caption(self) -> String {
        match self {
            PythonSource::Engine => "micrograd's engine.py".into(),
            PythonSource::Lecture => "the lecture's Value (micrograd's Zero-to-Hero)".into(),
            PythonSource::Composed(how) => format!("micrograd builds {how}; together its rules do"),
            PythonSource::NotInMicrograd => "not in micrograd; written in its style".into(),
        }
    }
}

/// The text of one op's backward rule.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RuleText {
    /// Where `python` comes from.
    pub(crate) source: PythonSource,
    /// The body of Python's `_backward` (empty for a custom op).
    pub(crate) python: &'static [&'static str],
    /// The lines of this crate's engine that do it (each one is in `src/engine/`;
    /// empty for a custom op, whose closure has no source line to show).
    pub(crate) rust: &'static [&'static str],
}

const UNARY: &str = "x.add_grad(dx * out.grad);";
const BINARY_A: &str = "a.add_grad(da * out.grad);";
const BINARY_B: &str = "b.add_grad(db * out.grad);";

/// `self.grad = 1` before the first rule runs (Python's `backward()`).
pub(crate) const SEED: RuleText = RuleText {
    source: PythonSource::Engine,
    python: &["self.grad = 1"],
    rust: &["self.0.borrow_mut().grad = 1.0;"],
};

/// The backward rule of `op`, as Python and Rust lines.
pub(crate) fn rule_text(op: Op) -> RuleText {
    use PythonSource::*;
    let (source, python, rust): (_, &'static [&'static str], &'static [&'static str]) = match op {
        Op::Leaf => (
            Engine,
            &["self._backward = lambda: None  # a leaf: nothing to do"],
            &["backward: None,"],
        ),
        Op::Add => (
            Engine,
            &["self.grad += out.grad", "other.grad += out.grad"],
            &[
                "local_grads: |_a, _b, _out| (1.0, 1.0),",
                BINARY_A,
                BINARY_B,
            ],
        ),
        Op::Sum => (
            Composed("sum(terms) as a chain of + nodes"),
            &["for term in terms: term.grad += out.grad"],
            &["for t in out.parents() {", "t.add_grad(out.grad);"],
        ),
        Op::Sub => (
            Composed("a - b as a + (-b)"),
            &["self.grad += out.grad", "other.grad += -1 * out.grad"],
            &[
                "local_grads: |_a, _b, _out| (1.0, -1.0),",
                BINARY_A,
                BINARY_B,
            ],
        ),
        Op::Mul => (
            Engine,
            &[
                "self.grad += other.data * out.grad",
                "other.grad += self.data * out.grad",
            ],
            &["local_grads: |a, b, _out| (b, a),", BINARY_A, BINARY_B],
        ),
        Op::Div => (
            Composed("a / b as a * b**-1"),
            &[
                "self.grad += other.data**-1 * out.grad",
                "other.grad += self.data * (-1 * other.data**-2) * out.grad",
            ],
            &[
                "local_grads: |_a, b, out| (1.0 / b, -out / b),",
                BINARY_A,
                BINARY_B,
            ],
        ),
        Op::Neg => (
            Composed("-a as a * -1"),
            &["self.grad += -1 * out.grad"],
            &["local_grad: |_a, _out, _| -1.0,", UNARY],
        ),
        Op::Relu => (
            Engine,
            &["self.grad += (out.data > 0) * out.grad"],
            &[
                "local_grad: |_x, out, _| if out > 0.0 { 1.0 } else { 0.0 },",
                UNARY,
            ],
        ),
        Op::LeakyRelu => (
            NotInMicrograd,
            &["self.grad += (1 if self.data > 0 else slope) * out.grad"],
            &[
                "local_grad: |x, _out, c| if x > 0.0 { 1.0 } else { c[0] },",
                UNARY,
            ],
        ),
        Op::Tanh => (
            Lecture,
            &["self.grad += (1 - t**2) * out.grad"],
            &["local_grad: |_x, out, _| 1.0 - out * out,", UNARY],
        ),
        Op::Sigmoid => (
            NotInMicrograd,
            &["self.grad += out.data * (1 - out.data) * out.grad"],
            &["local_grad: |_x, out, _| out * (1.0 - out),", UNARY],
        ),
        Op::Exp => (
            Lecture,
            &["self.grad += out.data * out.grad"],
            &["local_grad: |_x, out, _| out,", UNARY],
        ),
        Op::Ln => (
            NotInMicrograd,
            &["self.grad += (1 / self.data) * out.grad"],
            &["local_grad: |x, _out, _| 1.0 / (x + 0.0),", UNARY],
        ),
        Op::Powf => (
            Engine,
            &["self.grad += (other * self.data**(other-1)) * out.grad"],
            &[
                "local_grad: |x, _out, c| zeroth_or(c[0], x, |n| n * x.powf(n - 1.0)),",
                UNARY,
            ],
        ),
        Op::Pow => (
            NotInMicrograd,
            &[
                "self.grad += other.data * self.data**(other.data-1) * out.grad",
                "other.grad += out.data * math.log(self.data) * out.grad",
            ],
            &[
                "let flat = out == 0.0 && a >= 0.0;",
                "let db = if flat { 0.0 } else { out * a.ln() };",
                "(zeroth_or(b, a, |b| b * a.powf(b - 1.0)), db)",
                BINARY_A,
                BINARY_B,
            ],
        ),
        Op::Sqrt => (
            NotInMicrograd,
            &["self.grad += 0.5 / out.data * out.grad"],
            &["local_grad: |_x, out, _| 0.5 / (out + 0.0),", UNARY],
        ),
        Op::Abs => (
            NotInMicrograd,
            &["self.grad += sign(self.data) * out.grad"],
            &["local_grad: |x, _out, _| sign(x),", UNARY],
        ),
        Op::Softplus => (
            NotInMicrograd,
            &["self.grad += sigmoid(self.data) * out.grad"],
            &["local_grad: |x, _out, _| logistic(x),", UNARY],
        ),
        Op::Log1p => (
            NotInMicrograd,
            &["self.grad += 1 / (1 + self.data) * out.grad"],
            &["local_grad: |x, _out, _| 1.0 / (1.0 + x),", UNARY],
        ),
        Op::Sin => (
            NotInMicrograd,
            &["self.grad += math.cos(self.data) * out.grad"],
            &["local_grad: |x, _out, _| x.cos(),", UNARY],
        ),
        Op::Cos => (
            NotInMicrograd,
            &["self.grad += -math.sin(self.data) * out.grad"],
            &["local_grad: |x, _out, _| -x.sin(),", UNARY],
        ),
        Op::Powi => (
            NotInMicrograd,
            &["self.grad += (n * self.data**(n-1)) * out.grad"],
            &["n => c[0] * x.powi(n - 1),", UNARY],
        ),
        Op::Clamp => (
            NotInMicrograd,
            &["self.grad += (lo <= self.data <= hi) * out.grad"],
            &[
                "local_grad: |x, _out, c| if c[0] <= x && x <= c[1] { 1.0 } else { 0.0 },",
                UNARY,
            ],
        ),
        Op::Max => (
            NotInMicrograd,
            &[
                "self.grad += (self.data >= other.data) * out.grad",
                "other.grad += (self.data < other.data) * out.grad",
            ],
            &[
                "if a >= b || a.is_nan() {",
                "(1.0, 0.0)",
                "(0.0, 1.0)",
                BINARY_A,
                BINARY_B,
            ],
        ),
        Op::Min => (
            NotInMicrograd,
            &[
                "self.grad += (self.data <= other.data) * out.grad",
                "other.grad += (self.data > other.data) * out.grad",
            ],
            &[
                "if a <= b || a.is_nan() {",
                "(1.0, 0.0)",
                "(0.0, 1.0)",
                BINARY_A,
                BINARY_B,
            ],
        ),
        Op::Custom => (NotInMicrograd, &[], &[]),
        Op::Neuron(_) => (
            Composed("a neuron as b + w0*x0 + w1*x1 + ... and its activation"),
            &[
                "g = f'(sum) * out.grad  # the activation's rule",
                "b.grad += g  # the + nodes'",
                "for wi, xi in zip(w, x): wi.grad += xi.data * g; xi.grad += wi.data * g",
            ],
            &[
                "Some(op) => 0.0 + op.local_grads(0.0, 0.0, out.data, NO_CONSTS).0 * out.grad,",
                "b.add_grad(g);",
                "w.add_grad(xd * g);",
                "x.add_grad(wd * g);",
            ],
        ),
    };
    RuleText {
        source,
        python,
        rust,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's source, where every quoted Rust line must be.
    const ENGINE: [&str; 10] = [
        include_str!("../engine/arithmetic.rs"),
        include_str!("../engine/activations.rs"),
        include_str!("../engine/functions.rs"),
        include_str!("../engine/powers.rs"),
        include_str!("../engine/piecewise.rs"),
        include_str!("../engine/ops.rs"),
        include_str!("../engine/backward.rs"),
        include_str!("../engine/value.rs"),
        include_str!("../engine/custom.rs"),
        include_str!("../engine/neuron.rs"),
    ];

    // The stepper shows these lines as "this crate's Rust line": they must still be in
    // the engine, or the page would teach code that no longer exists.
    #[test]
    fn every_quoted_rust_line_is_in_the_engine() {
        let lines: Vec<&str> = ENGINE
            .iter()
            .flat_map(|f| f.lines())
            .map(str::trim)
            .collect();
        let ops = [
            Op::Leaf,
            Op::Add,
            Op::Sum,
            Op::Sub,
            Op::Mul,
            Op::Div,
            Op::Neg,
            Op::Relu,
            Op::LeakyRelu,
            Op::Tanh,
            Op::Sigmoid,
            Op::Exp,
            Op::Ln,
            Op::Powf,
            Op::Pow,
            Op::Sqrt,
            Op::Abs,
            Op::Softplus,
            Op::Log1p,
            Op::Sin,
            Op::Cos,
            Op::Powi,
            Op::Clamp,
            Op::Max,
            Op::Min,
            Op::Neuron(crate::engine::op::Act::Relu),
        ];
        let quoted = ops
            .iter()
            .flat_map(|&op| rule_text(op).rust)
            .chain(SEED.rust);
        for line in quoted {
            assert!(
                lines.contains(line),
                "`{line}` is not a line of src/engine/"
            );
        }
    }

    #[test]
    fn a_custom_op_has_no_source_line() {
        let text = rule_text(Op::Custom);
        assert!(text.python.is_empty() && text.rust.is_empty());
    }
}

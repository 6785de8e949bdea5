//! Each op's backward rule as text: micrograd's Python line(s) and the Rust line(s)
//! of this crate that do the same, for the backward-pass stepper.

use crate::engine::value::Node;
use crate::ops::is_sum;
use crate::rules::Rule;

pub(crate) use crate::rules::forms::{PythonSource, RuleText};

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

/// `self.grad = 1` before the first rule runs (Python's `backward()`).
pub(crate) const SEED: RuleText = RuleText {
    source: PythonSource::Engine,
    python: &["self.grad = 1"],
    rust: &["self.0.borrow_mut().grad = 1.0;"],
};

/// The kind of a node, for the text of its backward rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A leaf, made by the user.
    Leaf,
    /// The n-ary sum.
    Sum,
    /// A [`Value::custom`](crate::Value::custom) op.
    Custom,
    /// Any other op: a one- or two-parent op (which has a rule), or a neuron node.
    Op,
}

impl Kind {
    /// The kind of `node`.
    pub(crate) fn of(node: &Node) -> Kind {
        if node.is_leaf() {
            Kind::Leaf
        } else if is_sum(node) {
            Kind::Sum
        } else if node.custom().is_some() {
            Kind::Custom
        } else {
            Kind::Op
        }
    }
}

/// The backward rule of a node of the kind `kind` and the rule `rule`, as Python and
/// Rust lines: a one- or two-parent op's is written with its rule (in `src/rules/` or
/// `src/ops/`); the others' are here.
pub(crate) fn rule_text(kind: Kind, rule: Option<Rule>) -> RuleText {
    use PythonSource::*;
    if let Some(rule) = rule {
        return rule.text();
    }
    let (source, python, rust): (_, &'static [&'static str], &'static [&'static str]) = match kind {
        Kind::Leaf => (
            Engine,
            &["self._backward = lambda: None  # a leaf: nothing to do"],
            &["backward: None,"],
        ),
        Kind::Sum => (
            Composed("sum(terms) as a chain of + nodes"),
            &["for term in terms: term.grad += out.grad"],
            &["for t in out.parents() {", "t.add_grad(out.grad);"],
        ),
        // (An op named by its closure that has no rule: a neuron node of `src/fast/`, the
        // only such node a reader of the graph meets.)
        Kind::Op => (
            Composed("a neuron as b + w0*x0 + w1*x1 + ... and its activation"),
            &[
                "g = f'(sum) * out.grad  # the activation's rule",
                "b.grad += g  # the + nodes'",
                "for wi, xi in zip(w, x): wi.grad += xi.data * g; xi.grad += wi.data * g",
            ],
            &[
                "Some(Rule::One(rule)) => 0.0 + (rule.local_grad)(0.0, out.data, NO_CONSTS) * out.grad,",
                "b.add_grad(g);",
                "node.add_grad(xd * g);",
                "x.add_grad(wd * g);",
            ],
        ),
        // (A custom op's closure has no source line to show.)
        Kind::Custom => (NotInMicrograd, &[], &[]),
    };
    RuleText {
        source,
        python,
        rust,
    }
}

impl Rule {
    /// The text of the op's backward rule.
    pub(crate) fn text(self) -> RuleText {
        match self {
            Rule::One(r) => r.text,
            Rule::Two(r) => r.text,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The engine's source (and the source of the ops and the neuron node above it),
    /// where every quoted Rust line must be.
    const ENGINE: [&str; 21] = [
        include_str!("../rules/arithmetic.rs"),
        include_str!("../rules/activations.rs"),
        include_str!("../rules/functions.rs"),
        include_str!("../rules/powers.rs"),
        include_str!("../engine/arithmetic.rs"),
        include_str!("../ops/composed.rs"),
        include_str!("../engine/activations.rs"),
        include_str!("../engine/functions.rs"),
        include_str!("../engine/powers.rs"),
        include_str!("../ops/activations.rs"),
        include_str!("../ops/functions.rs"),
        include_str!("../ops/powers.rs"),
        include_str!("../ops/piecewise.rs"),
        include_str!("../engine/ops.rs"),
        include_str!("../ops/sum.rs"),
        include_str!("../engine/backward.rs"),
        include_str!("../engine/value.rs"),
        include_str!("../engine/topo.rs"),
        include_str!("../engine/inspect.rs"),
        include_str!("../engine/custom.rs"),
        include_str!("../fast/neuron.rs"),
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
        let others = [Kind::Leaf, Kind::Sum, Kind::Op];
        let engine_ops = crate::program::code::Code::ALL.iter();
        let ops = engine_ops.map(|code| rule_text(Kind::Op, Some(code.rule())));
        let ops = ops.chain(others.iter().map(|&kind| rule_text(kind, None)));
        let (x, y) = (crate::Value::new(0.5), crate::Value::new(2.0));
        let further = [
            x.leaky_relu(0.1),
            x.softplus(),
            x.ln(),
            x.log1p(),
            x.sqrt(),
            x.sin(),
            x.cos(),
            x.atan(),
            x.powi(2),
            x.pow(&y),
            x.abs(),
            x.clamp(0.0, 1.0),
            x.max(&y),
            x.min(&y),
        ];
        let further = further.iter().map(|v| {
            let rule = v.node().rule();
            assert_eq!(
                rule.map(Rule::name),
                Some(v.op()),
                "the closure carries its rule"
            );
            rule_text(Kind::Op, rule)
        });
        let quoted = ops
            .chain(further)
            .flat_map(|text| text.rust)
            .chain(SEED.rust);
        for line in quoted {
            assert!(
                lines.contains(line),
                "`{line}` is not a line of src/engine/, src/rules/ or src/ops/"
            );
        }
    }

    #[test]
    fn a_custom_op_has_no_source_line() {
        let text = rule_text(Kind::Custom, None);
        assert!(text.python.is_empty() && text.rust.is_empty());
    }
}

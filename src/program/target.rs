//! The mark a loss puts on its result when it took its targets as numbers (or picked a
//! logit by a class index): those numbers are constants of the graph, so a program
//! compiled from it is right for that one sample only, and a tape refuses to run it
//! over others (`Tape::check_per_sample`).

use crate::engine::ops::Backward;
use crate::engine::parents::Parents;
use crate::engine::value::{BackwardFn, Node};

/// A loss's result node's own closure, marked with `(loss, form to use)`: the loss
/// that took a number as its target, and its form whose targets are `Value`s.
pub(crate) struct ConstantTarget {
    rule: BackwardFn,
    names: (&'static str, &'static str),
}

impl ConstantTarget {
    /// `rule` marked with `names`.
    pub(crate) fn wrap(rule: BackwardFn, names: (&'static str, &'static str)) -> BackwardFn {
        Box::new(ConstantTarget { rule, names })
    }

    /// The `(loss, form to use)` that `node` is marked with, if any.
    pub(crate) fn of(node: &Node) -> Option<(&'static str, &'static str)> {
        node.closure::<ConstantTarget>().map(|t| t.names)
    }
}

impl Backward for ConstantTarget {
    fn run(&self, out: &Node) {
        self.rule.run(out);
    }

    fn rule(&self) -> Option<crate::engine::rules::Rule> {
        self.rule.rule()
    }

    /// The marked node's Python graph, still marked.
    fn python_graph(&self, out: &Node) -> Option<(Parents, BackwardFn)> {
        let (parents, rule) = self.rule.python_graph(out)?;
        Some((parents, ConstantTarget::wrap(rule, self.names)))
    }
}

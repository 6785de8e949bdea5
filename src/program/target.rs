//! The mark a loss puts on its result when it took its targets as numbers (or picked a
//! logit by a class index): those numbers are constants of the graph, so a program
//! compiled from it is right for that one sample only, and a tape refuses to run it
//! over others (`Tape::check_per_sample`).

use crate::engine::value::Node;

/// The mark of a loss's result node (`Value::mark`): `(loss, form to use)`, the loss that
/// took a number as its target and its form whose targets are `Value`s.
#[derive(Clone, Copy)]
pub(crate) struct ConstantTarget(pub(crate) &'static str, pub(crate) &'static str);

impl ConstantTarget {
    /// The `(loss, form to use)` that `node` is marked with, if any.
    pub(crate) fn of(node: &Node) -> Option<(&'static str, &'static str)> {
        node.mark::<ConstantTarget>()
            .map(|ConstantTarget(loss, instead)| (loss, instead))
    }
}

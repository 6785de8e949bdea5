//! The marks a loss puts on the graph about its targets. When it took them as numbers
//! (or picked a logit by a class index), those numbers are constants of the graph, so a
//! program compiled from it is right for that one sample only, and a tape refuses to
//! run it over others (`Tape::check_per_sample`). When they are leaves (the `_targets`
//! forms), a batch must feed them with each sample (`Tape::check_targets_fed`).

use crate::engine::value::Node;
use crate::Value;

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

/// The mark of a node that a loss's `_targets` form built on a target leaf: that leaf is
/// the node's parent `.0`, which a batch must feed with each sample's target.
#[derive(Clone, Copy)]
pub(crate) struct TargetIn(pub(crate) usize);

impl TargetIn {
    /// The target leaf of `node`, if a loss marked it.
    pub(crate) fn leaf(node: &Node) -> Option<Value> {
        let TargetIn(i) = node.mark::<TargetIn>()?;
        node.parent_list().get(i).cloned()
    }
}

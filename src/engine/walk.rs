//! The hooks of `build_topo` (`backward.rs`) by which a walk reads the graph its own way,
//! and what unmarks the nodes a pass stopped by an error or a panic did not reach.

use std::borrow::Cow;

use super::value::{Node, Value};
use crate::error::Error;

/// How a walk reads the graph, beyond Python's `build_topo`: each hook's default is
/// what `backward()` does ([`Nodes`]). [`Value::topo`] walks Python's graph
/// (`topo.rs`), [`Value::try_backward`] checks each number (`anomaly.rs`).
pub(crate) trait Walk {
    /// On first reaching `node` (Python's call `build_topo(v)`), before its children
    /// are read.
    #[inline]
    fn enter(&mut self, _node: &mut Node) {}

    /// The children to visit, in order (Python's `v._prev`).
    #[inline]
    fn children<'n>(&self, node: &'n Node) -> Cow<'n, [Value]> {
        Cow::Borrowed(node.parents())
    }

    /// On `topo.append(v)`, once the children are done.
    #[inline]
    fn append(&mut self, _v: &Value) {}

    /// After the walk: an error that stops the pass before any rule runs.
    #[inline]
    fn walked(&mut self) -> Result<(), Error> {
        Ok(())
    }

    /// After the node's rule ran: an error that stops the pass there.
    #[inline]
    fn ran(&mut self, _node: &Node) -> Result<(), Error> {
        Ok(())
    }
}

/// `backward()`'s walk: every node as it is.
pub(super) struct Nodes;

impl Walk for Nodes {}

/// The part of `topo` [`Value::backward`]'s loop has not reached: clears those nodes'
/// `visited` marks when it is dropped, so that they are unmarked for the next pass also
/// after an error, or a panic in a rule (a [`Value::custom`] op's `local_grads`, say,
/// which the caller may catch). A node still borrowed is skipped (a panic while
/// unwinding would abort): none is, once the loop has unwound.
pub(super) struct Unmark(pub(super) Vec<Value>);

impl Drop for Unmark {
    fn drop(&mut self) {
        for v in &self.0 {
            if let Ok(mut node) = v.0.try_borrow_mut() {
                node.visited = false;
            }
        }
    }
}

//! The hooks of `build_topo` (`backward.rs`) by which a walk reads the graph its own way.

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

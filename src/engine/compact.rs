//! What the engine holds for the compact node of `src/fast/constant.rs`, which keeps
//! an `f64` operand in its node (`&x * 2.0` as one node that keeps the `2.0`): the
//! operand's side, and `expand`, which shows such a node as Python's nodes before a
//! reader lists its parents. The rest of the engine names this form only where it must
//! walk, check or free a node's parents (`Parents`, `anomaly.rs`, `Drop`). What it
//! saves, heap bytes per node on the chain, is in `docs/benchmarks.md`.

use super::parents::Parents;
use super::value::Value;

/// Which operand of a [`Parents::Constant`] node the constant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// `2.0 * &x`: the constant is the first operand.
    Left,
    /// `&x * 2.0`: the constant is the second operand.
    Right,
}

impl Parents {
    /// The constant operand and its side, for a [`Parents::Constant`] node.
    #[inline]
    pub(crate) fn constant(&self) -> Option<(f64, Side)> {
        match *self {
            Parents::Constant(_, c, side, _) => Some((c, side)),
            _ => None,
        }
    }
}

impl Value {
    /// Puts Python's leaf back where this node keeps an `f64` operand in its place
    /// (`src/fast/constant.rs`): the node's closure knows how (`Reader::python_graph`).
    /// Every walk that shows or compiles the graph calls it on each node before reading
    /// its parents ([`Value::topo`]); `backward()` and the drop read the compact forms as
    /// they are.
    pub(crate) fn expand(&self) {
        let mut node = self.0.borrow_mut();
        let python = (node.backward.as_ref()).and_then(|rule| rule.python_graph(&node));
        if let Some((parents, backward)) = python {
            *node.parents = parents;
            node.backward = Some(backward);
        }
    }
}

//! Visiting every node of a graph once, with an explicit stack (no recursion).

use super::address::AddressSet;
use super::value::Value;

/// Calls `f` once on `root` and once on every value it was computed from, parents
/// after children (depth-first). Linear in the graph size: visited nodes are found in a
/// hash set of node addresses, not by scanning a list.
pub(crate) fn for_each_node(root: &Value, mut f: impl FnMut(&Value)) {
    let mut seen = AddressSet::default();
    let mut stack = vec![root.clone()];
    seen.insert(root.address());
    while let Some(value) = stack.pop() {
        f(&value);
        for parent in value.node().parents() {
            if seen.insert(parent.address()) {
                stack.push(parent.clone());
            }
        }
    }
}

//! Backpropagation must visit a node only after every node that uses it, so the
//! lecture lays the graph out in topological order: every node after the nodes it was
//! computed from (its parents, `v.parents()`), the root last. Python's `build_topo` is
//! recursive; a graph a million nodes deep would overflow the stack, so write it with a
//! loop and a stack of your own.
//!
//! Each node once: keep the visited ones in a `HashSet` of `v.id()` (Python's
//! `visited = set()`). A node goes into the order once all its parents are in it.
//! One way: a stack of (node, how many of its parents you have looked at).

use micrograd::Value;

/// Every node of `root`'s graph once, each after its parents, `root` last.
pub fn topological_order(root: &Value) -> Vec<Value> {
    // ✎ YOUR CODE
    Vec::new()
}

//! Solution of exercise 07 (see yours/07_topological_order.rs for the instructions).

use std::collections::HashSet;

use micrograd::Value;

/// Every node of `root`'s graph once, each after its parents, `root` last.
pub fn topological_order(root: &Value) -> Vec<Value> {
    let mut order = Vec::new();
    let mut visited = HashSet::from([root.id()]);
    // Each entry: a node, and how many of its parents have been looked at.
    let mut stack = vec![(root.clone(), 0)];
    while let Some((node, looked)) = stack.last_mut() {
        let parents = node.parents();
        if let Some(parent) = parents.get(*looked) {
            *looked += 1;
            if visited.insert(parent.id()) {
                stack.push((parent.clone(), 0));
            }
        } else if let Some((node, _)) = stack.pop() {
            order.push(node);
        }
    }
    order
}

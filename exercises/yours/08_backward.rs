//! With the topological order (exercise 07; here `root.topo()`, the crate's), the
//! whole backward pass is three lines in the lecture: set the root's grad to 1, then
//! call each node's `_backward()` (here `backward_step()`) from the root back to the
//! leaves: the order reversed.
//!
//! `backward_step()` runs one node's rule: it adds that node's grad times each local
//! derivative to its parents' grads. Do not call `root.backward()`: write it.

use micrograd::Value;

/// Fills in the grad of every node of `root`'s graph (Python's `backward()`).
pub fn backward(root: &Value) {
    // ✎ YOUR CODE
}

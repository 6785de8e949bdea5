//! Solution of exercise 08 (see yours/08_backward.rs for the instructions).

use micrograd::Value;

/// Fills in the grad of every node of `root`'s graph (Python's `backward()`).
pub fn backward(root: &Value) {
    // self.grad = 1.0; for node in reversed(topo): node._backward()
    root.set_grad(1.0);
    for node in root.topo().iter().rev() {
        node.backward_step();
    }
}

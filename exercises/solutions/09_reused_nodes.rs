//! Solution of exercise 09 (see yours/09_reused_nodes.rs for the instructions).

use micrograd::Value;

/// The backward rule of `out = x + y`: each of x and y gets out.grad.
pub fn add_rule(out: &Value) {
    let p = out.parents();
    // self.grad += 1.0 * out.grad; other.grad += 1.0 * out.grad
    p[0].add_grad(out.grad());
    p[1].add_grad(out.grad());
}

/// The backward rule of `out = x * y`: x gets y · out.grad, y gets x · out.grad.
pub fn mul_rule(out: &Value) {
    let p = out.parents();
    // self.grad += other.data * out.grad; other.grad += self.data * out.grad
    p[0].add_grad(p[1].data() * out.grad());
    p[1].add_grad(p[0].data() * out.grad());
}

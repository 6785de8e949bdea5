//! The lecture's expression L = (a*b + c) * f, with every intermediate node named:
//! e = a*b, d = e + c, L = d * f. Backpropagate by hand: fill in each node's `grad`,
//! dL/d(node), from L back to the leaves, with `set_grad` (Python: `a.grad = ...`).
//!
//! Start at L (dL/dL = 1). A node's grad is the grad of the node it feeds, times the
//! local derivative of that step (exercise 02): the chain rule. Read numbers with
//! `.data()` and `.grad()`; do not call `backward()`, that is what you are doing by hand.

// Its nodes: x.a, x.b, x.c, x.e, x.d, x.f and x.l (L).
pub use micrograd_exercises::lecture::Expression;

/// Sets the grad of every node of `x`, by hand, with the chain rule.
pub fn backprop_by_hand(x: &Expression) {
    // dL/dL = 1
    x.l.set_grad(1.0);
    // ✎ YOUR CODE: x.f, x.d, then x.c and x.e, then x.a and x.b
}

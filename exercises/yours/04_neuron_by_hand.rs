//! The lecture's neuron: o = tanh(x1*w1 + x2*w2 + b), with x1 = 2, x2 = 0, w1 = −3,
//! w2 = 1 and b = 6.8813735870195432 (chosen so that o comes out as 0.7071...).
//! Backpropagate through it by hand, node by node, with `set_grad`, as in exercise 03.
//!
//! The one new step is tanh: d tanh(n)/dn = 1 − tanh(n)², and tanh(n) is `o.data()`.
//! Then: a sum passes its grad through to both terms; a product gives each factor the
//! other factor's data times its own grad.

// Its nodes: v.x1, v.x2, v.w1, v.w2, v.b, v.x1w1, v.x2w2, v.x1w1x2w2, v.n, v.o
pub use micrograd_exercises::lecture::Neuron;

/// Sets the grad of every node of the neuron, by hand, from `o` back to the inputs.
pub fn backprop_neuron(v: &Neuron) {
    v.o.set_grad(1.0);
    // ✎ YOUR CODE: v.n, then v.b and v.x1w1x2w2, then v.x1w1 and v.x2w2, then the leaves
}

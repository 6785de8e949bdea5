//! Solution of exercise 04 (see yours/04_neuron_by_hand.rs for the instructions).

// Its nodes: v.x1, v.x2, v.w1, v.w2, v.b, v.x1w1, v.x2w2, v.x1w1x2w2, v.n, v.o
pub use micrograd_exercises::lecture::Neuron;

/// Sets the grad of every node of the neuron, by hand, from `o` back to the inputs.
pub fn backprop_neuron(v: &Neuron) {
    v.o.set_grad(1.0);
    // o = tanh(n): do/dn = 1 - o²
    v.n.set_grad((1.0 - v.o.data() * v.o.data()) * v.o.grad());
    // n = x1w1x2w2 + b
    v.b.set_grad(v.n.grad());
    v.x1w1x2w2.set_grad(v.n.grad());
    // x1w1x2w2 = x1w1 + x2w2
    v.x1w1.set_grad(v.x1w1x2w2.grad());
    v.x2w2.set_grad(v.x1w1x2w2.grad());
    // x1w1 = x1 * w1; x2w2 = x2 * w2
    v.x1.set_grad(v.w1.data() * v.x1w1.grad());
    v.w1.set_grad(v.x1.data() * v.x1w1.grad());
    v.x2.set_grad(v.w2.data() * v.x2w2.grad());
    v.w2.set_grad(v.x2.data() * v.x2w2.grad());
}

//! Solution of exercise 03 (see yours/03_backprop_by_hand.rs for the instructions).

// Its nodes: x.a, x.b, x.c, x.e, x.d, x.f and x.l (L).
pub use micrograd_exercises::lecture::Expression;

/// Sets the grad of every node of `x`, by hand, with the chain rule.
pub fn backprop_by_hand(x: &Expression) {
    x.l.set_grad(1.0); // dL/dL = 1
                       // L = d * f
    x.f.set_grad(x.d.data() * x.l.grad());
    x.d.set_grad(x.f.data() * x.l.grad());
    // d = e + c: a sum passes its grad through
    x.c.set_grad(x.d.grad());
    x.e.set_grad(x.d.grad());
    // e = a * b
    x.a.set_grad(x.b.data() * x.e.grad());
    x.b.set_grad(x.a.data() * x.e.grad());
}

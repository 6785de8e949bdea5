//! The bug the lecture runs into: `b = a + a; b.backward()` gives `a.grad = 1`, but b
//! moves by 2 when a moves by 1. Below are the backward rules of `+` and `*` as the
//! lecture first wrote them: each *sets* its parents' grads. When a value is used twice,
//! (here `a + a`, or `a` in both `a*b` and `a+b`), the second use overwrites the first.
//!
//! Fix both rules. `out.parents()` lists the operands in order (`a + a` lists `a`
//! twice); `p.grad()`, `p.set_grad(..)` and `p.add_grad(..)` read and write a grad.
//! The tests run your rules over the whole graph, in reverse topological order.

use micrograd::Value;

/// The backward rule of `out = x + y`: each of x and y gets out.grad.
pub fn add_rule(out: &Value) {
    let p = out.parents();
    // ✎ YOUR CODE: these two lines have the lecture's bug
    p[0].set_grad(out.grad());
    p[1].set_grad(out.grad());
}

/// The backward rule of `out = x * y`: x gets y · out.grad, y gets x · out.grad.
pub fn mul_rule(out: &Value) {
    let p = out.parents();
    // ✎ YOUR CODE: these two lines have the lecture's bug
    p[0].set_grad(p[1].data() * out.grad());
    p[1].set_grad(p[0].data() * out.grad());
}

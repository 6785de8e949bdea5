//! In Python the lecture adds `tanh` to `class Value` as a method: it computes
//! `t = tanh(x)`, makes `out = Value(t, (self,), 'tanh')`, and gives `out` a
//! `_backward` that does `self.grad += (1 - t**2) * out.grad`.
//!
//! In Rust you cannot add a method to a type from another crate (`impl Value` here is
//! error E0116); you declare a trait of your own and implement it for `Value` (an
//! extension trait, below). The op itself is `Value::custom(name, parents, forward,
//! local_grads)`: `forward(p)` gets the parents' data and returns the result;
//! `local_grads(p, out, d)` writes `d[i]`, d out / d parent i. The engine does the
//! `+= ... * out.grad` part for you.
//!
//! Write `my_tanh`: op name "tanh", one parent (`self`), forward tanh(p[0]) (from
//! `exp`, or `f64::tanh`), and its local derivative 1 − t² where t is `out`.

use micrograd::Value;

/// Your own op, called as a method: `n.my_tanh()` wherever this trait is in scope.
pub trait MyTanh {
    /// tanh(self), with its derivative 1 − tanh(self)².
    fn my_tanh(&self) -> Value;
}

impl MyTanh for Value {
    fn my_tanh(&self) -> Value {
        Value::custom(
            "tanh",
            &[self],
            // ✎ YOUR CODE: the forward closure, parents' data -> the result
            |p| 0.0,
            // ✎ YOUR CODE: the local derivative, into d[0]
            |p, out, d| {},
        )
    }
}

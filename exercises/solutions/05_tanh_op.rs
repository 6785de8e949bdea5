//! Solution of exercise 05 (see yours/05_tanh_op.rs for the instructions).

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
            // t = (math.exp(2*x) - 1)/(math.exp(2*x) + 1)
            |p| ((2.0 * p[0]).exp() - 1.0) / ((2.0 * p[0]).exp() + 1.0),
            // self.grad += (1 - t**2) * out.grad
            |_p, t, d| d[0] = 1.0 - t * t,
        )
    }
}

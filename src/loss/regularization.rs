//! Weight penalties added to a loss.

use crate::Value;

/// micrograd's L2 penalty `R = α · Σⱼ pⱼ²` over the parameters.
///
/// Gradient: `dR/dpⱼ = 2α·pⱼ`.
///
/// Python's `1e-4 * sum((p*p for p in params))` calls `Value.__rmul__`, which computes
/// `sum(...) * Value(1e-4)`; this function multiplies in that order, so the result and
/// the gradients equal Python's bit for bit. `alpha` is not checked: a negative one
/// rewards large weights, which is almost always a mistake. An empty `params` gives 0.
///
/// ```
/// use micrograd::{loss, Value};
/// let w = [Value::new(3.0), Value::new(-4.0)];
/// let r = loss::l2(&w, 0.5);        // 0.5 · (9 + 16)
/// r.backward();
/// assert_eq!(r.data(), 12.5);
/// assert_eq!((w[0].grad(), w[1].grad()), (3.0, -4.0));   // 2 · 0.5 · p
/// ```
pub fn l2(params: &[Value], alpha: f64) -> Value {
    params.iter().map(|p| p * p).sum::<Value>() * alpha
}

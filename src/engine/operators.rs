//! The operators `+ - * /`, unary `-` and `+= -= *= /=`, for every mix of `Value`,
//! `&Value`, `f64` and `&f64`: here those of `+` and `*` on two values.
//!
//! Python gets these from `__add__`/`__radd__`/...; Rust needs one `impl` per pair of
//! operand types, so a macro (in the style of std's `forward_ref_binop!`) writes them
//! from an op's method: here `+` and `*` (`arithmetic.rs`); `-`, `/` and negation, one
//! node each, are ops on top of the engine (`src/ops/composed.rs`). The forms with an
//! `f64` operand are in `src/fast/constant.rs`: where Python's `other if
//! isinstance(other, Value) else Value(other)` makes a leaf `Value` of the number, they
//! keep it in the node; the
//! graph's views and [`Value::parents`] show that leaf.
//!
//! | expression | derivative in `a` | derivative in `b` |
//! |------------|-------------------|-------------------|
//! | `a + b`    | 1                 | 1                 |
//! | `a - b`    | 1                 | -1                |
//! | `a * b`    | b                 | a                 |
//! | `a / b`    | 1/b               | -a/b²             |
//! | `-a`       | -1                |                   |
//!
//! ```
//! use micrograd::Value;
//! let grads = |y: &Value, a: &Value, b: &Value| {
//!     y.backward();
//!     (y.data(), a.grad(), b.grad())
//! };
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&(&a + &b), &a, &b), (5.0, 1.0, 1.0));      // d/da = 1, d/db = 1
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&(&a - &b), &a, &b), (1.0, 1.0, -1.0));     // d/da = 1, d/db = -1
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&(&a * &b), &a, &b), (6.0, 2.0, 3.0));      // d/da = b, d/db = a
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&(&a / &b), &a, &b), (1.5, 0.5, -0.75));    // d/da = 1/b, d/db = -a/b²
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! assert_eq!(grads(&-&a, &a, &b), (-3.0, -1.0, 0.0));          // d/da = -1
//! ```
//! `f64` on either side, and the assigning forms (which rebind the handle to a new
//! node, as Python's `a += b` rebinds the name):
//! ```
//! # use micrograd::Value;
//! let x = Value::new(4.0);
//! let f = 2.0 * &x + 1.0;   // 9
//! let g = 10.0 / &f - x.clone();
//! let mut h = g.clone();
//! h *= 3.0;
//! h += &x;
//! assert!((h.data() - ((10.0 / 9.0 - 4.0) * 3.0 + 4.0)).abs() < 1e-12);
//! ```
//! `&f64` too, as iterating over a slice of numbers hands them out:
//! ```
//! # use micrograd::Value;
//! // Python: loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
//! let ys = [1.0, -1.0];
//! let ypred = [Value::new(0.5), Value::new(-0.5)];
//! let loss: Value = ys.iter().zip(&ypred).map(|(ygt, yout)| (yout - ygt).powi(2)).sum();
//! assert_eq!(loss.data(), 0.5);
//! ```

use std::ops::{Add, AddAssign, Mul, MulAssign};

use super::value::Value;

/// Implements one binary operator for every mix of `Value` and `&Value`, and its
/// assigning forms, from a method `fn(&Value, &Value) -> Value` (the forms with an
/// `f64` are in `src/fast/constant.rs`).
macro_rules! value_binop {
    ($Op:ident, $op:ident, $OpAssign:ident, $op_assign:ident, $method:ident) => {
        impl $Op<&Value> for &Value {
            type Output = Value;
            fn $op(self, rhs: &Value) -> Value {
                self.$method(rhs)
            }
        }
        impl $Op<Value> for &Value {
            type Output = Value;
            fn $op(self, rhs: Value) -> Value {
                self.$method(&rhs)
            }
        }
        impl $Op<&Value> for Value {
            type Output = Value;
            fn $op(self, rhs: &Value) -> Value {
                self.$method(rhs)
            }
        }
        impl $Op<Value> for Value {
            type Output = Value;
            fn $op(self, rhs: Value) -> Value {
                self.$method(&rhs)
            }
        }
        impl $OpAssign<&Value> for Value {
            fn $op_assign(&mut self, rhs: &Value) {
                *self = self.$method(rhs);
            }
        }
        impl $OpAssign<Value> for Value {
            fn $op_assign(&mut self, rhs: Value) {
                *self = self.$method(&rhs);
            }
        }
    };
}

/// (`-` and `/` use it too, in `src/ops/composed.rs`.)
pub(crate) use value_binop;

value_binop!(Add, add, AddAssign, add_assign, add_value);
value_binop!(Mul, mul, MulAssign, mul_assign, mul_value);

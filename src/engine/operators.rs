//! The operators `+ - * /`, unary `-` and `+= -= *= /=`, for every mix of `Value`,
//! `&Value`, `f64` and `&f64`: here those of `+` and `*` on two values.
//!
//! Python gets these from `__add__`/`__radd__`/...; Rust needs one `impl` per pair of
//! operand types, so a macro (in the style of std's `forward_ref_binop!`) writes them
//! from an op's method: here `+` and `*` (`arithmetic.rs`); `-`, `/` and negation, one
//! node each, are ops on top of the engine (`src/ops/composed.rs`). The forms with an
//! `f64` operand are in `src/fast/constant.rs`: where Python's `other if
//! isinstance(other, Value) else Value(other)` makes a leaf `Value` of the number, they
//! keep it in the node; the graph's views and [`Value::parents`] show that leaf.
//!
//! | expression | derivative in `a` | derivative in `b` |
//! |------------|-------------------|-------------------|
//! | `a + b`    | 1                 | 1                 |
//! | `a * b`    | b                 | a                 |
//!
//! ```
//! use micrograd::Value;
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! let y = &a + &b;
//! y.backward();
//! assert_eq!((y.data(), a.grad(), b.grad()), (5.0, 1.0, 1.0));  // d/da = 1, d/db = 1
//! let (a, b) = (Value::new(3.0), Value::new(2.0));
//! let mut y = a.clone();
//! y *= &b;                  // rebinds `y` to a new node, as Python's `y *= b` rebinds the name
//! y.backward();
//! assert_eq!((y.data(), a.grad(), b.grad()), (6.0, 2.0, 3.0));  // d/da = b, d/db = a
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

impl From<f64> for Value {
    /// `Value::from(2.0)` is `Value::new(2.0)`.
    fn from(data: f64) -> Value {
        Value::new(data)
    }
}

//! Labels: the lecture's `e.label = 'e'`, a value's name in pictures and errors.

use std::rc::Rc;

use super::value::{Node, Value};
use crate::rules::Consts;
use crate::watch;

/// Rarely used per-node data, boxed so that the common node stays small: the label and
/// an op's constants where it has two.
#[derive(Default)]
pub(crate) struct Extra {
    /// The user's name for this value (`with_label`).
    pub(crate) label: Option<String>,
    /// The constants of an op that has two (`clamp(lo, hi)`; one is kept in `parents`).
    pub(crate) consts: Consts,
}

impl Value {
    /// The label given by [`with_label`](Value::with_label) or
    /// [`set_label`](Value::set_label), if any.
    ///
    /// ```
    /// let a = micrograd::Value::new(1.0).with_label("a");
    /// assert_eq!(a.label().as_deref(), Some("a"));
    /// ```
    pub fn label(&self) -> Option<String> {
        self.0.borrow().label().map(str::to_owned)
    }

    /// Names this value (shown by [`to_dot`](Value::to_dot) and in errors) and returns
    /// it, so it chains: `Value::new(2.0).with_label("x")`. To name a value you keep
    /// using, as Python's `e.label = 'e'` does, call [`set_label`](Value::set_label).
    ///
    /// ```
    /// let x = micrograd::Value::new(2.0).with_label("x");
    /// let y = (&x * 2.0).with_label("y");
    /// assert_eq!(y.label().as_deref(), Some("y"));
    /// ```
    pub fn with_label(self, label: impl Into<String>) -> Value {
        self.set_label(label);
        self
    }

    /// Names this value in place (Python's `e.label = 'e'`): shown by
    /// [`to_dot`](Value::to_dot) and in errors. Every handle to the node sees the name.
    ///
    /// ```
    /// use micrograd::Value;
    /// let a = Value::new(2.0);
    /// let e = &a * 3.0;
    /// e.set_label("e");                // Python: e.label = 'e'
    /// assert_eq!(e.label().as_deref(), Some("e"));
    /// ```
    pub fn set_label(&self, label: impl Into<String>) {
        self.0
            .borrow_mut()
            .extra
            .get_or_insert_with(Default::default)
            .label = Some(label.into());
        // (A new value, `Value::new(x).with_label(..)`, is on no tape yet.)
        if Rc::strong_count(&self.0) > 1 {
            watch::count_label_write();
        }
    }
}

impl Node {
    /// The label, if any.
    pub(crate) fn label(&self) -> Option<&str> {
        self.extra.as_ref().and_then(|e| e.label.as_deref())
    }
}

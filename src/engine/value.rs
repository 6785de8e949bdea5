//! `Value` and `Node`: the data structure of micrograd's `class Value`.
//!
//! Python keeps five attributes on each `Value` object (`data`, `grad`, `_backward`,
//! `_prev`, `_op`). Here they live in a [`Node`] behind `Rc<RefCell<..>>`, and
//! [`Value`] is a cheap, clonable handle to it.

use std::cell::{Ref, RefCell};
use std::mem::ManuallyDrop;
use std::rc::Rc;

use super::label::Extra;
use super::ops::Backward;
use super::parents::Parents;
use crate::watch;

/// A node's boxed backward closure (Python's `_backward`): given the node itself, it adds
/// `d out / d parent * out.grad` to each parent's grad. It is given the node rather
/// than capturing an `Rc` of it, which would be a reference cycle that never frees.
pub(crate) type BackwardFn = Box<dyn Backward>;

/// One node of the expression graph: what a Python `Value` object holds.
pub(crate) struct Node {
    /// The value computed by the forward pass (Python's `self.data`).
    pub(crate) data: f64,
    /// d root / d self, filled in by [`Value::backward`] (Python's `self.grad`).
    pub(crate) grad: f64,
    /// The values this one was computed from (Python's `self._prev`), freed without
    /// recursion by `drop.rs`.
    pub(crate) parents: ManuallyDrop<Parents>,
    /// Whether `backward()` has put this node in its topological order (Python's
    /// `v in visited`); false outside of `backward()`.
    pub(crate) visited: bool,
    /// Whether `backward()` computes this node's gradient (PyTorch's `requires_grad`):
    /// false for a [`Value::no_grad`] leaf and a result of such leaves only.
    pub(crate) requires_grad: bool,
    /// The chain rule for this node (Python's `self._backward`), which also names its
    /// op (Python's `self._op`); `None` for leaves.
    pub(crate) backward: Option<BackwardFn>,
    /// What few nodes have (`label.rs`): a label, an op's two constants.
    pub(crate) extra: Option<Box<Extra>>,
}

/// A scalar in an expression graph: micrograd's `Value`.
///
/// `Value` is a handle (`Rc<RefCell<Node>>`): cloning it is cheap and gives another
/// handle to the *same* node, as Python names do. Arithmetic on values builds the graph;
/// [`backward`](Value::backward) fills in every node's gradient.
///
/// ```
/// use micrograd::Value;
/// let a = Value::new(2.0);
/// let b = a.clone();                // the same node
/// b.set_data(3.0);
/// assert_eq!(a.data(), 3.0);
/// assert!(Value::ptr_eq(&a, &b));
/// ```
///
/// An op returns a new `Value` and never changes its operands, so a result left unused
/// is a mistake, and the compiler says so (`#[must_use]`):
///
/// ```compile_fail
/// #![deny(unused_must_use)]
/// let x = micrograd::Value::new(-1.0);
/// x.relu();            // error: unused `Value` that must be used
/// ```
#[derive(Clone)]
#[must_use = "an op returns a new Value and leaves its operands unchanged; `with_label` hands back the value it named (to name one in place: `set_label`)"]
pub struct Value(pub(crate) Rc<RefCell<Node>>);

impl Value {
    /// A leaf value: Python's `Value(data)`.
    ///
    /// ```
    /// let x = micrograd::Value::new(-4.0);
    /// assert_eq!((x.data(), x.grad(), x.op()), (-4.0, 0.0, ""));
    /// ```
    pub fn new(data: f64) -> Value {
        Value::from_node(Node {
            data,
            grad: 0.0,
            parents: ManuallyDrop::new(Parents::None),
            visited: false,
            requires_grad: true,
            backward: None,
            extra: None,
        })
    }

    pub(crate) fn from_node(node: Node) -> Value {
        Value(Rc::new(RefCell::new(node)))
    }

    pub(crate) fn node(&self) -> Ref<'_, Node> {
        self.0.borrow()
    }

    /// The value computed by the forward pass (Python's `.data`).
    ///
    /// For a parameter that a live [`tape::Training`](crate::tape::Training) has
    /// stepped, the training's current number: what its node gets when the training
    /// ends (the node itself is written then).
    ///
    /// ```
    /// let y = micrograd::Value::new(3.0) * 2.0;
    /// assert_eq!(y.data(), 6.0);
    /// ```
    #[inline]
    pub fn data(&self) -> f64 {
        watch::data_read(
            watch::trainings_live(),
            self.address(),
            self.0.borrow().data,
        )
    }

    /// The gradient of the last [`backward`](Value::backward) root with respect to this
    /// value (Python's `.grad`); 0 until a backward pass reaches it.
    ///
    /// ```
    /// let x = micrograd::Value::new(3.0);
    /// let y = &x * &x;
    /// y.backward();
    /// assert_eq!(x.grad(), 6.0);
    /// ```
    #[inline]
    pub fn grad(&self) -> f64 {
        self.0.borrow().grad
    }
}

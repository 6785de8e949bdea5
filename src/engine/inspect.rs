//! Reading a node: its op (Python's `_op`), its parents (`_prev`), its identity
//! (`id(v)`, `a is b`), and the closure it carries, with what a reader asks of that
//! closure ([`Reader`]).

use std::any::Any;
use std::borrow::Cow;
use std::rc::Rc;

use super::custom::Custom;
use super::ops::Backward;
use super::parents::Parents;
use super::value::{Node, Value};
use crate::rules::Rule;

/// What a reader of the graph (the tape, the pictures) asks of a node's closure, each
/// with a default: the op's rule and name, and, for the compact nodes of `src/fast/`,
/// Python's parents of the node. With [`Node::closure`], with which a floor above
/// finds a closure type of its own, and [`freed`](Reader::freed), which the drop
/// calls, these are the engine's hook for the floors above it.
pub(crate) trait Reader {
    /// The rule of the node's op (`None` for a sum, a custom op or a neuron node).
    fn rule(&self) -> Option<Rule> {
        None
    }

    /// The op's name, as [`Value::op`] shows it (Python's `_op`): its rule's.
    fn name(&self) -> &'static str {
        self.rule().map_or("rule", Rule::name)
    }

    /// For a node of `src/fast/` whose parents are not Python's (a neuron node's are
    /// its two lists; a node that keeps an `f64` operand lacks its leaf): Python's
    /// parents of it, for a reader of the graph ([`Node::parent_list`]), the same
    /// values at every read. `None` for every other node.
    fn python_parents(&self, _out: &Node) -> Option<Vec<Value>> {
        None
    }

    /// For a node that keeps an `f64` operand in place of Python's leaf (`src/fast/`):
    /// the number, and whether it is the first operand (the leaf is then Python's
    /// first parent, else its last), which `try_backward` checks where Python's walk
    /// meets the leaf. `None` for every other node.
    fn operand(&self, _out: &Node) -> Option<(f64, bool)> {
        None
    }

    /// For a node that keeps an `f64` operand in place of Python's leaf (`src/fast/`):
    /// that leaf, if a reader has been shown it (none is made here). `try_backward`
    /// checks its gradient nowhere, as it does not check the number's own. `None` for
    /// every other node.
    fn shown_operand(&self, _out: &Node) -> Option<Value> {
        None
    }

    /// The node `out`, which keeps a number beside its parent (`Parents::Constant`), is
    /// being freed: a closure that keeps something for it outside the graph (the leaf
    /// `src/fast/` shows for an `f64` operand) lets go of it. The drop calls this for
    /// such nodes only, and nothing else does.
    #[inline]
    fn freed(&self, _out: &Node) {}
}

/// A closure written in an op's method gives no more than the defaults.
impl<F: Fn(&Node)> Reader for F {}

impl Value {
    /// The values this one was computed from, in the order the operation took them
    /// (Python's `._prev`, which is a `set`; here `a * a` lists `a` twice).
    ///
    /// ```
    /// use micrograd::Value;
    /// let a = Value::new(2.0);
    /// let b = Value::new(3.0);
    /// let c = &a * &b;
    /// let p = c.parents();
    /// assert!(Value::ptr_eq(&p[0], &a) && Value::ptr_eq(&p[1], &b));
    /// ```
    ///
    /// For an `f64` operand, the leaf Python makes for it (`&a * 2.0` keeps the `2.0` in
    /// its node and shows that leaf when read): the same leaf at every read, while the
    /// node lives. Reading changes no node.
    ///
    /// ```
    /// # use micrograd::Value;
    /// # let a = Value::new(2.0);
    /// let d = &a * 2.0;
    /// let two = &d.parents()[1];                     // Python's Value(2.0)
    /// assert_eq!((two.op(), two.data()), ("", 2.0));
    /// assert!(Value::ptr_eq(two, &d.parents()[1]));
    /// ```
    pub fn parents(&self) -> Vec<Value> {
        self.node().parent_list().into_owned()
    }

    /// The operation that produced this value: `"+"`, `"*"`, `"relu"`, ...; `""` for a
    /// leaf (Python's `._op`).
    ///
    /// ```
    /// let a = micrograd::Value::new(1.0);
    /// assert_eq!(a.op(), "");
    /// assert_eq!((&a + 1.0).op(), "+");
    /// assert_eq!(a.relu().op(), "relu");
    /// ```
    pub fn op(&self) -> &'static str {
        self.0.borrow().op_name()
    }

    /// A number naming this node while it lives (Python's `id(v)`): equal for every
    /// handle to the same node, different for two nodes alive at once. It is the key
    /// for a set of visited nodes, as Python's `visited = set()` in `build_topo` holds
    /// `Value`s by identity. Once a node is freed, a new one may get its number.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use micrograd::Value;
    /// let a = Value::new(1.0);
    /// let b = &a + &a;
    /// let mut visited = HashSet::new();
    /// for v in b.parents() {
    ///     visited.insert(v.id());            // a twice: one entry
    /// }
    /// assert_eq!(visited.len(), 1);
    /// assert!(visited.contains(&a.id()) && a.id() != b.id());
    /// ```
    pub fn id(&self) -> usize {
        self.address() as usize
    }

    /// Whether `a` and `b` are handles to the same node (Python's `a is b`).
    ///
    /// ```
    /// use micrograd::Value;
    /// let a = Value::new(1.0);
    /// assert!(Value::ptr_eq(&a, &a.clone()));
    /// assert!(!Value::ptr_eq(&a, &Value::new(1.0)));
    /// ```
    pub fn ptr_eq(a: &Value, b: &Value) -> bool {
        Rc::ptr_eq(&a.0, &b.0)
    }

    /// The address of the node: equal for two handles to the same node (a hash key
    /// for "seen" sets and node indices).
    pub(crate) fn address(&self) -> *const () {
        Rc::as_ptr(&self.0).cast()
    }
}

impl Node {
    /// Whether this is a leaf: made by the user, not by an op (Python's `_op == ''`).
    pub(crate) fn is_leaf(&self) -> bool {
        self.backward.is_none()
    }

    /// The parents, in the order the operation received them (a node of `src/fast/`
    /// may keep others than Python's: a reader asks [`parent_list`](Node::parent_list)).
    pub(crate) fn parents(&self) -> &[Value] {
        self.parents.as_slice()
    }

    /// Every parent, in the order the operation received them, for a reader of the
    /// graph: Python's parents, where the node's closure lists them
    /// (`Reader::python_parents`: a neuron node's `[b, w0, x0, w1, x1, ...]`, made
    /// for the reader from its shared lists; an `f64` operand's leaf, shown beside
    /// the graph), else the node's own. The node is left as it is.
    pub(crate) fn parent_list(&self) -> Cow<'_, [Value]> {
        let python = self.backward.as_ref().and_then(|b| b.python_parents(self));
        python.map_or(Cow::Borrowed(self.parents()), Cow::Owned)
    }

    /// Takes the parents out of this node, which is being freed (`drop.rs`). A node that
    /// keeps a number beside its parent first tells its closure ([`Reader::freed`]: the
    /// one hook by which a floor above lets go of what it keeps for a node outside the
    /// graph).
    #[inline]
    pub(crate) fn take_parents(&mut self) -> Parents {
        if let (Parents::Constant(..), Some(closure)) = (&*self.parents, &self.backward) {
            closure.freed(self);
        }
        self.parents.take()
    }

    /// The closures of a [`Value::custom`] node (`None` for every other node): its
    /// backward closure.
    pub(crate) fn custom(&self) -> Option<&Custom> {
        self.closure::<Custom>()
    }

    /// The node's closure, if it is a `T` (a [`Value::custom`] op's, a marked node's).
    pub(crate) fn closure<T: Backward>(&self) -> Option<&T> {
        let closure: &dyn Any = self.backward.as_deref()?;
        closure.downcast_ref()
    }

    /// The leaf shown for the number this node keeps, if one has been
    /// ([`Reader::shown_operand`]).
    pub(crate) fn shown_operand(&self) -> Option<Value> {
        self.backward.as_ref()?.shown_operand(self)
    }

    /// The number the node keeps in place of Python's leaf, and whether it is the first
    /// operand ([`Reader::operand`]).
    pub(crate) fn operand(&self) -> Option<(f64, bool)> {
        self.backward.as_ref()?.operand(self)
    }

    /// The rule of a one- or two-parent op, which its closure carries (`None` for
    /// every other node).
    pub(crate) fn rule(&self) -> Option<Rule> {
        self.backward.as_ref().and_then(|b| b.rule())
    }

    /// The op's name as [`Value::op`] shows it (Python's `_op` string, or the name
    /// given to [`Value::custom`]), which the node's closure gives; `""` for a leaf.
    pub(crate) fn op_name(&self) -> &'static str {
        self.backward.as_ref().map_or("", |b| b.name())
    }
}

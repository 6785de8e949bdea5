//! Anomaly detection: [`Value::try_backward`], `backward()` that stops at the first
//! NaN or infinity and says which op and label made it.

use std::borrow::Cow;

use super::value::{Node, Value};
use super::walk::Walk;
use crate::address::AddressSet;
use crate::error::{Error, Pass};

impl Value {
    /// [`backward`](Value::backward) with anomaly detection: stops at the first NaN or
    /// infinity and returns [`Error::NonFinite`] naming the op and label that produced it.
    ///
    /// It reports what reaches a value you hold. The leaves Python makes for `f64`
    /// operands (the `0.0` in `0.0 * &big`) are not checked, also where you read one
    /// and build on it: their gradients are computed (as in Python), but with `big =
    /// 1e150`, `(0.0 * &big) * &big * &big` leaves `∞` on that `0.0` and finite
    /// gradients on `big` and every node you can reach, and is no error. A non-finite gradient on
    /// any other node always spreads to the leaves under it (`∞ · 0` is NaN), so
    /// nothing else is skipped.
    ///
    /// Before any gradient is touched, the forward values are checked: a non-finite value
    /// computed from finite parents (or a non-finite leaf) is reported as made in the
    /// forward pass, and no backward rule runs. During the backward pass, the first rule
    /// that leaves a non-finite grad on a parent is reported and no further rule runs (a
    /// parent marked [`no_grad`](Value::no_grad) is not looked at: no rule adds to it).
    ///
    /// ```
    /// use micrograd::{Error, Value};
    /// let x = Value::new(-1.0).with_label("x");
    /// let y = x.ln().with_label("y");          // ln(-1) = NaN
    /// let err = (&y * 2.0).try_backward().unwrap_err();
    /// assert!(matches!(err, Error::NonFinite { op: "ln", .. }));
    /// assert!(err.to_string().contains("`ln`"));
    /// assert_eq!(x.grad(), 0.0);               // nothing was spread
    /// ```
    pub fn try_backward(&self) -> Result<(), Error> {
        let mut checked = Checked {
            error: None,
            operands: AddressSet::default(),
        };
        self.backward_with(&mut checked)
    }
}

/// [`Value::try_backward`]'s walk: every node as a reader lists its parents
/// (`Node::parent_list`: a neuron node's weights and inputs in Python's order), each
/// number checked in the order Python's walk meets it, so that the first value that is
/// not finite is Python's; the node is left as it is.
struct Checked {
    /// The first forward value found not finite although its parents are.
    error: Option<Error>,
    /// The leaves shown for the `f64` operands of the graph's nodes, whose gradients
    /// are not checked, wherever they are read (see [`Value::try_backward`]).
    operands: AddressSet,
}

impl Walk for Checked {
    fn enter(&mut self, node: &mut Node) {
        if self.error.is_none() {
            self.error = entered(node);
        }
        if let Some(leaf) = node.shown_operand() {
            self.operands.insert(leaf.address());
        }
    }

    fn children<'n>(&self, node: &'n Node) -> Cow<'n, [Value]> {
        checked_parents(node)
    }

    fn append(&mut self, v: &Value) {
        if self.error.is_none() {
            self.error = appended(&v.node());
        }
    }

    fn walked(&mut self) -> Result<(), Error> {
        self.error.take().map_or(Ok(()), Err)
    }

    fn ran(&mut self, node: &Node) -> Result<(), Error> {
        backward_anomaly(node, &self.operands).map_or(Ok(()), Err)
    }
}

/// The parents [`Checked`] reads: those a reader lists (`Node::parent_list`), but for
/// a node that keeps a number in place of Python's leaf, its own parent alone (the
/// number is checked where Python's walk meets the leaf: no leaf is shown for it).
fn checked_parents(node: &Node) -> Cow<'_, [Value]> {
    match node.operand() {
        Some(_) => Cow::Borrowed(node.parents()),
        None => node.parent_list(),
    }
}

/// The error `build_topo` reports as it first reaches `node` (Python's `build_topo(v)`):
/// for a node that keeps a number in place of Python's first parent (`Node::operand`),
/// that leaf's, which Python appends right then.
fn entered(node: &Node) -> Option<Error> {
    match node.operand() {
        Some((c, true)) => number_anomaly(c),
        _ => None,
    }
}

/// The error `build_topo` reports as it appends `node` to `topo`, after its parents
/// (listed as Python's, `Node::parent_list`): for a node that keeps a number in place
/// of Python's last parent, that leaf's (Python appends it just before); else the
/// node's forward value, if that is not finite although its parents' are.
fn appended(node: &Node) -> Option<Error> {
    let operand = node.operand();
    match operand {
        Some((c, false)) => number_anomaly(c),
        _ => None,
    }
    .or_else(|| forward_anomaly(node, operand))
}

/// The error for a node whose forward value is not finite although its parents (and
/// the number it keeps in place of one, `operand`) are.
fn forward_anomaly(node: &Node, operand: Option<(f64, bool)>) -> Option<Error> {
    let made_here = !node.data.is_finite()
        && checked_parents(node).iter().all(|p| p.data().is_finite())
        && operand.is_none_or(|(c, _)| c.is_finite());
    made_here.then(|| Error::NonFinite {
        pass: Pass::Forward,
        op: node.op_name(),
        label: node.label().map(str::to_owned),
        value: node.data,
    })
}

/// The error for a number kept in place of Python's leaf (`&x * f64::NAN`) that is not
/// finite: what [`forward_anomaly`] reports for that leaf.
fn number_anomaly(c: f64) -> Option<Error> {
    (!c.is_finite()).then_some(Error::NonFinite {
        pass: Pass::Forward,
        op: "",
        label: None,
        value: c,
    })
}

/// The error for a backward rule that just left a non-finite grad on a parent, unless
/// that parent needs no gradient (no rule adds to its grad: a number there is not the
/// rule's) or is the leaf shown for an `f64` operand (one of `operands`).
fn backward_anomaly(node: &Node, operands: &AddressSet) -> Option<Error> {
    let bad = (checked_parents(node).iter())
        .filter(|p| p.node().requires_grad && !operands.contains(&p.address()))
        .map(Value::grad)
        .find(|g| !g.is_finite())?;
    Some(Error::NonFinite {
        pass: Pass::Backward,
        op: node.op_name(),
        label: node.label().map(str::to_owned),
        value: bad,
    })
}

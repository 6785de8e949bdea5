//! `backward()`: Python's `build_topo`, then each node's rule in reverse order.
//!
//! ```python
//! def backward(self):                        # fn run_backward
//!     topo = []                              # build_topo's result
//!     visited = set()                        # Node::visited, a mark in each node
//!     def build_topo(v):                     # fn build_topo, with a stack of its own
//!         if v not in visited:               # if node.visited { continue }
//!             visited.add(v)                 # node.visited = true
//!             for child in v._prev:          # node.parents.walked()
//!                 build_topo(child)          # Visit::Enter(child)
//!             topo.append(v)                 # Visit::Append(v)
//!     build_topo(self)
//!     self.grad = 1
//!     for v in reversed(topo):               # while let Some(v) = topo.pop()
//!         v._backward()                      # run_rule(&node)
//! ```
//!
//! Two things differ. Python's recursion stops at about 1,000 levels, and Rust's would
//! overflow the thread's stack, so `build_topo` keeps its own stack: each entry is a
//! call still to make (`build_topo(child)`) or a value whose children are done (its
//! `topo.append(v)`); a node's children go on it in reverse, so that they are visited in
//! `_prev`'s order and `topo` is the post-order Python's recursion makes. And `visited`
//! is a mark in each node, cleared again as the loop reaches the node, so that the next
//! `backward()` finds the graph unmarked. `topo` costs 8 bytes a node while the pass
//! runs. One thing is left out: a neuron node's parameters, when they are all leaves
//! (`Parents::walked`). A leaf has no rule, so `topo` without it runs the same rules in
//! the same order; a network's weights are then not visited once per sample (without
//! it, the demo's step rebuilt every time took 15-20% longer).

use super::op::Op;
use super::parents::Side;
use super::value::{Node, Value};
use crate::error::{Error, Pass};

impl Value {
    /// Computes the gradient of this value with respect to every value it was computed
    /// from: Python's `backward()`.
    ///
    /// Sets this value's grad to 1, then runs each node's backward rule once, in reverse
    /// topological order, *adding* into each grad (`grad += ...`), as micrograd does.
    ///
    /// **A second call** on the same graph adds again, and the inner nodes also kept
    /// their grads from the first call, so the leaves get more than twice the first
    /// gradient. For graphs of `+`, `*`, `powf` (Python's `**`) and `relu` the numbers
    /// are Python's: `y = (x * 2) * 5` gives x.grad 10 after one call and 30 after two
    /// in both. For `-` and `/` they are not: Python builds `a - b` as `a + (b * -1)` and
    /// `a / b` as `a * b**-1`, and those hidden nodes keep their grads too, while here
    /// each is one node. With a = 3, b = 2, two `backward()` calls give
    ///
    /// | expression | Python micrograd 0.1.0 (a.grad, b.grad) | here |
    /// |------------|-----------------------------------------|------|
    /// | `a - b` | 2, -3 | 2, -2 |
    /// | `a / b` | 1.0, -2.25 | 1.0, -1.5 |
    ///
    /// (Python's numbers: `scripts/ci/python_reference.py`, lines `twice_sub` and
    /// `twice_div` of `scripts/ci/python_reference.out`; after one call both agree:
    /// 1, -1 and 0.5, -0.75.) A second `backward()` without a reset is rarely what you
    /// want: to reuse a graph, reset it first with
    /// [`zero_grad_graph`](Value::zero_grad_graph); in training, build a new graph each
    /// step and zero the parameters' grads (`Module::zero_grad`), as micrograd's demo does.
    ///
    /// ```
    /// use micrograd::Value;
    /// let (a, b) = (Value::new(3.0), Value::new(2.0));
    /// let y = &a - &b;
    /// y.backward();
    /// y.backward();
    /// assert_eq!((a.grad(), b.grad()), (2.0, -2.0));   // Python: 2, -3
    /// let (a, b) = (Value::new(3.0), Value::new(2.0));
    /// let y = &a / &b;
    /// y.backward();
    /// y.backward();
    /// assert_eq!((a.grad(), b.grad()), (1.0, -1.5));   // Python: 1.0, -2.25
    /// ```
    ///
    /// NaN and infinities spread silently, as with `f64`; use
    /// [`try_backward`](Value::try_backward) to have them reported.
    ///
    /// ```
    /// use micrograd::Value;
    /// let x = Value::new(-4.0);
    /// let y = (&x * 2.0 + 2.0 + &x).relu();   // unused in the gradient: relu'(<0) = 0
    /// let z = &x * &x + &y;                   // dz/dx = 2x = -8
    /// z.backward();
    /// assert_eq!(x.grad(), -8.0);
    /// z.zero_grad_graph();
    /// z.backward();                           // same result again after a reset
    /// assert_eq!(x.grad(), -8.0);
    /// ```
    pub fn backward(&self) {
        // Without checking, no error can arise.
        let _ = self.run_backward(false);
    }

    /// [`backward`](Value::backward) with anomaly detection: stops at the first NaN or
    /// infinity and returns [`Error::NonFinite`] naming the op and label that produced it.
    ///
    /// It reports what reaches a value you hold. The constants the engine makes for `f64`
    /// operands (the `0.0` in `0.0 * &big`) are leaves no one else holds, so their
    /// gradients are computed (as in Python) but not checked: with `big = 1e150`,
    /// `(0.0 * &big) * &big * &big` leaves `∞` on that `0.0` and finite gradients on
    /// `big` and every node you can reach, and is no error. A non-finite gradient on
    /// any other node always spreads to the leaves under it (`∞ · 0` is NaN), so
    /// nothing else is skipped.
    ///
    /// Before any gradient is touched, the forward values are checked: a non-finite value
    /// computed from finite parents (or a non-finite leaf) is reported as made in the
    /// forward pass, and no backward rule runs. During the backward pass, the first rule
    /// that leaves a non-finite grad on a parent is reported and no further rule runs.
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
        self.run_backward(true)
    }

    fn run_backward(&self, check: bool) -> Result<(), Error> {
        let (topo, error) = build_topo(self, Graph::Compact, check);
        // (Declared before the loop: clears the marks the loop does not reach when an
        // error stops it or a rule panics.)
        let mut topo = Unmark(topo);
        if let Some(error) = error {
            return Err(error);
        }
        self.0.borrow_mut().grad = 1.0;
        while let Some(v) = topo.0.pop() {
            let mut node = v.0.borrow_mut();
            node.visited = false;
            run_rule(&node);
            if check {
                if let Some(error) = backward_anomaly(&node) {
                    return Err(error);
                }
            }
        }
        Ok(())
    }

    /// Runs this node's own backward rule once, and nothing else: adds
    /// `d self / d parent * self.grad` to each parent's grad (Python's `o._backward()`).
    /// A leaf has no rule: nothing happens.
    ///
    /// With [`set_grad`](Value::set_grad) and [`topo`](Value::topo), this is
    /// backpropagation by hand, as in the lecture: seed the output's grad with 1, then
    /// call `backward_step` on each node from the output down. [`backward`](Value::backward)
    /// does exactly that (`self.grad = 1; for v in reversed(topo): v._backward()`).
    ///
    /// ```
    /// use micrograd::Value;
    /// // Python: a = Value(2.0); b = Value(-3.0); c = Value(10.0); e = a*b; d = e + c
    /// let (a, b, c) = (Value::new(2.0), Value::new(-3.0), Value::new(10.0));
    /// let e = &a * &b;
    /// let d = &e + &c;
    /// d.set_grad(1.0);          // d.grad = 1.0
    /// d.backward_step();        // d._backward(): e.grad += 1.0, c.grad += 1.0
    /// assert_eq!((e.grad(), c.grad(), a.grad()), (1.0, 1.0, 0.0));
    /// e.backward_step();        // e._backward(): a.grad += b.data * e.grad, ...
    /// assert_eq!((a.grad(), b.grad()), (-3.0, 2.0));
    /// ```
    pub fn backward_step(&self) {
        run_rule(&self.node());
    }

    /// Sets the grad of this value and of every value it was computed from to 0, so
    /// that the same graph can be differentiated again.
    ///
    /// ```
    /// use micrograd::Value;
    /// let x = Value::new(3.0);
    /// let y = &x * &x;
    /// y.backward();
    /// y.zero_grad_graph();
    /// assert_eq!((x.grad(), y.grad()), (0.0, 0.0));
    /// ```
    pub fn zero_grad_graph(&self) {
        // (Python's graph, as `topo()` walks it: a neuron's parameters too.)
        self.topo().iter().for_each(Value::zero_grad);
    }
}

impl Value {
    /// The graph under this value in topological order: every value it was computed
    /// from, each once, every one after its parents, and this value last (so the leaves
    /// come before everything computed from them). Python's `topo` list in `backward()`:
    /// running [`backward_step`](Value::backward_step) on it in reverse, after
    /// `set_grad(1.0)`, is backpropagation.
    ///
    /// It is the post-order of a depth-first search over the parents in the order the
    /// op took them: Python's `build_topo`, the one [`backward`](Value::backward) runs,
    /// over Python's graph (a node that keeps an `f64` operand or a neuron's lists in
    /// a compact form shows them as Python's nodes first): linear in the
    /// size of the graph, at any depth.
    ///
    /// [`backward`](Value::backward) runs the rules in this order, reversed, so the loop
    /// below gives its gradients bit for bit.
    ///
    /// ```
    /// use micrograd::Value;
    /// let a = Value::new(2.0).with_label("a");
    /// let b = Value::new(-3.0).with_label("b");
    /// let e = (&a * &b).with_label("e");
    /// let d = (&e + &a).with_label("d");            // `a` is used twice, listed once
    /// let labels: Vec<_> = d.topo().iter().map(|v| v.label().unwrap()).collect();
    /// assert_eq!(labels, ["a", "b", "e", "d"]);
    /// // Python: self.grad = 1; for v in reversed(topo): v._backward()
    /// d.set_grad(1.0);
    /// for v in d.topo().iter().rev() {
    ///     v.backward_step();
    /// }
    /// assert_eq!((a.grad(), b.grad()), (-3.0 + 1.0, 2.0));
    /// ```
    pub fn topo(&self) -> Vec<Value> {
        let (topo, _) = build_topo(self, Graph::Python, false);
        for v in &topo {
            v.0.borrow_mut().visited = false;
        }
        topo
    }
}

impl Value {
    /// Puts Python's leaf back where this node keeps an `f64` operand in its place
    /// (`src/fast/constant.rs`): the node's closure knows how (`Backward::python_graph`).
    /// Every walk that shows or compiles the graph calls it on each node before reading
    /// its parents ([`Value::topo`]); `backward()` and the drop read the compact forms as
    /// they are.
    pub(crate) fn expand(&self) {
        let mut node = self.0.borrow_mut();
        let python = (node.backward.as_ref()).and_then(|rule| rule.python_graph(&node));
        if let Some((parents, backward)) = python {
            *node.parents = parents;
            node.backward = Some(backward);
        }
    }
}

/// One step of [`build_topo`]: Python's call `build_topo(v)`, or its `topo.append(v)`
/// once the calls for `v`'s children have returned.
enum Visit {
    /// `build_topo(v)`.
    Enter(Value),
    /// `topo.append(v)`.
    Append(Value),
}

/// Which graph [`build_topo`] walks.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Graph {
    /// The nodes as they are, a neuron's parameters left out when all are leaves
    /// (`Parents::walked`): what `backward()` runs.
    Compact,
    /// Python's graph: each node [expanded](Value::expand) before its parents are
    /// read, every parent listed ([`Value::topo`]).
    Python,
}

/// Python's `build_topo(root)`: every value under `root`, each once, each after its
/// parents (the post-order of a depth-first search over `_prev` in order), each marked
/// `visited`. With `check`, also the first forward value that is not finite although
/// its parents are, in that order (see [`Value::try_backward`]).
pub(crate) fn build_topo(root: &Value, graph: Graph, check: bool) -> (Vec<Value>, Option<Error>) {
    let mut topo = Vec::new();
    let mut error = None;
    let mut stack = vec![Visit::Enter(root.clone())];
    while let Some(visit) = stack.pop() {
        match visit {
            Visit::Enter(v) => {
                let mut node = v.0.borrow_mut();
                if node.visited {
                    continue;
                }
                node.visited = true;
                if graph == Graph::Python {
                    // (Once a node, as it is first reached: `expand` borrows it itself.)
                    drop(node);
                    v.expand();
                    node = v.0.borrow_mut();
                }
                if let (true, None, Some((c, Side::Left))) =
                    (check, &error, node.parents.constant())
                {
                    // (Python's leaf for `c` is `_prev`'s first: appended right now.)
                    error = constant_anomaly(c);
                }
                stack.push(Visit::Append(v.clone()));
                // (Pushed last to first, so popped first to last; a child visited already
                // would be skipped when popped, so it is not pushed.)
                let children = match graph {
                    Graph::Compact => node.parents.walked(),
                    Graph::Python => node.parents.all(),
                };
                for child in children.rev() {
                    if !child.node().visited {
                        stack.push(Visit::Enter(child.clone()));
                    }
                }
            }
            Visit::Append(v) => {
                if check && error.is_none() {
                    let node = v.node();
                    if let Some((c, Side::Right)) = node.parents.constant() {
                        // (Python's leaf for `c`, `_prev`'s last, was appended just before.)
                        error = constant_anomaly(c);
                    }
                    if error.is_none() {
                        error = forward_anomaly(&node);
                    }
                }
                topo.push(v);
            }
        }
    }
    (topo, error)
}

/// The part of `topo` [`Value::backward`]'s loop has not reached: clears those nodes'
/// `visited` marks when it is dropped, so that they are unmarked for the next pass also
/// after an error, or a panic in a rule (a [`Value::custom`] op's `local_grads`, say,
/// which the caller may catch). A node still borrowed is skipped (a panic while
/// unwinding would abort): none is, once the loop has unwound.
struct Unmark(Vec<Value>);

impl Drop for Unmark {
    fn drop(&mut self) {
        for v in &self.0 {
            if let Ok(mut node) = v.0.try_borrow_mut() {
                node.visited = false;
            }
        }
    }
}

/// Runs a node's rule (Python's `_backward()`), unless it needs no gradient (then it
/// has nothing to pass on) or is a leaf.
#[inline]
fn run_rule(node: &Node) {
    if let (Some(rule), true) = (&node.backward, node.requires_grad) {
        rule.run(node);
    }
}

/// The error for a node whose forward value is not finite although its parents are.
fn forward_anomaly(node: &Node) -> Option<Error> {
    let made_here = !node.data.is_finite()
        && node.parents.all().all(|p| p.data().is_finite())
        && node.parents.constant().is_none_or(|(c, _)| c.is_finite());
    made_here.then(|| Error::NonFinite {
        pass: Pass::Forward,
        op: node.op_name(),
        label: node.label().map(str::to_owned),
        value: node.data,
    })
}

/// The error for a constant operand (`&x * f64::NAN`) that is not finite: what
/// [`forward_anomaly`] reports for Python's leaf holding it.
fn constant_anomaly(c: f64) -> Option<Error> {
    (!c.is_finite()).then_some(Error::NonFinite {
        pass: Pass::Forward,
        op: Op::Leaf.symbol(),
        label: None,
        value: c,
    })
}

/// The error for a backward rule that just left a non-finite grad on a parent, unless
/// that parent is a hidden constant (see [`try_backward`](Value::try_backward)).
fn backward_anomaly(node: &Node) -> Option<Error> {
    let bad = node
        .parents
        .all()
        .filter(|p| !p.node().hidden)
        .map(Value::grad)
        .find(|g| !g.is_finite())?;
    Some(Error::NonFinite {
        pass: Pass::Backward,
        op: node.op_name(),
        label: node.label().map(str::to_owned),
        value: bad,
    })
}

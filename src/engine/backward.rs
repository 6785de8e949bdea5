//! `backward()`: reverse-mode differentiation over the graph, without recursion.
//!
//! Python's `backward` builds a topological order with a recursive DFS (`build_topo`),
//! then runs `_backward` on each node in reverse. Recursion dies at depth ~1000 in
//! Python, and an explicit list of all nodes costs 8 bytes a node plus the DFS stack.
//! Here two sweeps with an explicit stack do the same job:
//!
//! 1. a depth-first sweep from the root counts, for each node, how many consumers it has
//!    inside this graph (`pending`);
//! 2. a second sweep seeds `root.grad = 1` and runs a node's backward rule only once all
//!    of its consumers have run theirs (their `pending` count reached 0), which is
//!    exactly reverse topological order (Kahn's algorithm).
//!
//! Both sweeps are linear in the size of the graph, and the stacks only ever hold the
//! frontier of the walk, so a chain of millions of nodes needs almost no extra memory.

use super::op::Op;
use super::value::{Node, Side, Value};
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
    /// (Python's numbers: `scripts/python_reference.py`, lines `twice_sub` and
    /// `twice_div` of `scripts/python_reference.out`; after one call both agree:
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
        let mut error = None;

        // Sweep 1: count each node's consumers inside this graph. A node is pushed the
        // first time it is reached (its count goes from 0 to 1), so each is expanded once.
        let mut stack = vec![self.clone()];
        while let Some(value) = stack.pop() {
            let node = value.node();
            if check && error.is_none() {
                error = forward_anomaly(&node);
                // (A constant operand is checked where Python's leaf for it would be.)
                if let (None, Some((c, Side::Left))) = (&error, node.parents.constant()) {
                    error = constant_anomaly(c);
                }
            }
            for parent in node.parents() {
                let mut p = parent.0.borrow_mut();
                p.pending += 1;
                if p.pending == 1 {
                    if p.op != Op::Leaf {
                        stack.push(parent.clone());
                    } else if check && error.is_none() {
                        // (A leaf has nothing to visit: checked here, not pushed.)
                        error = forward_anomaly(&p);
                    }
                }
            }
            if let (true, None, Some((c, Side::Right))) = (check, &error, node.parents.constant()) {
                error = constant_anomaly(c);
            }
        }

        // Sweep 2: Python's `self.grad = 1; for v in reversed(topo): v._backward()`.
        // A node runs once its last consumer has run. After an error the sweep still
        // finishes (without running rules) so that every count is back to 0.
        self.0.borrow_mut().grad = 1.0;
        stack.push(self.clone());
        while let Some(value) = stack.pop() {
            let node = value.node();
            if error.is_none() {
                // (A node that needs no gradient has nothing to pass on.)
                if let (Some(rule), true) = (&node.backward, node.requires_grad) {
                    rule(&node);
                }
                if check {
                    error = backward_anomaly(&node);
                }
            }
            for parent in node.parents() {
                let mut p = parent.0.borrow_mut();
                p.pending -= 1;
                // (A leaf has no rule and no parents: nothing to run.)
                if p.pending == 0 && p.op != Op::Leaf {
                    stack.push(parent.clone());
                }
            }
        }
        error.map_or(Ok(()), Err)
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
        let node = self.node();
        if let (Some(rule), true) = (&node.backward, node.requires_grad) {
            rule(&node);
        }
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
        super::walk::for_each_node(self, |v| v.zero_grad());
    }
}

/// The error for a node whose forward value is not finite although its parents are.
fn forward_anomaly(node: &Node) -> Option<Error> {
    let made_here = !node.data.is_finite()
        && node.parents().iter().all(|p| p.data().is_finite())
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
        .parents()
        .iter()
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

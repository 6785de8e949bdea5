//! Backpropagation by hand, as in the lecture: [`Value::topo`] (Python's `topo` list),
//! [`Value::backward_step`] (one node's `_backward()`), and
//! [`Value::zero_grad_graph`].

use std::borrow::Cow;

use super::backward::{build_topo, run_rule};
use super::value::{Node, Value};
use super::walk::Walk;

impl Value {
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
    /// over Python's graph (a node that keeps an `f64` operand or a neuron's lists in a
    /// compact form lists Python's parents, and is left as it is): linear in the size
    /// of the graph, at any depth.
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
        let topo = build_topo(self, &mut PythonGraph);
        for v in &topo {
            v.0.borrow_mut().visited = false;
        }
        topo
    }
}

/// [`Value::topo`]'s walk: Python's graph, every parent listed as a reader lists it
/// (`Node::parent_list`).
struct PythonGraph;

impl Walk for PythonGraph {
    fn children<'n>(&self, node: &'n Node) -> Cow<'n, [Value]> {
        node.parent_list()
    }
}

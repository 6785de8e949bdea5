//! Visiting every node of a graph once, with an explicit stack (no recursion).

use super::address::AddressSet;
use super::backward::Graph;
use super::value::Value;

/// Calls `f` once on `root` and once on every value it was computed from, parents
/// after children (depth-first), in Python's graph (each node is
/// [expanded](Value::expand) first: an `f64` operand's leaf, a neuron's list of parents). Linear in the graph size: visited nodes are found in a
/// hash set of node addresses, not by scanning a list.
pub(crate) fn for_each_node(root: &Value, mut f: impl FnMut(&Value)) {
    let mut seen = AddressSet::default();
    let mut stack = vec![root.clone()];
    seen.insert(root.address());
    while let Some(value) = stack.pop() {
        // (Python's graph: see `Value::expand`.)
        value.expand();
        f(&value);
        for parent in value.node().parents() {
            if seen.insert(parent.address()) {
                stack.push(parent.clone());
            }
        }
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
        let (topo, _) = super::backward::build_topo(self, Graph::Python, false);
        for v in &topo {
            v.0.borrow_mut().visited = false;
        }
        topo
    }
}

//! `backward()`: Python's `build_topo`, then each node's closure in reverse order.
//!
//! ```python
//! def backward(self):                        # fn backward
//!     topo = []                              # build_topo's result
//!     visited = set()                        # Node::visited, a mark in each node
//!     def build_topo(v):                     # fn build_topo, with a stack of its own
//!         if v not in visited:               # if node.visited { continue }
//!             visited.add(v)                 # node.visited = true
//!             for child in v._prev:          # node.parents()
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
//! runs.

use super::value::{Node, Value};
use super::walk::{Nodes, Unmark, Walk};
use crate::error::Error;

impl Value {
    /// Computes the gradient of this value with respect to every value it was computed
    /// from: Python's `backward()`.
    ///
    /// Sets this value's grad to 1, then runs each node's backward rule once, in reverse
    /// topological order, *adding* into each grad (`grad += ...`), as micrograd does.
    /// A second call adds again, as Python's does (for `-`, `/`, `sum()` and
    /// `product()` the numbers then differ from Python's: `docs/python-to-rust.md`).
    /// To reuse a graph, reset it with [`zero_grad_graph`](Value::zero_grad_graph); in
    /// training, build a new graph each step and zero the parameters' grads.
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
        // (The nodes as they are: no walk of this kind stops with an error.)
        let _ = self.backward_with(&mut Nodes);
    }

    /// `backward()` over the graph as `walk` reads it, stopping at the first error
    /// `walk` reports ([`Value::try_backward`]'s walk does).
    pub(super) fn backward_with(&self, walk: &mut impl Walk) -> Result<(), Error> {
        // (Made before the loop: clears the marks the loop does not reach when an error
        // stops it or a rule panics.)
        let mut topo = Unmark(build_topo(self, walk));
        walk.walked()?;
        self.0.borrow_mut().grad = 1.0;
        while let Some(v) = topo.0.pop() {
            let mut node = v.0.borrow_mut();
            node.visited = false;
            run_rule(&node);
            walk.ran(&node)?;
        }
        Ok(())
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

/// Python's `build_topo(root)`: every value under `root`, each once, each after its
/// parents (the post-order of a depth-first search over `_prev` in order, as `walk`
/// reads it), each marked `visited`.
pub(crate) fn build_topo(root: &Value, walk: &mut impl Walk) -> Vec<Value> {
    let mut topo = Vec::new();
    let mut stack = vec![Visit::Enter(root.clone())];
    while let Some(visit) = stack.pop() {
        match visit {
            Visit::Enter(v) => {
                let mut node = v.0.borrow_mut();
                if node.visited {
                    continue;
                }
                node.visited = true;
                walk.enter(&mut node);
                stack.push(Visit::Append(v.clone()));
                // (A child visited already would be skipped when popped, so it is not
                // pushed; the children are turned round so that they pop first to last.)
                let first = stack.len();
                for child in walk.children(&node).iter() {
                    if !child.node().visited {
                        stack.push(Visit::Enter(child.clone()));
                    }
                }
                stack[first..].reverse();
            }
            Visit::Append(v) => {
                walk.append(&v);
                topo.push(v);
            }
        }
    }
    topo
}

/// Runs a node's rule (Python's `_backward()`), unless it needs no gradient (then it
/// has nothing to pass on) or is a leaf.
#[inline]
pub(super) fn run_rule(node: &Node) {
    if let (Some(rule), true) = (&node.backward, node.requires_grad) {
        rule.run(node);
    }
}

//! A node's mark: how one floor above the engine tells another of a node it made (a
//! loss's constant target, a neuron's separate activation), without a field in the
//! engine's `Node`. The mark wraps the node's backward closure, which runs as before.

use crate::engine::inspect::Reader;
use crate::engine::ops::Backward;
use crate::engine::value::{BackwardFn, Node};
use crate::rules::Rule;
use crate::Value;

/// A node's closure with a mark `M`, which the floor reads back from the node
/// ([`Value::mark`], [`Node::mark`]). It runs the closure, and answers a reader (and
/// the drop) as the closure does.
struct Marked<M> {
    closure: BackwardFn,
    mark: M,
}

impl<M: Copy + 'static> Backward for Marked<M> {
    fn run(&self, out: &Node) {
        self.closure.run(out);
    }
}

/// A marked closure answers a reader as the closure it wraps does.
impl<M: Copy + 'static> Reader for Marked<M> {
    fn rule(&self) -> Option<Rule> {
        self.closure.rule()
    }

    fn name(&self) -> &'static str {
        self.closure.name()
    }

    fn python_parents(&self, out: &Node) -> Option<Vec<Value>> {
        self.closure.python_parents(out)
    }

    fn operand(&self, out: &Node) -> Option<(f64, bool)> {
        self.closure.operand(out)
    }

    fn shown_operand(&self, out: &Node) -> Option<Value> {
        self.closure.shown_operand(out)
    }

    fn freed(&self, out: &Node) {
        self.closure.freed(out);
    }
}

impl Value {
    /// Marks this node with `mark` (a leaf, which has no closure, is left as it is).
    pub(crate) fn mark<M: Copy + 'static>(&self, mark: M) {
        let mut node = self.0.borrow_mut();
        node.backward = (node.backward.take())
            .map(|closure| -> BackwardFn { Box::new(Marked { closure, mark }) });
    }
}

impl Node {
    /// The mark of type `M` this node was given with [`Value::mark`], if any.
    pub(crate) fn mark<M: Copy + 'static>(&self) -> Option<M> {
        self.closure::<Marked<M>>().map(|marked| marked.mark)
    }
}

#[cfg(test)]
mod tests {
    use crate::nn::Activation;
    use crate::Value;

    // A marked node reads as it did: its op's name, and Python's parents of a compact
    // node (here a neuron node's, not its two lists).
    #[test]
    fn a_marked_node_reads_as_the_node_it_was() {
        let (b, w, x) = (Value::new(0.5), [Value::new(2.0)], [Value::new(3.0)]);
        let y = Value::neuron(&b, &w, &x, Activation::Tanh).unwrap();
        y.mark(());
        assert_eq!(y.op(), "tanh neuron");
        assert!(Value::ptr_eq(&y.parents()[2], &x[0]));
    }

    // A marked node that keeps an f64 operand is checked as it was: try_backward blames
    // the NaN operand (Python's leaf `Value(nan)`), not the product it made.
    #[test]
    fn a_marked_node_keeps_its_operand_checked() {
        let x = Value::new(2.0);
        let (plain, marked) = (&x * f64::NAN, &x * f64::NAN);
        marked.mark(());
        let error = plain.try_backward().unwrap_err().to_string();
        assert_eq!(marked.try_backward().unwrap_err().to_string(), error);
        assert_eq!(marked.op(), "*");
    }
}

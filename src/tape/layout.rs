//! The [`Tape`] itself: a graph flattened into arrays, and what can be read from it.

use std::fmt;

use super::address::AddressMap;
use crate::engine::op::Op;
use crate::engine::Value;
use crate::error::Error;

/// A graph of [`Value`]s compiled once into flat arrays, then run many times.
///
/// Node `k` of the tape is described by entry `k` of each array (struct of arrays). The
/// leaves come first (nodes `0..leaves.len()`, node `i` is `leaves[i]`), then the inner
/// nodes in topological order (every node after its parents), the root last. Node
/// indices are `u32`.
///
/// | array | inner node `k` with arity 1 | arity 2 | `sum` |
/// |-------|-----------------------------|---------|-------|
/// | `ops[k]` | its op | its op | `Sum` |
/// | `args[k]` | `[parent, index into consts]` | `[a, b]` | `[start, end]`: its terms are `terms[start..end]` |
///
/// `consts[0]` is 0.0, the constant of every unary op without one; `powf` and
/// `leaky_relu` nodes point at their own entry. The `sum` terms form a CSR-style list:
/// `terms` holds the parent indices of all `sum` nodes one after the other.
///
/// See the [module docs](crate::tape) for how to use it.
pub struct Tape {
    /// The leaves, as handles: node `i < leaves.len()` is `leaves[i]`.
    pub(super) leaves: Vec<Value>,
    /// A leaf's node address → its index, for [`grad_of`](Tape::grad_of).
    pub(super) leaf_index: AddressMap<u32>,
    /// The op of each node (`Leaf` for the leaves).
    pub(super) ops: Vec<Op>,
    /// The two operands of each node (see the table above); `[0, 0]` for leaves.
    pub(super) args: Vec<[u32; 2]>,
    /// The constants of `powf` / `leaky_relu`, after a 0.0 shared by all other ops.
    pub(super) consts: Vec<f64>,
    /// The terms of all `sum` nodes, back to back.
    pub(super) terms: Vec<u32>,
    /// Each node's value from the last forward pass (or from the graph, before one).
    pub(super) data: Vec<f64>,
    /// Each node's gradient from the last backward pass (0 before one).
    pub(super) grad: Vec<f64>,
    /// The labels of the labelled nodes, sorted by node index (for error messages).
    pub(super) labels: Vec<(u32, Box<str>)>,
    /// Whether every entry of `data` is finite.
    pub(super) data_finite: bool,
}

impl Tape {
    /// The root's value from the last [`forward`](Tape::forward) (right after
    /// [`compile`](Tape::compile), the root's `data()` at that time).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(3.0);
    /// let mut tape = Tape::compile(&(&x * &x))?;
    /// assert_eq!(tape.value(), 9.0);
    /// x.set_data(4.0);
    /// assert_eq!(tape.value(), 9.0);     // not recomputed yet
    /// assert_eq!(tape.forward()?, 16.0);
    /// assert_eq!(tape.value(), 16.0);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn value(&self) -> f64 {
        self.data[self.data.len() - 1]
    }

    /// d root / d `leaf` from the last [`backward`](Tape::backward) of this tape alone
    /// (unlike `leaf.grad()`, which adds up every backward pass since the last
    /// `zero_grad`); 0 before the first backward.
    ///
    /// # Errors
    ///
    /// [`Error::NotOnTape`] if `leaf` is not one of [`leaves`](Tape::leaves): a value of
    /// another graph, or an inner node (the tape keeps no handles to those).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(3.0);
    /// let y = &x * &x;
    /// let mut tape = Tape::compile(&y)?;
    /// tape.backward()?;
    /// assert_eq!(tape.grad_of(&x)?, 6.0);
    /// assert!(matches!(tape.grad_of(&y), Err(Error::NotOnTape { .. })));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn grad_of(&self, leaf: &Value) -> Result<f64, Error> {
        match self.leaf_index.get(&leaf.address()) {
            Some(&i) => Ok(self.grad[i as usize]),
            None => Err(Error::NotOnTape {
                label: leaf.label(),
            }),
        }
    }

    /// The leaves of the graph (its inputs, parameters and constants), each once, in the
    /// order the tape stores them: handles to the same nodes as the user's values.
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let tape = Tape::compile(&(&x * &x + 1.0))?;   // leaves: x and the constant 1
    /// assert_eq!(tape.leaves().len(), 2);
    /// assert!(tape.leaves().iter().any(|l| Value::ptr_eq(l, &x)));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn leaves(&self) -> &[Value] {
        &self.leaves
    }

    /// How many nodes the tape holds, leaves included (each shared node once).
    ///
    /// ```
    /// use micrograd::{tape::Tape, Value};
    /// let x = Value::new(2.0);
    /// let y = &x * &x;                       // nodes: x, y
    /// assert_eq!(Tape::compile(&(&y + &y))?.node_count(), 3);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn node_count(&self) -> usize {
        self.ops.len()
    }

    /// The label of node `k`, if it has one (for error messages).
    pub(super) fn label_of(&self, k: usize) -> Option<String> {
        let i = self.labels.binary_search_by_key(&k, |(j, _)| *j as usize);
        i.ok().map(|i| self.labels[i].1.to_string())
    }
}

impl fmt::Debug for Tape {
    /// A summary: `Tape { nodes: 5, leaves: 2, value: 9.0 }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tape")
            .field("nodes", &self.node_count())
            .field("leaves", &self.leaves.len())
            .field("value", &self.value())
            .finish()
    }
}

/// Whether every number is finite. Written as a fold without early exit so that the
/// compiler turns it into vector instructions.
pub(super) fn all_finite(xs: &[f64]) -> bool {
    xs.iter().fold(true, |ok, x| ok & x.is_finite())
}

//! A node's parents (Python's `_prev`): inline for up to two, a list for more, and one
//! parent with a number kept beside it (an op's constant, or an `f64` operand).

use std::cell::Cell;

use super::value::Value;

/// The parents (Python's `_prev`) of a node, stored inline for up to two parents so a
/// node costs one heap allocation.
pub(crate) enum Parents {
    /// A leaf: created by the user, not by an operation.
    None,
    /// One parent (`relu`, `tanh`, `powf`, ...).
    One([Value; 1]),
    /// Two parents (`+`, `*`, `pow`, ...); the same value twice for `a * a`.
    Two([Value; 2]),
    /// Any number of parents (the n-ary [`Sum`](std::iter::Sum) node).
    Many(Box<[Value]>),
    /// One parent and a number the node keeps, so that the op costs one allocation:
    /// the op's constant (`powf`'s exponent, `leaky_relu`'s slope; Python's closure
    /// captures it, `other` in `__pow__`), or an `f64` operand (`&x * 2.0`, for which
    /// Python makes a leaf `Value(2.0)`: `src/fast/constant.rs`, whose closure lists
    /// that leaf, kept beside the graph, wherever the graph is read). The flag says
    /// whether the node's rule has run (so that such a leaf, first shown after it
    /// ran, has the gradient the rule gives it; 0 before).
    Constant([Value; 1], f64, Cell<bool>),
}

impl Parents {
    /// The parents as a slice, in the order the operation received them.
    pub(crate) fn as_slice(&self) -> &[Value] {
        match self {
            Parents::None => &[],
            Parents::One(p) => p,
            Parents::Two(p) => p,
            Parents::Many(p) => p,
            Parents::Constant(p, ..) => p,
        }
    }

    /// Takes the parents out, leaving `Parents::None` (used by the iterative `Drop`).
    pub(crate) fn take(&mut self) -> Parents {
        std::mem::replace(self, Parents::None)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::value::{Node, Value};

    /// The memory target (at most 100 heap bytes a node) rests on this: one allocation
    /// of `Rc` counts (16) + `RefCell` flag (8) + `Node` (72) = 96 bytes.
    #[test]
    fn a_node_is_one_96_byte_allocation() {
        assert_eq!(std::mem::size_of::<Node>(), 72);
        assert_eq!(std::mem::size_of::<Value>(), 8);
    }
}

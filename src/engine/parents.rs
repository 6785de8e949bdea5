//! A node's parents (Python's `_prev`): inline for up to two, a list for more, and the
//! two compact forms of `src/fast/` (an `f64` operand kept in the node, a neuron's
//! shared lists), with the order in which each is walked.

use std::cell::Cell;
use std::rc::Rc;

use super::neuron::{NeuronInputs, NeuronParams};
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
    /// A two-operand op with one `f64` operand (`&x * 2.0`, `1.0 - &x`): the `Value`
    /// parent, the constant, which side the constant is on, and whether the node's rule
    /// has run (so that the constant, shown as Python's leaf, has the gradient the rule
    /// gives it; 0 before). Python makes a leaf `Value(2.0)` for it; here it is kept in
    /// the node, so that the op costs one allocation, not two (see
    /// `src/fast/constant.rs`, which puts the leaf back wherever the graph is read).
    Constant([Value; 1], f64, Side, Cell<bool>),
    /// A [`Value::neuron`] node's parameters `[b, w0, w1, ...]` and inputs `[x0, x1,
    /// ...]`, each shared with other nodes (see `src/fast/neuron.rs`); Python's order of them is
    /// `[b, w0, x0, w1, x1, ...]`.
    Neuron(Rc<NeuronParams>, Rc<NeuronInputs>),
}

/// The parents of a node one by one (see [`Parents::all`]).
pub(crate) enum Walk<'a> {
    /// A list.
    Slice(std::slice::Iter<'a, Value>),
    /// A neuron's `b`, then `w0, x0, w1, x1, ...`.
    Terms {
        /// The bias, until it is given.
        first: Option<&'a Value>,
        /// The pairs `(wi, xi)`.
        terms: std::iter::Zip<std::slice::Iter<'a, Value>, std::slice::Iter<'a, Value>>,
        /// The input of the pair whose weight was given last.
        second: Option<&'a Value>,
        /// From the back: the weight of the pair whose input was given last.
        last: Option<&'a Value>,
    },
}

impl<'a> Iterator for Walk<'a> {
    type Item = &'a Value;

    #[inline]
    fn next(&mut self) -> Option<&'a Value> {
        match self {
            Walk::Slice(values) => values.next(),
            Walk::Terms {
                first,
                terms,
                second,
                last,
            } => {
                if let Some(v) = first.take().or_else(|| second.take()) {
                    return Some(v);
                }
                let Some((w, x)) = terms.next() else {
                    return last.take();
                };
                *second = Some(x);
                Some(w)
            }
        }
    }
}

impl<'a> DoubleEndedIterator for Walk<'a> {
    /// The parents from the last: `backward()` pushes them so onto its stack, to visit
    /// them from the first.
    #[inline]
    fn next_back(&mut self) -> Option<&'a Value> {
        match self {
            Walk::Slice(values) => values.next_back(),
            Walk::Terms {
                first,
                terms,
                second,
                last,
            } => {
                if let Some(w) = last.take() {
                    return Some(w);
                }
                let Some((w, x)) = terms.next_back() else {
                    return second.take().or_else(|| first.take());
                };
                *last = Some(w);
                Some(x)
            }
        }
    }
}

/// Which operand of a [`Parents::Constant`] node the constant is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// `2.0 * &x`: the constant is the first operand.
    Left,
    /// `&x * 2.0`: the constant is the second operand.
    Right,
}

impl Parents {
    /// The parents as a slice, in the order the operation received them.
    ///
    /// # Panics
    ///
    /// On a [`Parents::Neuron`], whose parents are two shared lists: use
    /// [`all`](Parents::all) instead (or `Node::parent_list`).
    pub(crate) fn as_slice(&self) -> &[Value] {
        match self {
            Parents::None => &[],
            Parents::One(p) => p,
            Parents::Two(p) => p,
            Parents::Many(p) => p,
            Parents::Constant(p, ..) => p,
            Parents::Neuron(..) => unreachable!("a shared neuron's parents are listed by all()"),
        }
    }

    /// Every parent, in the order the operation received them (a neuron's
    /// `[b, w0, x0, w1, x1, ...]`).
    #[inline]
    pub(crate) fn all(&self) -> Walk<'_> {
        match self {
            Parents::Neuron(params, inputs) => Walk::Terms {
                first: Some(params.bias()),
                terms: params.weights().iter().zip(inputs.values.iter()),
                second: None,
                last: None,
            },
            _ => Walk::Slice(self.as_slice().iter()),
        }
    }

    /// The parents `backward()`'s `build_topo` visits, in [`all`](Parents::all)'s
    /// order: all but a neuron's parameters when they are all leaves. A leaf has no
    /// rule to run, and leaving one out of `topo` moves no other node in it; a
    /// network's weights are then not touched until their rules add to their grads.
    #[inline]
    pub(crate) fn walked(&self) -> Walk<'_> {
        match self {
            Parents::Neuron(params, inputs) if params.leaves => Walk::Slice(inputs.values.iter()),
            _ => self.all(),
        }
    }

    /// The constant operand and its side, for a [`Parents::Constant`] node.
    #[inline]
    pub(crate) fn constant(&self) -> Option<(f64, Side)> {
        match *self {
            Parents::Constant(_, c, side, _) => Some((c, side)),
            _ => None,
        }
    }

    /// Takes the parents out, leaving `Parents::None` (used by the iterative `Drop`).
    pub(crate) fn take(&mut self) -> Parents {
        std::mem::replace(self, Parents::None)
    }
}

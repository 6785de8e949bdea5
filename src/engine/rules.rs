//! How a node's closure carries its op's rule: tagged with the type that names the op
//! (`Named`, `src/rules/`), at no cost, since both are zero-sized. An op's constants
//! are kept in its node.

use std::marker::PhantomData;

use super::inspect::Reader;
use super::ops::Backward;
use super::parents::Parents;
use super::value::Node;
use crate::rules::{Consts, Named, Rule, NO_CONSTS};

/// An op's closure tagged with the op `N` (zero-sized, as the closure is).
pub(crate) struct Tagged<N, F>(F, PhantomData<N>);

impl<N, F> Tagged<N, F> {
    /// The closure `f` of an op `N`'s node.
    pub(crate) fn new(f: F) -> Self {
        Tagged(f, PhantomData)
    }
}

impl<N: Named + 'static, F: Fn(&Node) + 'static> Backward for Tagged<N, F> {
    #[inline]
    fn run(&self, out: &Node) {
        (self.0)(out);
    }
}

impl<N: Named, F> Reader for Tagged<N, F> {
    fn rule(&self) -> Option<Rule> {
        Some(N::RULE)
    }
}

impl Node {
    /// The op's constants ([`NO_CONSTS`] for ops without any): kept in the node when
    /// there is one, else in `extra`.
    pub(crate) fn consts(&self) -> Consts {
        match *self.parents {
            Parents::Constant(_, c, _) => [c, 0.0],
            _ => self.extra.as_ref().map_or(NO_CONSTS, |e| e.consts),
        }
    }
}

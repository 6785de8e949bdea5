//! Freeing a graph without recursion.
//!
//! Python's garbage collector frees a graph for us. With `Rc`, dropping the last handle
//! to a node drops its parents, which drop theirs, and so on: one nested call per node,
//! which overflows the stack on a long chain. Instead, a node being freed moves its
//! parents onto an explicit stack; each parent whose last handle that was is opened in
//! turn (`Rc::get_mut`), its own parents moved onto the stack, and then freed with none
//! left, so every node is freed at the same, constant stack depth.
//!
//! For speed (measured in `docs/benchmarks.md`): `parents` is a `ManuallyDrop`, which
//! only `Drop for Node` takes out; a chain's next node is carried from one turn of the
//! loop to the next, not through the stack; a node is opened in place, not moved out of
//! its `Rc`.

use std::rc::Rc;

use super::parents::Parents;
use super::value::{Node, Value};

impl Drop for Node {
    #[inline]
    fn drop(&mut self) {
        // (A leaf, or a node the loop below has emptied, has nothing more to free.)
        if !matches!(*self.parents, Parents::None) {
            free(self.take_parents());
        }
    }
}

/// Frees `parents` and every node under them that nothing else holds, without recursion.
#[inline(never)]
fn free(parents: Parents) {
    let mut stack: Vec<Value> = Vec::new();
    let mut next = push_parents(&mut stack, parents).or_else(|| stack.pop());
    while let Some(mut value) = next {
        // Only the last handle to a node can open it; any other handle just drops. (No
        // `Weak` to a node is ever made, so the last handle always opens it.)
        let carried = match Rc::get_mut(&mut value.0) {
            Some(cell) => match cell.get_mut().take_parents() {
                // (A chain's link, inline: fewer instructions a link than the call.)
                Parents::One([a]) | Parents::Constant([a], ..) => last(a),
                parents => push_parents(&mut stack, parents),
            },
            None => None,
        };
        // `value` is dropped here with no parents left: no recursion.
        drop(value);
        next = carried.or_else(|| stack.pop());
    }
}

/// Pushes those of `parents` that must be opened; returns the last of them instead of
/// pushing it (a chain's next node then never goes through the stack).
#[inline]
fn push_parents(stack: &mut Vec<Value>, parents: Parents) -> Option<Value> {
    match parents {
        Parents::None => None,
        Parents::One([a]) | Parents::Constant([a], ..) => last(a),
        Parents::Two([a, b]) => {
            stack.extend(last(a));
            last(b)
        }
        Parents::Many(terms) => {
            stack.extend(terms.into_vec().into_iter().filter_map(last));
            None
        }
    }
}

/// `v` if it is the last handle to its node (which must then be opened without
/// recursion); any other handle is dropped at once, which frees nothing (a model's
/// parameters, used by every sample, never go through the stack).
#[inline]
fn last(v: Value) -> Option<Value> {
    (Rc::strong_count(&v.0) == 1).then_some(v)
}

//! The leaves shown for `f64` operands: kept beside the graph, one per node, for as long
//! as the node lives.
//!
//! A node of `constant.rs` keeps the number `2.0` of `&x * 2.0` in place of Python's
//! leaf `Value(2.0)`. Where the graph is read (`parents()`, `topo()`, `to_dot()`,
//! `Tape::compile`), the reader is shown that leaf, made the first time, so that it is
//! the same leaf at every read, as Python's is. The leaf is kept here, in a table of
//! this thread keyed by the node's address, not in the node: reading a graph leaves
//! every node as it was. The node's closure lets go of its leaf when the node is freed
//! (`Reader::freed`, which the engine's drop calls), so that the table holds no leaf of a
//! freed node, and the leaf is freed with the node unless the reader still holds it.
//!
//! While no leaf is shown (the table is empty: training, benchmarks), each look-up is
//! one read of a thread-local count.

use std::cell::{Cell, RefCell};

use crate::address::AddressMap;
use crate::engine::value::Node;
use crate::Value;

thread_local! {
    /// How many leaves [`LEAVES`] holds: read first, so that an empty table costs no
    /// look-up.
    static COUNT: Cell<usize> = const { Cell::new(0) };
    /// The leaf shown for each node, by the node's address.
    static LEAVES: RefCell<AddressMap<Value>> = RefCell::new(AddressMap::default());
}

/// The key of `out` in [`LEAVES`]: its address, which no other live node has.
fn key(out: &Node) -> *const () {
    (out as *const Node).cast()
}

/// Whether any leaf is shown on this thread.
#[inline]
pub(super) fn any() -> bool {
    COUNT.get() != 0
}

/// The leaf shown for `out`, if one has been.
#[inline]
pub(super) fn leaf(out: &Node) -> Option<Value> {
    match any() {
        false => None,
        true => kept_leaf(out),
    }
}

/// [`leaf`] when some leaf is shown: looked up in the table. (Out of line, so that the
/// callers' common path, with none shown, is the count's read alone.)
#[cold]
#[inline(never)]
fn kept_leaf(out: &Node) -> Option<Value> {
    // (While the thread ends and the table is gone, no leaf is shown.)
    let found = LEAVES.try_with(|leaves| leaves.borrow().get(&key(out)).cloned());
    found.ok().flatten()
}

/// The leaf for `out`: the one shown before, else the one `make` makes, kept from now
/// on for the reads to come.
pub(super) fn show(out: &Node, make: impl FnOnce() -> Value) -> Value {
    if let Some(leaf) = leaf(out) {
        return leaf;
    }
    let leaf = make();
    let kept = LEAVES.try_with(|leaves| leaves.borrow_mut().insert(key(out), leaf.clone()));
    if let Ok(None) = kept {
        COUNT.set(COUNT.get() + 1);
    }
    leaf
}

/// Lets go of the leaf shown for `out`, which is being freed.
#[inline]
pub(super) fn forget(out: &Node) {
    if any() {
        forget_kept(out);
    }
}

/// [`forget`] when some leaf is shown (out of line, as [`kept_leaf`] is).
#[cold]
#[inline(never)]
fn forget_kept(out: &Node) {
    let removed = LEAVES.try_with(|leaves| {
        let mut leaves = leaves.borrow_mut();
        let leaf = leaves.remove(&key(out));
        // (The table's room goes back as the leaves go: all of it once none is left.)
        if leaves.is_empty() {
            *leaves = AddressMap::default();
        } else if leaves.len() < leaves.capacity() / 4 {
            let room = 2 * leaves.len();
            leaves.shrink_to(room);
        }
        leaf
    });
    if let Ok(Some(leaf)) = removed {
        COUNT.set(COUNT.get() - 1);
        // (Dropped here, out of the table's borrow: a leaf frees nothing more.)
        drop(leaf);
    }
}

/// How many leaves are shown on this thread (for the tests: 0 once their graphs are
/// freed).
#[cfg(test)]
pub(super) fn count() -> usize {
    COUNT.get()
}

//! What the C needs to know besides the tape's instructions: which leaf is an input,
//! a parameter or a constant; which nodes need a gradient; where each part of the buffer
//! starts.

use std::ops::Range;

use super::listing::{Instruction, LayerPlan, Listing, Terms};

/// What a leaf of the tape is to the generated C.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// Number `pos` of the input group `group` (written by its `set_` function).
    Input { group: usize, pos: usize },
    /// Parameter number `pos` (trained by `sgd` and `adam`).
    Param(usize),
    /// A constant: its value is written once, by `init`.
    Const,
}

/// `len` numbers that are consecutive both in a caller's array (from `pos`) and in the
/// buffer (from `at`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Span {
    pub(super) pos: usize,
    pub(super) at: usize,
    pub(super) len: usize,
}

/// `(position, node)` pairs sorted by position, as [`Span`]s.
pub(super) fn spans(pairs: impl IntoIterator<Item = (usize, usize)>) -> Vec<Span> {
    let mut spans: Vec<Span> = Vec::new();
    for (pos, at) in pairs {
        match spans.last_mut() {
            Some(s) if s.pos + s.len == pos && s.at + s.len == at => s.len += 1,
            _ => spans.push(Span { pos, at, len: 1 }),
        }
    }
    spans
}

/// A layer the C computes as one: its plan, its activation, and the runs of its first
/// sum (every sum has as many, `per_sum`, right after the previous sum's).
#[derive(Clone, Debug)]
pub(super) struct Layer {
    pub(super) plan: LayerPlan,
    pub(super) op: Option<crate::rules::Rule>,
    pub(super) first_run: usize,
    pub(super) per_sum: usize,
}

/// The layers of `listing` whose sums' runs follow each other (all of them, as the tape
/// compiles them; any other is computed sum by sum, with the same numbers).
pub(super) fn layers(listing: &Listing) -> Vec<Layer> {
    let sum_runs = |k: usize| match &listing.inner[k - listing.leaves] {
        Instruction::Dot(op, runs) => Some((*op, runs.clone())),
        _ => None,
    };
    listing
        .layers
        .iter()
        .filter_map(|&plan| {
            let (op, first) = sum_runs(plan.first)?;
            let per_sum = first.len();
            let follows = (0..plan.width).all(|j| {
                let start = first.start + j * per_sum;
                sum_runs(plan.first + j) == Some((op, start..start + per_sum))
            });
            follows.then_some(Layer {
                plan,
                op,
                first_run: first.start,
                per_sum,
            })
        })
        .collect()
}

/// Which nodes need a gradient: the parameters, and every inner node computed from one.
/// Also which factors of each run do (bit 1: the first factors, bit 2: the second ones).
/// Gradients nobody reads (the inputs', the constants') are not computed; skipping them
/// changes no other number.
pub(super) fn gradients(listing: &Listing, roles: &[Role]) -> (Vec<bool>, Vec<u8>) {
    let n = listing.leaves + listing.inner.len();
    let mut needs = vec![false; n + 1];
    for (k, role) in roles.iter().enumerate() {
        needs[k] = matches!(role, Role::Param(_));
    }
    let mut flags = vec![0u8; listing.runs.len()];
    let any = |needs: &[bool], r: Range<usize>| needs[r].iter().any(|&b| b);
    for (i, ins) in listing.inner.iter().enumerate() {
        needs[listing.leaves + i] = match ins {
            Instruction::Unary(_, a, _) => needs[*a],
            Instruction::Binary(_, a, b) => needs[*a] || needs[*b],
            Instruction::Dot(_, runs) => {
                for r in runs.clone() {
                    let Terms { x, y, len } = listing.runs[r];
                    flags[r] =
                        u8::from(any(&needs, x..x + len)) | (2 * u8::from(any(&needs, y..y + len)));
                }
                flags[runs.clone()].iter().any(|&f| f != 0)
            }
            // (Refused before planning.)
            Instruction::Custom(_) => false,
        };
    }
    (needs, flags)
}

/// Where each part of the buffer starts (in numbers of the C's `real` type).
#[derive(Clone, Copy, Debug)]
pub(super) struct Offsets {
    /// Nodes: values at `0..nodes`, then the constant 1.0 of the sums at `nodes`.
    pub(super) nodes: usize,
    /// Gradients: `grad + k` for node `k`.
    pub(super) grad: usize,
    /// What `sgd` needs: everything before Adam's state.
    pub(super) sgd_len: usize,
    /// Adam's first moments, one per parameter (by position).
    pub(super) adam_m: usize,
    /// Adam's second moments.
    pub(super) adam_v: usize,
    /// Adam's step count.
    pub(super) adam_t: usize,
    /// The whole buffer.
    pub(super) len: usize,
}

impl Offsets {
    pub(super) fn new(nodes: usize, params: usize) -> Offsets {
        let grad = nodes + 1;
        let sgd_len = grad + nodes + 1;
        Offsets {
            nodes,
            grad,
            sgd_len,
            adam_m: sgd_len,
            adam_v: sgd_len + params,
            adam_t: sgd_len + 2 * params,
            len: sgd_len + 2 * params + 1,
        }
    }
}

//! [`Buffers`]: the numbers of one run of a [`Program`], one set per worker.

use super::{all_finite, Program};

/// The numbers one worker keeps while it runs a [`Program`]: each node's value and
/// gradient, room for a custom op's operands, the copy of the layers' weights, and what
/// the last passes found. `Send`: a worker's buffers move to its thread, while the
/// program they belong to is shared.
///
/// Made and used by the runners (a [`Tape`](crate::tape::Tape) has one set, and one
/// more per worker thread of its batch methods); nothing in them refers to a `Value`.
// Aligned to two cache lines, so that two workers' buffers, side by side in a `Vec`, do
// not share one: each worker writes its flags (`data_finite`, ...) on every run, and a
// line shared with another core's would bounce between the cores (false sharing).
#[repr(align(128))]
pub(crate) struct Buffers {
    /// Each node's value from the last forward pass (or from the graph, before one),
    /// then the constant 1.0 of the unfused `sum` terms.
    pub(crate) data: Vec<f64>,
    /// Each node's gradient from the last backward pass (0 before one); for the leaves,
    /// what the runner sums there (see [`Tape::accumulate`](crate::tape::Tape::accumulate)).
    /// The last entry, for the constant 1.0, collects products no one reads.
    pub(crate) grad: Vec<f64>,
    /// Room for a custom node's parents' data and its local derivatives, so that no run
    /// allocates.
    pub(crate) scratch: Vec<f64>,
    /// The layers' weights, term by term (see [`Layer`](super::Layer)), copied from
    /// `data` as [`Program::gather`] says.
    pub(crate) panels: Vec<f64>,
    /// Whether leaves were written since `panels` were last filled.
    pub(crate) panels_stale: bool,
    /// Whether every value of the last forward pass was finite, those of fused nodes
    /// included.
    pub(crate) data_finite: bool,
    /// Whether the leaves' entries of `data` are finite (kept up to date by whatever
    /// writes them, so that a run need not look at every leaf).
    pub(crate) leaves_finite: bool,
    /// Whether the leaves' entries of `grad` are known to be finite, so that a backward
    /// pass that wrote only finite gradients need not look at every leaf's. Whoever
    /// writes the leaves' entries other than the backward pass sets it (`false` when
    /// it does not know).
    pub(crate) grads_finite: bool,
    /// Whether the inner nodes' entries of `grad` are all +0.0 (as a backward pass that
    /// finishes leaves them: see `Program::sweep`).
    pub(crate) inner_grads_zero: bool,
}

impl Buffers {
    /// Buffers for `program` holding `data` (one value per node, then the constant 1.0),
    /// with every gradient 0; `data_finite` says whether the values `data` came from
    /// (fused ones included) were finite.
    pub(crate) fn new(program: &Program, data: Vec<f64>, data_finite: bool) -> Buffers {
        debug_assert_eq!(data.len(), program.node_count() + 1);
        let mut buffers = Buffers {
            grad: vec![0.0; data.len()],
            leaves_finite: all_finite(&data[..program.leaves]),
            data,
            scratch: vec![0.0; program.scratch],
            panels: vec![0.0; program.gather.len()],
            panels_stale: true,
            data_finite,
            grads_finite: true,
            inner_grads_zero: true,
        };
        buffers.fill_panels(program);
        buffers
    }

    /// Copies the weights of the layers from `data` into their panels.
    pub(crate) fn fill_panels(&mut self, program: &Program) {
        for (p, &i) in self.panels.iter_mut().zip(&program.gather) {
            *p = self.data[i as usize];
        }
        self.panels_stale = false;
    }

    /// Writes `values` into the leaves `nodes` (a sample), noting whether the layers'
    /// weights must be copied again (`feeds_layers`) and whether the leaves are still
    /// all finite.
    pub(crate) fn set_leaves(
        &mut self,
        leaves: usize,
        nodes: &[u32],
        values: &[f64],
        feeds_layers: bool,
    ) {
        let (nodes, values) = (
            &nodes[..values.len().min(nodes.len())],
            &values[..nodes.len().min(values.len())],
        );
        match contiguous(nodes) {
            // (A sample's leaves are usually next to each other: one copy.)
            Some(first) => self.data[first..first + nodes.len()].copy_from_slice(values),
            // (Or a few stretches of them, such as an image's pixels and its one-hot
            // label: one copy per stretch.)
            None => {
                let mut at = 0;
                while let Some(&first) = nodes.get(at) {
                    let stretch = stretch(&nodes[at..]);
                    let first = first as usize;
                    self.data[first..first + stretch].copy_from_slice(&values[at..at + stretch]);
                    at += stretch;
                }
            }
        }
        self.panels_stale |= feeds_layers;
        // A non-finite number may have been written, or overwritten.
        if !(self.leaves_finite && all_finite(values)) {
            self.leaves_finite = all_finite(&self.data[..leaves]);
        }
    }
}

/// The first of `nodes` if they are `first, first + 1, ..` (a compare per node, which the
/// compiler vectorises).
fn contiguous(nodes: &[u32]) -> Option<usize> {
    let first = *nodes.first()?;
    next_after(first, nodes).then_some(first as usize)
}

/// Whether `nodes` are `first, first + 1, ..`, compared without branches.
fn next_after(first: u32, nodes: &[u32]) -> bool {
    (0..)
        .zip(nodes)
        .fold(true, |ok, (i, &k)| ok & (first.wrapping_add(i) == k))
}

/// How many of `nodes` (at least one) are `nodes[0], nodes[0] + 1, ..`: whole blocks of
/// 16 compared at once (vectorised), then node by node.
fn stretch(nodes: &[u32]) -> usize {
    const BLOCK: usize = 16;
    let first = nodes[0];
    let mut n = 0;
    for block in nodes.chunks_exact(BLOCK) {
        if !next_after(first.wrapping_add(n as u32), block) {
            break;
        }
        n += BLOCK;
    }
    let rest = (0..).zip(&nodes[n..]);
    n + rest
        .take_while(|&(i, &k)| first.wrapping_add((n + i) as u32) == k)
        .count()
}

impl std::fmt::Debug for Buffers {
    /// A summary: `Buffers { nodes: 5 }`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Buffers")
            .field("nodes", &(self.data.len() - 1))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::stretch;

    #[test]
    fn a_stretch_ends_where_the_nodes_stop_counting_up_by_one() {
        for len in [1, 2, 15, 16, 17, 31, 32, 33, 50] {
            for tail in [&[][..], &[0], &[7, 8, 9]] {
                let nodes: Vec<u32> = (100..100 + len).chain(tail.iter().copied()).collect();
                assert_eq!(stretch(&nodes), len as usize, "{nodes:?}");
            }
        }
    }
}

//! Private blocks: the nodes a zero gradient lets the backward pass jump over at once.
//!
//! The nodes just before an inner node `k` whose every consumer lies among them or is
//! `k` (the graph states it: who reads whom) get their gradients from `k` alone. If
//! `k`'s gradient is 0 and every local derivative among them and at `k` is finite on
//! finite values, each of them would add `finite * 0.0` to its parents: nothing (the
//! block's own gradients stay at the 0 the sweep starts from, and a leaf's sum is
//! unchanged; a leaf grad that starts at -0.0 is settled by the runner, which rebuilds
//! the graph for it). So the backward pass skips `k` and its whole block in one jump:
//! in the moons step, each point whose hinge is off (its `+ 1` node gets gradient 0
//! from the ReLU), with its two layers, its score neuron and its hinge nodes.
//!
//! An op whose local derivative can be infinite where its value is finite (`sqrt` and
//! `ln` at 0, `/` by a tiny number, `pow`, a custom op) ends a block: there `0 * inf` is
//! NaN, the error the graph reports. So does a deferred layer (`defer.rs`), whose
//! zeros a batch records.

use super::code::Code;
use super::{Program, Step};

/// [`Program::private`]'s entry for a node that may not be jumped over.
pub(crate) const NO_JUMP: u32 = u32::MAX;

impl Program {
    /// Fills [`Program::private`] (after the layers are grouped): for each node whose
    /// local derivatives are finite on finite values, the first node of its private
    /// block (itself if the block is empty), found from the blocks below it in linear
    /// time for chains and networks: a qualifying unit (a node, or a whole layer) brings
    /// its own block with it. A layer's entry is at its last node.
    pub(super) fn plan_private(&mut self) {
        let n = self.steps.len();
        let first = self.leaves;
        // Each node's last consumer (`NO_JUMP`: none; an output, or the root).
        let mut last = vec![NO_JUMP; n];
        for k in first..n {
            let [a, b] = self.args[k].map(|i| i as usize);
            let mut reads = |p: usize| {
                if p < n {
                    last[p] = k as u32;
                }
            };
            match self.steps[k] {
                Step::Leaf => {}
                Step::Unary(_) | Step::UnaryRule(_) => reads(a),
                Step::Binary(_) | Step::BinaryRule(_) => {
                    reads(a);
                    reads(b);
                }
                Step::Dot | Step::DotThen(_) => {
                    for run in &self.runs[a..b] {
                        run.xs().chain(run.ys()).for_each(&mut reads);
                    }
                }
                Step::Custom(_) => self.custom_parents[a..b]
                    .iter()
                    .for_each(|&p| reads(p as usize)),
            }
        }
        // Each node's unit: the first node of its layer, or itself.
        let mut unit_first: Vec<u32> = (0..n as u32).collect();
        let mut deferred = vec![false; n];
        for layer in &self.layers {
            for k in layer.nodes() {
                unit_first[k] = layer.first;
                deferred[k] = layer.deferred;
            }
        }
        let mut private = vec![NO_JUMP; n];
        let mut hi = first;
        while hi < n {
            // The unit `lo..=hi`.
            let lo = hi;
            while hi + 1 < n && unit_first[hi + 1] as usize == lo {
                hi += 1;
            }
            let unit_finite = (lo..=hi).all(|j| self.finite_local(j) && !deferred[j]);
            if unit_finite {
                let mut start = lo;
                while start > first {
                    let j = start - 1;
                    let below = unit_first[j] as usize..=j;
                    let private_to_unit = below.clone().all(|i| (last[i] as usize) <= hi);
                    if !private_to_unit || private[j] == NO_JUMP {
                        break;
                    }
                    start = private[j] as usize;
                }
                private[hi] = start as u32;
            }
            hi += 1;
        }
        self.private = private;
    }

    /// Whether node `k`'s local derivatives are finite wherever its parents' values and
    /// its own are: then a zero gradient at `k` passes exact zeros back.
    fn finite_local(&self, k: usize) -> bool {
        let finite_op = |op| {
            matches!(
                op,
                Code::Neg | Code::Relu | Code::Tanh | Code::Sigmoid | Code::Exp
            )
        };
        match self.steps[k] {
            Step::Binary(op) => matches!(op, Code::Add | Code::Sub | Code::Mul),
            Step::Unary(op) | Step::DotThen(op) => finite_op(op),
            Step::Dot => true,
            // (1 or its slope: finite where the slope is.)
            Step::UnaryRule(r) if self.rules[r as usize].name() == "leaky_relu" => {
                let slope = self.consts[self.args[k][1] as usize];
                slope.iter().all(|c| c.is_finite())
            }
            Step::Leaf | Step::Custom(_) | Step::UnaryRule(_) | Step::BinaryRule(_) => false,
        }
    }
}

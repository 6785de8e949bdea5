//! A recording of one backward pass, step by step, for the stepper page.
//!
//! The pass is Python's: `self.grad = 1`, then `v._backward()` for every `v` in reverse
//! topological order, run here with the engine's own rules ([`Value::set_grad`],
//! [`Value::backward_step`]), so custom ops step like built-in ones, in the order
//! [`Value::backward`] runs them, so the last step shows `backward()`'s gradients bit for
//! bit. The graph's grads are put back as they were afterwards.

use super::dot::op_label;
use super::rule_text::Kind;
use crate::address::AddressMap;
use crate::engine::Value;
use crate::rules::Rule;

/// One value of the graph.
pub(crate) struct TraceNode {
    /// `with_label`'s name, if any.
    pub(crate) label: Option<String>,
    /// The op that made it, as `to_dot` shows it (`"*"`, `"**2"`, a custom op's name);
    /// empty for a leaf.
    pub(crate) op_label: String,
    /// The node's kind (`Kind::Custom` for every custom op).
    pub(crate) kind: Kind,
    /// The op's rule, for a one- or two-parent op.
    pub(crate) rule: Option<Rule>,
    /// The forward value.
    pub(crate) data: f64,
    /// Indices (into the trace's nodes) of its parents, in the op's order, repeats kept.
    pub(crate) parents: Vec<usize>,
}

/// One grad changed by a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Change {
    /// The node whose grad changed.
    pub(crate) node: usize,
    /// Its grad before the step.
    pub(crate) before: f64,
    /// Its grad after the step.
    pub(crate) after: f64,
}

/// One step: the seed (`self.grad = 1`) or one node's rule.
pub(crate) struct Step {
    /// The node whose rule ran (the root for the seed).
    pub(crate) node: usize,
    /// Whether this is the seed `self.grad = 1` rather than a rule.
    pub(crate) seed: bool,
    /// The grads the step wrote: every parent of `node` once (a rule that adds 0 is
    /// listed too), or the root for the seed.
    pub(crate) changes: Vec<Change>,
}

/// The graph in topological order and the steps of its backward pass.
pub(crate) struct Trace {
    /// Every value, leaves first, the root last (`Value::topo`).
    pub(crate) nodes: Vec<TraceNode>,
    /// The seed, then one step per node in reverse topological order.
    pub(crate) steps: Vec<Step>,
}

impl Trace {
    /// Records the backward pass of `root` from zero grads; `root`'s graph keeps the
    /// grads it had.
    pub(crate) fn record(root: &Value) -> Trace {
        let topo = root.topo();
        let mut index: AddressMap<usize> = AddressMap::default();
        for (i, v) in topo.iter().enumerate() {
            index.insert(v.address(), i);
        }
        let nodes = topo
            .iter()
            .map(|v| {
                let node = v.node();
                TraceNode {
                    label: node.label().map(str::to_owned),
                    op_label: op_label(&node),
                    kind: Kind::of(&node),
                    rule: node.rule(),
                    data: node.data,
                    parents: (node.parent_list().iter())
                        .map(|p| index[&p.address()])
                        .collect(),
                }
            })
            .collect::<Vec<_>>();

        // (Put back when `_restore` is dropped: also if a custom op's closure panics.)
        let _restore = Restore {
            saved: topo.iter().map(Value::grad).collect(),
            topo: &topo,
        };
        topo.iter().for_each(Value::zero_grad);
        let root_index = topo.len() - 1;
        root.set_grad(1.0);
        let mut steps = vec![Step {
            node: root_index,
            seed: true,
            changes: vec![Change {
                node: root_index,
                before: 0.0,
                after: 1.0,
            }],
        }];
        for v in topo.iter().rev() {
            let i = index[&v.address()];
            let mut parents = nodes[i].parents.clone();
            parents.sort_unstable();
            parents.dedup();
            let before: Vec<f64> = parents.iter().map(|&p| topo[p].grad()).collect();
            v.backward_step();
            let changes = parents
                .iter()
                .zip(before)
                .map(|(&p, before)| Change {
                    node: p,
                    before,
                    after: topo[p].grad(),
                })
                .collect();
            steps.push(Step {
                node: i,
                seed: false,
                changes,
            });
        }
        Trace { nodes, steps }
    }
}

/// The grads of a graph as they were before a recording: set back when dropped.
struct Restore<'a> {
    topo: &'a [Value],
    saved: Vec<f64>,
}

impl Drop for Restore<'_> {
    fn drop(&mut self) {
        for (v, &grad) in self.topo.iter().zip(&self.saved) {
            // (A node still borrowed, by a rule that panicked, keeps what it has.)
            if let Ok(mut node) = v.0.try_borrow_mut() {
                node.grad = grad;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Trace {
        /// Every node's grad after all the steps.
        pub(crate) fn final_grads(&self) -> Vec<f64> {
            let mut grads = vec![0.0; self.nodes.len()];
            for change in self.steps.iter().flat_map(|s| &s.changes) {
                grads[change.node] = change.after;
            }
            grads
        }
    }

    // The trace runs the engine's rules in Python's order; its last grads are what
    // backward() gives, and the graph's own grads are left as they were.
    #[test]
    fn the_trace_ends_with_backwards_grads_and_leaves_the_graph_untouched() {
        let x = Value::new(-4.0).with_label("x");
        let z = 2.0 * &x + 2.0 + &x;
        let q = z.relu() + &z * &x;
        let h = (&z * &z).relu();
        let y = &h + &q + &q * &x;
        let trace = Trace::record(&y);
        assert_eq!(x.grad(), 0.0, "recording must not leave grads behind");
        y.backward();
        let engine: Vec<f64> = y.topo().iter().map(Value::grad).collect();
        assert_eq!(trace.final_grads(), engine);
        assert_eq!(trace.steps.len(), trace.nodes.len() + 1);
        assert_eq!(
            x.grad(),
            46.0,
            "and backward() after it still gives micrograd's number"
        );
    }
}

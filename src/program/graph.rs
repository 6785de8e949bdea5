//! The program as a dynamic graph again: the graph it was compiled from, rebuilt from
//! its arrays on a worker's leaf data.
//!
//! NaN and infinity are rare, and which node the dynamic graph blames for one depends on
//! the order its passes visit the nodes. So a run only notes *that* it went wrong
//! (cheaply, on the way); then the program rebuilds its graph and lets
//! [`Value::try_backward`] name the culprit: the same pass, op and label as the dynamic
//! graph, by construction. [`Tape::check`](crate::tape::Tape::check) uses the rebuilt
//! graph too. The values are made on the thread that asks, and dropped there.

use super::{Program, Run, Step};
use std::rc::Rc;

use super::code::Code;
use crate::engine::Value;
use crate::error::Error;
use crate::fast::Act;
use crate::fast::{NeuronInputs, NeuronParams};
use crate::rules::{Rule, NO_CONSTS};

impl Program {
    /// The graph the program was compiled from, on the leaf data of `data`: fused
    /// products and sums are separate nodes again, labels are where they were. Returns
    /// its nodes, `nodes[k]` being node `k` (the last one is the root), and the
    /// leaves' grads set to `leaf_grads` (0 if `None`).
    pub(crate) fn rebuild(&self, data: &[f64], leaf_grads: Option<&[f64]>) -> Vec<Value> {
        let one = self.one();
        let mut labels = self.labels.iter().peekable();
        let mut neurons = self.neurons.iter().peekable();
        let mut activations = self.neuron_activations.iter().peekable();
        let mut nodes: Vec<Value> = Vec::with_capacity(self.steps.len());
        for (k, &step) in self.steps.iter().enumerate() {
            let [a, b] = self.args[k].map(|i| i as usize);
            let sum = |nodes: &[Value]| -> Value {
                let pairs = self.runs[a..b].iter().flat_map(|r| r.xs().zip(r.ys()));
                pairs
                    .map(|(x, y)| {
                        if y == one {
                            nodes[x].clone()
                        } else {
                            &nodes[x] * &nodes[y]
                        }
                    })
                    .sum()
            };
            let node = match step {
                // (A leaf that stands for an `f64` operand is shown as its node's leaf
                // when that node is made: `Program::binary`.)
                Step::Leaf => {
                    let leaf = Value::new(data[k]);
                    leaf.add_grad(leaf_grads.map_or(0.0, |g| g[k]));
                    // (A leaf that gets no gradient needs none, so that a node built on it
                    // needs one exactly where the compiled one did. One marked after
                    // compiling is marked after the nodes built on it, below.)
                    let frozen = |list: &[u32]| list.binary_search(&(k as u32)).is_ok();
                    match !frozen(&self.frozen) || frozen(&self.frozen_late) {
                        true => leaf,
                        false => leaf.no_grad(),
                    }
                }
                // (The neuron below, `a`, then stays out of the graph.)
                Step::Unary(op) if activations.next_if(|&&j| j as usize == k).is_some() => {
                    let [start, end] = self.args[a].map(|i| i as usize);
                    self.neuron(&nodes, &self.runs[start..end], Step::DotThen(op))
                }
                Step::Unary(op) => op.rule().apply1(&nodes[a], self.consts[b]),
                Step::Binary(op) => self.binary(&nodes, op.rule(), k, [a, b]),
                Step::UnaryRule(r) => self.rules[r as usize].apply1(&nodes[a], self.consts[b]),
                Step::BinaryRule(r) => self.binary(&nodes, self.rules[r as usize], k, [a, b]),
                _ if neurons.next_if(|&&j| j as usize == k).is_some() => {
                    self.neuron(&nodes, &self.runs[a..b], step)
                }
                Step::Dot => sum(&nodes),
                Step::DotThen(op) => op.rule().apply1(&sum(&nodes), NO_CONSTS),
                Step::Custom(c) => {
                    let (f, g) = (
                        self.customs[c as usize].clone(),
                        self.customs[c as usize].clone(),
                    );
                    let parents: Vec<&Value> = self.custom_parents[a..b]
                        .iter()
                        .map(|&i| &nodes[i as usize])
                        .collect();
                    Value::custom(
                        f.name,
                        &parents,
                        move |p| f.forward(p),
                        move |p, out, d| g.local_grads(p, out, d),
                    )
                }
            };
            let node = match labels.next_if(|(j, _)| *j as usize == k) {
                Some((_, label)) => node.with_label(label.to_string()),
                None => node,
            };
            nodes.push(node);
        }
        // As in the user's graph, the nodes built on a leaf marked `no_grad` after
        // compiling still need their gradients. (Marked in place: no tape need look.)
        for &k in &self.frozen_late {
            nodes[k as usize].0.borrow_mut().requires_grad = false;
        }
        nodes
    }

    /// Node `k`, of the two-parent op `rule` on the nodes `a` and `b`, as the graph
    /// compiled had it: where it kept an `f64` operand ([`Program::operand_nodes`]), a
    /// node that keeps the number and shows the program's leaf for it
    /// (`Value::with_operand_leaf`).
    fn binary(&self, nodes: &[Value], rule: Rule, k: usize, [a, b]: [usize; 2]) -> Value {
        let keeps = self
            .operand_nodes
            .binary_search_by_key(&(k as u32), |&(j, _)| j);
        let Ok(i) = keeps else {
            return rule.apply2(&nodes[a], &nodes[b]);
        };
        let first = self.operand_nodes[i].1;
        let (x, c) = if first { (b, a) } else { (a, b) };
        (nodes[x].with_operand_leaf(rule, &nodes[c], first))
            .unwrap_or_else(|| rule.apply2(&nodes[a], &nodes[b]))
    }

    /// The [`Value::neuron`] node (`Value::neuron_node`, as it makes it) of the
    /// program's neuron with terms `runs` (`[b, one]`, then `[wi, xi]`) and step `step`.
    fn neuron(&self, nodes: &[Value], runs: &[Run], step: Step) -> Value {
        let mut pairs = runs.iter().flat_map(|r| r.xs().zip(r.ys()));
        let (b, _) = pairs.next().expect("a neuron has its bias term");
        let (w, x): (Vec<Value>, Vec<Value>) = pairs
            .map(|(w, x)| (nodes[w].clone(), nodes[x].clone()))
            .unzip();
        let act = match step {
            Step::DotThen(Code::Relu) => Act::Relu,
            Step::DotThen(Code::Tanh) => Act::Tanh,
            Step::DotThen(Code::Sigmoid) => Act::Sigmoid,
            _ => Act::Linear,
        };
        let params = Rc::new(NeuronParams::new(&nodes[b], &w));
        Value::neuron_node(&params, &NeuronInputs::new(x), act).expect("as many inputs as weights")
    }

    /// The error the dynamic graph reports for the values `data` (after `forward`
    /// found a NaN or infinity) or for its backward pass from leaves whose grads hold
    /// `leaf_grads` (after `backward` did): the rebuilt graph's `try_backward`.
    pub(crate) fn graph_error(&self, data: &[f64], leaf_grads: Option<&[f64]>) -> Option<Error> {
        let nodes = self.rebuild(data, leaf_grads);
        nodes.last().and_then(|root| root.try_backward().err())
    }
}

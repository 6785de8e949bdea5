//! A [`Program`]'s instructions as plain numbers, for the C: what each inner node
//! computes, the runs of the `sum`s, the layers.

use std::ops::Range;

use crate::program::{Program, Step};
use crate::rules::{Consts, Rule};

/// What one inner node of a [`Program`] computes (see the table at [`Program`]).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Instruction {
    /// `op(data[parent])` with the op's constants.
    Unary(Rule, usize, Consts),
    /// `op(data[a], data[b])`.
    Binary(Rule, usize, usize),
    /// The sum of the terms of `runs[range]`, then `op` of it if there is one (a fused
    /// activation).
    Dot(Option<Rule>, Range<usize>),
    /// A custom op (closures): its name.
    Custom(&'static str),
}

/// A run of terms `data[x + i] * data[y + i]`, `i < len`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Terms {
    /// The first factor of the first term.
    pub(crate) x: usize,
    /// The second factor of the first term.
    pub(crate) y: usize,
    /// How many terms.
    pub(crate) len: usize,
}

/// Sums computed as one layer: nodes `first..first + width`, over the same inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LayerPlan {
    /// The first of the sums.
    pub(crate) first: usize,
    /// How many sums.
    pub(crate) width: usize,
}

/// The whole program, as [`Program::listing`] gives it.
#[derive(Clone, Debug)]
pub(crate) struct Listing {
    /// Nodes `0..leaves` are the leaves.
    pub(crate) leaves: usize,
    /// The instruction of inner node `leaves + i`.
    pub(crate) inner: Vec<Instruction>,
    /// The terms of all sums, back to back.
    pub(crate) runs: Vec<Terms>,
    /// The layers, in order.
    pub(crate) layers: Vec<LayerPlan>,
    /// The outputs named at compile time (node indices).
    pub(crate) outputs: Vec<usize>,
    /// The labelled nodes and their labels.
    pub(crate) labels: Vec<(usize, String)>,
}

impl Program {
    /// The program's instructions as plain numbers (see [`Listing`]).
    pub(crate) fn listing(&self) -> Listing {
        let first = self.leaves;
        let inner = (first..self.steps.len())
            .map(|k| {
                let [a, b] = self.args[k].map(|i| i as usize);
                match self.steps[k] {
                    Step::Unary(op) => Instruction::Unary(op.rule(), a, self.consts[b]),
                    Step::Binary(op) => Instruction::Binary(op.rule(), a, b),
                    Step::UnaryRule(r) => {
                        Instruction::Unary(self.rules[r as usize], a, self.consts[b])
                    }
                    Step::BinaryRule(r) => Instruction::Binary(self.rules[r as usize], a, b),
                    Step::Dot => Instruction::Dot(None, a..b),
                    Step::DotThen(op) => Instruction::Dot(Some(op.rule()), a..b),
                    Step::Custom(c) => Instruction::Custom(self.customs[c as usize].name),
                    // (No inner node is a leaf.)
                    Step::Leaf => unreachable!("inner node {k} is a leaf"),
                }
            })
            .collect();
        let runs = self
            .runs
            .iter()
            .map(|r| Terms {
                x: r.x as usize,
                y: r.y as usize,
                len: r.len as usize,
            })
            .collect();
        let layers = self
            .layers
            .iter()
            .map(|l| LayerPlan {
                first: l.first as usize,
                width: l.width as usize,
            })
            .collect();
        Listing {
            leaves: first,
            inner,
            runs,
            layers,
            outputs: self.outputs.iter().map(|&k| k as usize).collect(),
            labels: (self.labels.iter())
                .map(|(k, l)| (*k as usize, l.to_string()))
                .collect(),
        }
    }
}

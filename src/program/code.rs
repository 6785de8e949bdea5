//! The most used ops as one-byte codes, for the tape's inner loops (the engine's own, and
//! `-`, `/`, negation and `sigmoid`): a `match` on the code whose arms call the op's rule
//! directly (the compiler inlines them: no indirect call per node). The other ops of
//! `src/ops/` are called through their rules' pointers (`rule.rs`). Both compute with the same functions as the engine's closures, so the
//! two engines give the same floating-point numbers.

use crate::engine::value::Node;
use crate::ops::activations::SIGMOID;
use crate::ops::composed::{DIV, NEG, SUB};
use crate::rules::activations::{RELU, TANH};
use crate::rules::arithmetic::{ADD, MUL};
use crate::rules::functions::EXP;
use crate::rules::powers::POWF;
use crate::rules::{Consts, Rule};

/// Writes the enum [`Code`] and its [`Code::of`], [`Code::forward`],
/// [`Code::local_grads`] and [`Code::rule`] from the list of the engine's one-parent and
/// two-parent ops and their rules.
macro_rules! code_table {
    (one: { $($one:ident => $rule1:path,)* } two: { $($two:ident => $rule2:path,)* }) => {
        /// One of the engine's one- or two-parent ops, as the tape's steps name it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub(crate) enum Code {
            $(#[doc = concat!("`", stringify!($rule1), "`.")] $one,)*
            $(#[doc = concat!("`", stringify!($rule2), "`.")] $two,)*
        }

        impl Code {
            /// The code of the rule `rule`, if it is one of the engine's ops.
            pub(crate) fn of(rule: Rule) -> Option<Code> {
                match rule.name() {
                    $(name if name == $rule1.name => Some(Code::$one),)*
                    $(name if name == $rule2.name => Some(Code::$two),)*
                    _ => None,
                }
            }

            /// The value this op computes from its parents' values `a` and `b` (`b` is
            /// ignored by one-parent ops) and its constants `c` (ignored by the others).
            // (Inlined into the tape's loops, so that each arm is a direct call: a plain
            // `#[inline]` was not inlined there.)
            #[inline(always)]
            pub(crate) fn forward(self, a: f64, b: f64, c: Consts) -> f64 {
                match self {
                    $(Code::$one => ($rule1.forward)(a, c),)*
                    $(Code::$two => ($rule2.forward)(a, b),)*
                }
            }

            /// The local derivatives `(d out / d a, d out / d b)` of this op, given its
            /// parents' values `a` and `b`, its own value `out` and its constants `c`
            /// (as for [`forward`](Code::forward)). One-parent ops return 0 for `b`.
            #[inline(always)]
            pub(crate) fn local_grads(self, a: f64, b: f64, out: f64, c: Consts) -> (f64, f64) {
                match self {
                    $(Code::$one => (($rule1.local_grad)(a, out, c), 0.0),)*
                    $(Code::$two => ($rule2.local_grads)(a, b, out),)*
                }
            }

            /// The op's rule.
            pub(crate) fn rule(self) -> Rule {
                match self {
                    $(Code::$one => Rule::One(&$rule1),)*
                    $(Code::$two => Rule::Two(&$rule2),)*
                }
            }

            /// The engine's one- and two-parent ops, in the order of the table.
            #[cfg(test)]
            pub(crate) const ALL: &'static [Code] = &[$(Code::$one,)* $(Code::$two,)*];
        }
    };
}

code_table! {
    one: {
        Neg => NEG,
        Relu => RELU,
        Tanh => TANH,
        Sigmoid => SIGMOID,
        Exp => EXP,
        Powf => POWF,
    }
    two: {
        Add => ADD,
        Sub => SUB,
        Mul => MUL,
        Div => DIV,
    }
}

/// How many parents an op takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    /// A leaf has none.
    Zero,
    /// `relu`, `tanh`, `powf`, `neg`, ...
    One,
    /// `+ - * /`, `pow`, `max`, `min`.
    Two,
    /// The n-ary `sum`, a neuron node and custom ops.
    Many,
}

impl Arity {
    /// How many parents a node of this op has: its rule's, or for an op without one
    /// (a leaf, a sum, a custom op, a neuron node), none or many.
    pub(crate) fn of(node: &Node) -> Arity {
        match (node.rule(), node.is_leaf()) {
            (Some(Rule::One(_)), _) => Arity::One,
            (Some(Rule::Two(_)), _) => Arity::Two,
            (None, true) => Arity::Zero,
            (None, false) => Arity::Many,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Code;
    use crate::program::compile::code;
    use crate::Value;

    // The tape finds an engine op's code from the rule its node's closure carries, by
    // the op's name: every engine op's node has its own code, so the tape's loops call
    // its rule directly (an op without one would go through the rule's pointers).
    #[test]
    fn every_engine_op_is_found_by_its_code() {
        let (x, y) = (Value::new(0.5), Value::new(2.0));
        let nodes = [
            (-&x, Code::Neg),
            (x.relu(), Code::Relu),
            (x.tanh(), Code::Tanh),
            (x.sigmoid(), Code::Sigmoid),
            (x.exp(), Code::Exp),
            (x.powf(3.0), Code::Powf),
            (&x + &y, Code::Add),
            (&x - &y, Code::Sub),
            (&x * &y, Code::Mul),
            (&x / &y, Code::Div),
        ];
        assert_eq!(nodes.len(), Code::ALL.len());
        for (node, expected) in nodes {
            assert_eq!(code(&node.node()), Some(expected), "{}", node.op());
            assert_eq!(Code::of(expected.rule()), Some(expected));
        }
        // An op of `src/ops/` has no code: its rule is called through its pointers.
        assert_eq!(code(&x.atan().node()), None);
    }
}

//! The node of an op known only at run time, as the graph rebuilt from a program has it
//! ([`Program::rebuild`](super::Program::rebuild)): made as the op's method makes it, with
//! a closure that runs the op's rule as the method's closure does, so that the numbers
//! are the method's. (The closure holds the rule, so boxing it allocates 16 bytes, where
//! a method's closure, which names its op by its type, allocates nothing: the rebuilt
//! graph serves errors and pictures, not training.)

use crate::engine::inspect::Reader;
use crate::engine::ops::Backward;
use crate::engine::parents::Parents;
use crate::engine::value::Node;
use crate::rules::{Consts, Rule};
use crate::Value;

/// Making a node of an op known only at run time.
impl Rule {
    /// The node `x.op(c)` of this one-parent op (as `x.powf(c[0])` makes it).
    ///
    /// # Panics
    ///
    /// For a two-parent op.
    pub(crate) fn apply1(self, x: &Value, c: Consts) -> Value {
        match self {
            Rule::One(r) => x.unary_boxed((r.forward)(x.data(), c), c, Box::new(ByRule(self))),
            Rule::Two(r) => unreachable!("{} takes two parents", r.name),
        }
    }

    /// The node `a op b` of this two-parent op (as `a * b` makes it).
    ///
    /// # Panics
    ///
    /// For a one-parent op.
    pub(crate) fn apply2(self, a: &Value, b: &Value) -> Value {
        match self {
            Rule::Two(r) => {
                let parents = Parents::Two([a.clone(), b.clone()]);
                let out = (r.forward)(a.data(), b.data());
                Value::from_op(out, parents, Box::new(ByRule(self)))
            }
            Rule::One(r) => unreachable!("{} takes one parent", r.name),
        }
    }
}

/// The closure of a node made by [`Rule::apply1`] or [`Rule::apply2`]: the rule it
/// holds, run as the op's method's closure runs it (`x.grad += d out / d x * out.grad`).
struct ByRule(Rule);

impl Backward for ByRule {
    fn run(&self, out: &Node) {
        match self.0 {
            Rule::One(r) => {
                let x = out.x();
                let dx = (r.local_grad)(x.data(), out.data, out.consts());
                x.add_grad(dx * out.grad);
            }
            Rule::Two(r) => {
                let (a, b) = out.a_b();
                let (da, db) = (r.local_grads)(a.data(), b.data(), out.data);
                a.add_grad(da * out.grad);
                b.add_grad(db * out.grad);
            }
        }
    }
}

impl Reader for ByRule {
    fn rule(&self) -> Option<Rule> {
        Some(self.0)
    }
}

#[cfg(test)]
mod tests {
    use crate::Value;

    /// Every op with one or two `Value` parents, by its method.
    const OPS: [fn(&Value, &Value) -> Value; 25] = [
        |a, b| a + b,
        |a, b| a * b,
        |a, b| a - b,
        |a, b| a / b,
        |a, b| a.pow(b),
        |a, b| a.max(b),
        |a, b| a.min(b),
        |a, _| a.powf(2.5),
        |a, _| a.powf(-0.0),
        |a, _| a.powi(3),
        |a, _| -a,
        |a, _| a.relu(),
        |a, _| a.tanh(),
        |a, _| a.exp(),
        |a, _| a.sigmoid(),
        |a, _| a.leaky_relu(0.1),
        |a, _| a.softplus(),
        |a, _| a.ln(),
        |a, _| a.log1p(),
        |a, _| a.sqrt(),
        |a, _| a.sin(),
        |a, _| a.cos(),
        |a, _| a.atan(),
        |a, _| a.abs(),
        |a, _| a.clamp(-1.0, 0.5),
    ];

    // A node made from its op's rule is the node the op's method makes: the same value,
    // op, constants and gradients, bit for bit.
    #[test]
    fn a_node_made_from_its_rule_is_the_methods_node() {
        let (a, b) = (Value::new(0.7), Value::new(1.3));
        let grads = |y: &Value| {
            a.zero_grad();
            b.zero_grad();
            y.backward();
            [a.grad().to_bits(), b.grad().to_bits()]
        };
        for op in OPS {
            let by_method = op(&a, &b);
            let node = by_method.node();
            let rule = node.rule().expect("an op's node carries its rule");
            let by_rule = match node.parents() {
                [x] => rule.apply1(x, node.consts()),
                [x, y] => rule.apply2(x, y),
                _ => unreachable!("one or two parents"),
            };
            let consts = |v: &Value| v.node().consts().map(f64::to_bits);
            let name = by_method.op();
            drop(node);
            assert_eq!(
                by_rule.data().to_bits(),
                by_method.data().to_bits(),
                "{name}"
            );
            assert_eq!((by_rule.op(), consts(&by_rule)), (name, consts(&by_method)));
            assert_eq!(grads(&by_rule), grads(&by_method), "{name}");
        }
    }
}

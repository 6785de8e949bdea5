//! `Sum` and `Product` for iterators of values: `xs.iter().sum()` as ONE n-ary node
//! (Python's `sum()` makes a chain of `+` nodes; one `backward()` gives the same
//! numbers), and `xs.iter().product()` as a chain of `*` nodes (Python's `math.prod`).
//! A second `backward()` on the same graph differs from Python's, whose hidden nodes
//! keep their grads, as for `-` and `/` (see [`Value::backward`]).

use crate::engine::inspect::Reader;
use crate::engine::ops::Backward;
use crate::engine::parents::Parents;
use crate::engine::value::{Node, Value};

impl Value {
    /// The n-ary sum behind [`std::iter::Sum`]: one node with every term as a parent,
    /// added left to right from 0 as Python's `sum()` does. d/dxᵢ = 1 for every term.
    fn sum_of(terms: Box<[Value]>) -> Value {
        let out = terms.iter().fold(0.0, |acc, t| acc + t.data());
        Value::from_op(out, Parents::Many(terms), Box::new(Summed))
    }
}

/// A sum node's backward closure, a type of its own so that it names the op `"sum"`
/// and the tape finds its sums ([`is_sum`]).
pub(crate) struct Summed;

impl Backward for Summed {
    fn run(&self, out: &Node) {
        for t in out.parents() {
            t.add_grad(out.grad);
        }
    }
}

impl Reader for Summed {
    fn name(&self) -> &'static str {
        "sum"
    }
}

/// Whether `node` is an n-ary sum node.
pub(crate) fn is_sum(node: &Node) -> bool {
    node.closure::<Summed>().is_some()
}

/// `values.into_iter().sum()`: ONE node whose parents are all the terms (Python's
/// `sum()` builds a chain of `+` nodes instead; the numbers are the same).
///
/// Derivative: 1 with respect to every term. An empty sum is a leaf holding 0.
///
/// ```
/// use micrograd::Value;
/// let xs = [Value::new(1.0), Value::new(2.0), Value::new(3.0)];
/// let s: Value = xs.iter().sum();
/// assert_eq!((s.data(), s.op(), s.parents().len()), (6.0, "sum", 3));
/// s.backward();
/// assert!(xs.iter().all(|x| x.grad() == 1.0));
/// ```
impl std::iter::Sum<Value> for Value {
    fn sum<I: Iterator<Item = Value>>(iter: I) -> Value {
        let terms: Box<[Value]> = iter.collect();
        if terms.is_empty() {
            return Value::new(0.0);
        }
        Value::sum_of(terms)
    }
}

/// `values.iter().sum()`: the same single n-ary node as `Sum<Value>`.
impl<'a> std::iter::Sum<&'a Value> for Value {
    fn sum<I: Iterator<Item = &'a Value>>(iter: I) -> Value {
        iter.cloned().sum()
    }
}

/// `values.into_iter().product()`: the factors multiplied left to right, one `*` node
/// each (Python's `math.prod(values)`, which starts from `1 * values[0]`; `1.0 * x` is
/// `x` exactly, so one `backward()` gives the same numbers with one node fewer).
///
/// Derivative: with respect to each factor, the product of all the others (the chain
/// rule through the `*` nodes). An empty product is a leaf holding 1.
///
/// ```
/// use micrograd::Value;
/// let xs = [Value::new(2.0), Value::new(3.0), Value::new(4.0)];
/// let p: Value = xs.iter().product();
/// assert_eq!((p.data(), p.op()), (24.0, "*"));
/// p.backward();
/// assert_eq!(xs.map(|x| x.grad()), [12.0, 8.0, 6.0]);
/// ```
impl std::iter::Product<Value> for Value {
    fn product<I: Iterator<Item = Value>>(iter: I) -> Value {
        iter.reduce(|acc, x| acc * x)
            .unwrap_or_else(|| Value::new(1.0))
    }
}

/// `values.iter().product()`: the same chain of `*` nodes as `Product<Value>`.
impl<'a> std::iter::Product<&'a Value> for Value {
    fn product<I: Iterator<Item = &'a Value>>(iter: I) -> Value {
        iter.cloned().product()
    }
}

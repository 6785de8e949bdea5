//! A neuron as ONE node: `act(b + w0·x0 + w1·x1 + ...)`, with its rule right under it.
//!
//! Python's `Neuron.__call__` builds `sum((wi*xi for wi,xi in zip(self.w, x)), self.b)`
//! and then `relu()`: a `*` node per input, a `+` node per term and one for the
//! activation, 2n + 1 nodes for n inputs. Here the whole neuron is one node whose
//! parents are `[b, w0, x0, w1, x1, ...]`. It adds the same rounded products in the same
//! order, so its value has Python's bits, and its rule adds the same contributions as
//! the products' and the sum's rules would.
//! [`DotOptions::as_python`](crate::view::DotOptions::as_python) draws it as Python's
//! graph again.
//!
//! The node shares its parameters and its inputs with other nodes (the lists of
//! `src/engine/compact.rs`): a neuron costs one allocation, its node, and no reference
//! count per weight and input to raise when it is built and lower when it is dropped.
//! [`Value::neuron`] (in `src/nn/one_node.rs`) maps an `Activation` onto it.

use std::rc::Rc;

use crate::engine::compact::Act;
use crate::engine::compact::{NeuronInputs, NeuronParams};
use crate::engine::op::Op;
use crate::engine::ops::Backward;
use crate::engine::parents::Parents;
use crate::engine::rules::{Rule, NO_CONSTS};
use crate::engine::value::Node;
use crate::watch;
use crate::{Error, Value};

impl Value {
    /// The node of a neuron with the activation `act` over the parameters `params` and
    /// the inputs `inputs`, which the node shares (see the module's documentation):
    /// what [`Value::neuron`] makes (a leaky ReLU goes on top of a `Linear` one). An
    /// activation of a sum that is not finite is a node of its own above it.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `inputs` and the weights differ in length.
    pub(crate) fn neuron_node(
        params: &Rc<NeuronParams>,
        inputs: &Rc<NeuronInputs>,
        mut act: Act,
    ) -> Result<Value, Error> {
        let weights = params.weights();
        let inputs_list = &inputs.values;
        if inputs_list.len() != weights.len() {
            return Err(Error::InputWidth {
                expected: weights.len(),
                got: inputs_list.len(),
            });
        }
        // (`data()` of each weight and input, with one look for a live `Training` for
        // the whole neuron: each case is its own loop.)
        let terms = weights.iter().zip(inputs_list);
        let sum = match watch::trainings_live() {
            true => weighted_sum::<true>(params.bias(), terms),
            false => weighted_sum::<false>(params.bias(), terms),
        };
        // An overflowed sum stays a node of its own, so that `try_backward` reports it
        // as it would in Python's graph (`tanh(inf)` is 1 and would hide it).
        let separate = activation_rule(act).filter(|_| !sum.is_finite());
        if separate.is_some() {
            act = Act::Linear;
        }
        let data = match activation_rule(act) {
            Some(Rule::One(rule)) => (rule.forward)(sum, NO_CONSTS),
            _ => sum,
        };
        let parents = Parents::Neuron(Rc::clone(params), Rc::clone(inputs));
        let op = Op::Neuron(act);
        let out = Value::from_op(data, op, parents, NO_CONSTS, Box::new(NeuronRule));
        let Some(rule) = separate else {
            return Ok(out);
        };
        let activation = rule.apply1(&out, NO_CONSTS);
        activation.mark(NeuronActivation);
        Ok(activation)
    }
}

/// The one-parent op of a neuron node's activation (`None` for `Linear`). (Always
/// inlined: a neuron's rule then calls the activation's functions directly.)
#[inline(always)]
pub(crate) fn activation_rule(act: Act) -> Option<Rule> {
    use crate::engine::activations::{RELU, TANH};
    use crate::ops::activations::SIGMOID;
    match act {
        Act::Linear => None,
        Act::Relu => Some(Rule::One(&RELU)),
        Act::Tanh => Some(Rule::One(&TANH)),
        Act::Sigmoid => Some(Rule::One(&SIGMOID)),
    }
}

/// The mark (`Value::mark`) of the activation that [`Value::neuron`] put on a node of
/// its own above its sum because the sum was not finite (on finite data the same call
/// makes one node), so that a tape compiled from it builds the neuron again the same
/// way ([`is_neuron_activation`]).
#[derive(Clone, Copy)]
struct NeuronActivation;

/// Whether `node` is the activation of a neuron whose sum was not finite (see
/// [`NeuronActivation`]).
pub(crate) fn is_neuron_activation(node: &Node) -> bool {
    node.mark::<NeuronActivation>().is_some()
}

/// A neuron node's closure: its [`rule`]. (A reader of the graph lists the node's
/// parents `[b, w0, x0, w1, x1, ...]` from its shared lists, `Node::parent_list`; the
/// node keeps them as they are.)
struct NeuronRule;

impl Backward for NeuronRule {
    fn run(&self, out: &Node) {
        rule(out);
    }
}

/// The rule of a neuron node: what the activation's, the sum's and the products' rules
/// of Python's graph add, in the order they add it.
fn rule(out: &Node) {
    let Op::Neuron(act) = out.op else {
        unreachable!("a neuron node's op is Op::Neuron")
    };
    let g = sum_grad(act, out);
    let Parents::Neuron(params, inputs) = &*out.parents else {
        unreachable!("a neuron node keeps its shared lists")
    };
    add_terms(
        g,
        params.bias(),
        params.weights().iter().zip(&inputs.values),
    );
}

/// The grad of a neuron node's sum in Python's graph: `0.0 + f'(s) * out.grad`, as the
/// activation's rule leaves it on the sum node (or the node's own grad without an
/// activation). Read by the node's rule and by its drawing as Python's nodes.
pub(crate) fn sum_grad(act: Act, out: &Node) -> f64 {
    match activation_rule(act) {
        Some(Rule::One(rule)) => 0.0 + (rule.local_grad)(0.0, out.data, NO_CONSTS) * out.grad,
        _ => out.grad,
    }
}

/// `b + w0·x0 + w1·x1 + ...`, the data read as `data()` reads it (`LIVE`: whether a
/// `Training` is live, see [`Value::data_if`]).
#[inline(always)]
fn weighted_sum<'a, const LIVE: bool>(
    b: &Value,
    terms: impl Iterator<Item = (&'a Value, &'a Value)>,
) -> f64 {
    // Python: sum(..., self.b) starts from b; Rust's `sum()` from 0.0 + b (same bits
    // for every b but -0.0 with no products, where both engines here give 0.0).
    let mut sum = 0.0 + b.data_if(LIVE);
    for (w, x) in terms {
        sum += w.data_if(LIVE) * x.data_if(LIVE);
    }
    sum
}

/// `b.grad += g`, then for each term `w.grad += x.data * g; x.grad += w.data * g`.
fn add_terms<'a>(g: f64, b: &Value, terms: impl Iterator<Item = (&'a Value, &'a Value)>) {
    // (`data()` of each weight and input, with one look for a live `Training`: each
    // case is its own loop.)
    match watch::trainings_live() {
        true => add_terms_reading::<true>(g, b, terms),
        false => add_terms_reading::<false>(g, b, terms),
    }
}

/// [`add_terms`], the data read as `data()` reads it (`LIVE`: whether a `Training` is
/// live, see [`Value::data_if`]).
#[inline(always)]
fn add_terms_reading<'a, const LIVE: bool>(
    g: f64,
    b: &Value,
    terms: impl Iterator<Item = (&'a Value, &'a Value)>,
) {
    // Python (sum, as + nodes): self.grad += out.grad
    b.add_grad(g);
    for (w, x) in terms {
        // Python (*): self.grad += other.data * out.grad; other.grad += self.data * out.grad
        // (`w`'s data read in the same borrow as its grad is written: one borrow fewer a
        // term, the same numbers, also where `w` is `x`.)
        let xd = x.data_if(LIVE);
        let stored = {
            let mut node = w.0.borrow_mut();
            node.add_grad(xd * g);
            node.data
        };
        let wd = watch::data_read(LIVE, w.address(), stored);
        x.add_grad(wd * g);
    }
}

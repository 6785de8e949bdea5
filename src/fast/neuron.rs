//! A neuron as ONE node: `act(b + w0·x0 + w1·x1 + ...)`, with its rule right under it.
//!
//! Python's `Neuron.__call__` builds `sum((wi*xi for wi,xi in zip(self.w, x)), self.b)`
//! and then `relu()`: a `*` node per input, a `+` node per term and one for the
//! activation, 2n + 1 nodes for n inputs. Here the whole neuron is one node. It adds the
//! same rounded products in the same order, so its value has Python's bits, and its rule
//! adds the same contributions as the products' and the sum's rules would.
//! [`DotOptions::as_python`](crate::view::DotOptions::as_python) draws it as Python's
//! graph again.
//!
//! The node does not copy its 2n + 1 parents. Its two parents are nodes that list them
//! (a *list*: a node with no rule of its own): one of the neuron's parameters `[b, w0,
//! w1, ...]` ([`NeuronParams`], made once per neuron and shared by the node of every
//! sample) and one of its inputs ([`NeuronInputs`], made once per layer and sample,
//! shared by the layer's neurons). So a neuron costs one allocation, its node, and no
//! reference count per weight and input to raise when it is built and lower when it is
//! dropped; and `backward()` visits a layer's inputs once per sample, and the weights
//! once per pass. A reader of the graph sees Python's parents `[b, w0, x0, w1, x1,
//! ...]`, which the node's closure lists (`Reader::python_parents`).
//!
//! Only a neuron whose parameters are all leaves (as a model's are) is one node: a
//! computed weight's graph would be walked with the other weights, before the inputs,
//! where Python walks each weight's just before its input, and its rules would run in
//! another order. Such a neuron is Python's graph itself. [`Value::neuron`] (in
//! `src/nn/one_node.rs`) maps an `Activation` onto the node.

use std::cell::Ref;

use crate::engine::inspect::Reader;
use crate::engine::ops::Backward;
use crate::engine::parents::Parents;
use crate::engine::value::{BackwardFn, Node};
use crate::rules::{Rule, NO_CONSTS};
use crate::watch;
use crate::{Error, Value};

/// A neuron's parameters `[b, w0, w1, ...]`, and, when all are leaves, the list that
/// the nodes of every sample share.
pub(crate) struct NeuronParams {
    /// `[b, w0, w1, ...]`.
    values: Box<[Value]>,
    /// A list of `values` (see [`list`]), when all are leaves (a leaf stays one).
    list: Option<Value>,
}

impl NeuronParams {
    /// The parameters `[bias, weights...]`.
    pub(crate) fn new(bias: &Value, weights: &[Value]) -> NeuronParams {
        let values: Box<[Value]> = std::iter::once(bias).chain(weights).cloned().collect();
        let leaves = values.iter().all(|v| v.node().is_leaf());
        let list = leaves.then(|| list(values.to_vec()));
        NeuronParams { values, list }
    }

    /// The bias `b`.
    pub(crate) fn bias(&self) -> &Value {
        &self.values[0]
    }

    /// The weights `w0, w1, ...`.
    pub(crate) fn weights(&self) -> &[Value] {
        &self.values[1..]
    }
}

/// A layer's inputs for one sample, as a list that the nodes of its neurons share.
#[derive(Clone)]
pub(crate) struct NeuronInputs(Value);

impl NeuronInputs {
    /// The list of `values`.
    pub(crate) fn new(values: Vec<Value>) -> NeuronInputs {
        NeuronInputs(list(values))
    }

    /// `[x0, x1, ...]`.
    pub(crate) fn values(&self) -> Ref<'_, [Value]> {
        Ref::map(self.0.node(), Node::parents)
    }
}

/// A node whose parents are `values`: a list, with no rule of its own and no value.
fn list(values: Vec<Value>) -> Value {
    let parents = Parents::Many(values.into_boxed_slice());
    Value::from_op(0.0, parents, Box::new(List))
}

/// A list's closure: it names the node and adds nothing.
struct List;

impl Backward for List {
    fn run(&self, _out: &Node) {}
}

impl Reader for List {
    fn name(&self) -> &'static str {
        "list"
    }
}

/// The activation a neuron node applies to its weighted sum: those whose derivative is
/// a function of the output alone, so the node need not keep the sum.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Act {
    /// The sum itself.
    Linear,
    /// `relu(sum)`.
    Relu,
    /// `tanh(sum)`.
    Tanh,
    /// `sigmoid(sum)`.
    Sigmoid,
}

impl Act {
    /// Every activation, in the order of their indices (`act as usize`, the `K` of a
    /// neuron node's closure `NeuronRule<K>`).
    const ALL: [Act; 4] = [Act::Linear, Act::Relu, Act::Tanh, Act::Sigmoid];

    /// The activation of `sum` as its own node, made by the op's method (`sum` itself
    /// for `Linear`): Python's graph of a neuron ends so.
    fn apply(self, sum: &Value) -> Value {
        match self {
            Act::Linear => sum.clone(),
            Act::Relu => sum.relu(),
            Act::Tanh => sum.tanh(),
            Act::Sigmoid => sum.sigmoid(),
        }
    }

    /// A neuron node's `_op` string: `"neuron"`, `"relu neuron"`, ...
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Act::Linear => "neuron",
            Act::Relu => "relu neuron",
            Act::Tanh => "tanh neuron",
            Act::Sigmoid => "sigmoid neuron",
        }
    }
}

impl Value {
    /// The node of a neuron with the activation `act` over the parameters `params` and
    /// the inputs `inputs`, which the node shares (see the module's documentation):
    /// what [`Value::neuron`] makes (a leaky ReLU goes on top of a `Linear` one). An
    /// activation of a sum that is not finite is a node of its own above it; a neuron
    /// with a parameter that is not a leaf is Python's graph.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `inputs` and the weights differ in length.
    pub(crate) fn neuron_node(
        params: &NeuronParams,
        inputs: &NeuronInputs,
        mut act: Act,
    ) -> Result<Value, Error> {
        let weights = params.weights();
        let inputs_list = inputs.values();
        if inputs_list.len() != weights.len() {
            return Err(Error::InputWidth {
                expected: weights.len(),
                got: inputs_list.len(),
            });
        }
        let Some(params_list) = &params.list else {
            return Ok(python_neuron(params, &inputs_list, act));
        };
        // (`data()` of each weight and input, with one look for a live `Training` for
        // the whole neuron: each case is its own loop.)
        let terms = weights.iter().zip(&*inputs_list);
        let sum = match watch::trainings_live() {
            true => weighted_sum::<true>(params.bias(), terms),
            false => weighted_sum::<false>(params.bias(), terms),
        };
        // An overflowed sum stays a node of its own, so that `try_backward` reports it
        // as it would in Python's graph (`tanh(inf)` is 1 and would hide it).
        let separate = (act != Act::Linear && !sum.is_finite()).then_some(act);
        if separate.is_some() {
            act = Act::Linear;
        }
        let data = match activation_rule(act) {
            Some(Rule::One(rule)) => (rule.forward)(sum, NO_CONSTS),
            _ => sum,
        };
        // (Whether it needs a gradient is asked of its weights and inputs, as `from_op`
        // asks a node's parents; not of the list of weights, whose answer dates from
        // when the neuron was made.)
        let requires_grad =
            (params.values.iter().chain(&*inputs_list)).any(|v| v.node().requires_grad);
        let parents = Parents::Two([params_list.clone(), inputs.0.clone()]);
        let out = Value::from_op(data, parents, closure(act));
        out.0.borrow_mut().requires_grad = requires_grad;
        let Some(separate) = separate else {
            return Ok(out);
        };
        let activation = separate.apply(&out);
        activation.mark(NeuronActivation);
        Ok(activation)
    }
}

/// The one-parent op of a neuron node's activation (`None` for `Linear`). (Always
/// inlined: a neuron's rule then calls the activation's functions directly.)
#[inline(always)]
pub(crate) fn activation_rule(act: Act) -> Option<Rule> {
    use crate::ops::activations::SIGMOID;
    use crate::rules::activations::{RELU, TANH};
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

/// Python's graph of a neuron: `sum((wi*xi for wi,xi in zip(w, x)), b)`, then the
/// activation.
fn python_neuron(params: &NeuronParams, inputs: &[Value], act: Act) -> Value {
    let mut sum = params.bias().clone();
    for (w, x) in params.weights().iter().zip(inputs) {
        sum = &sum + &(w * x);
    }
    act.apply(&sum)
}

/// A neuron node's closure, named by its activation, `Act::ALL[ACT]` (zero-sized, so
/// boxing it allocates nothing): its [`rule`], its name, and its parents in Python's
/// order for a reader of the graph.
struct NeuronRule<const ACT: usize>;

impl<const ACT: usize> Backward for NeuronRule<ACT> {
    fn run(&self, out: &Node) {
        rule(Act::ALL[ACT], out);
    }
}

impl<const ACT: usize> Reader for NeuronRule<ACT> {
    fn name(&self) -> &'static str {
        Act::ALL[ACT].symbol()
    }

    fn python_parents(&self, out: &Node) -> Option<Vec<Value>> {
        Some(with_terms(out, |b, weights, inputs| {
            let pairs = weights.iter().zip(inputs).flat_map(|(w, x)| [w, x]);
            std::iter::once(b).chain(pairs).cloned().collect()
        }))
    }
}

/// The closure of a neuron node with the activation `act`.
fn closure(act: Act) -> BackwardFn {
    match act {
        Act::Linear => Box::new(NeuronRule::<{ Act::Linear as usize }>),
        Act::Relu => Box::new(NeuronRule::<{ Act::Relu as usize }>),
        Act::Tanh => Box::new(NeuronRule::<{ Act::Tanh as usize }>),
        Act::Sigmoid => Box::new(NeuronRule::<{ Act::Sigmoid as usize }>),
    }
}

/// The activation of a neuron node (`None` for every other node).
pub(crate) fn neuron_act(node: &Node) -> Option<Act> {
    /// Whether `node`'s closure is a neuron node's with the activation `Act::ALL[K]`.
    fn is<const K: usize>(node: &Node) -> bool {
        node.closure::<NeuronRule<K>>().is_some()
    }
    let found = [is::<0>(node), is::<1>(node), is::<2>(node), is::<3>(node)];
    found.iter().position(|&found| found).map(|k| Act::ALL[k])
}

/// `f` of a neuron node's bias `b`, weights `[w0, w1, ...]` and inputs `[x0, x1, ...]`,
/// read from the two lists the node holds.
#[inline(always)]
fn with_terms<R>(out: &Node, f: impl FnOnce(&Value, &[Value], &[Value]) -> R) -> R {
    let [params, inputs] = out.parents() else {
        unreachable!("a neuron node holds its two lists")
    };
    let (params, inputs) = (params.node(), inputs.node());
    let [b, weights @ ..] = params.parents() else {
        unreachable!("a neuron has its bias")
    };
    f(b, weights, inputs.parents())
}

/// The rule of a neuron node: what the activation's, the sum's and the products' rules
/// of Python's graph add, in the order they add it.
fn rule(act: Act, out: &Node) {
    let g = sum_grad(act, out);
    with_terms(out, |b, weights, inputs| {
        add_terms(g, b, weights.iter().zip(inputs))
    });
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

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
//! The node does not copy those 2n + 1 handles: it holds two `Rc`s
//! ([`Parents::Neuron`]), one of the neuron's parameters `[b, w0, w1, ...]`
//! ([`NeuronParams`], made once per neuron and shared by the node of every sample) and
//! one of its inputs (made once per layer and sample, shared by the layer's neurons). So
//! a neuron costs one allocation, its node, and no reference count per weight and input
//! to raise when it is built and lower when it is dropped. Where the graph is shown or
//! compiled, [`Value::expand`] gives the node its own list `[b, w0, x0, ...]` again.

use std::rc::Rc;

use super::op::{Act, Op};
use super::rules::NO_CONSTS;
use super::value::{Node, Parents, Value};
use crate::Error;

/// A neuron's parameters `[b, w0, w1, ...]`, shared by every node the neuron makes.
pub(crate) struct NeuronParams {
    /// `[b, w0, w1, ...]`.
    pub(crate) values: Box<[Value]>,
}

impl NeuronParams {
    /// The parameters `[bias, weights...]`.
    pub(crate) fn new(bias: &Value, weights: &[Value]) -> NeuronParams {
        let values: Box<[Value]> = std::iter::once(bias).chain(weights).cloned().collect();
        NeuronParams { values }
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

/// A layer's inputs for one sample, shared by the nodes of its neurons.
pub(crate) struct NeuronInputs {
    /// `[x0, x1, ...]`.
    pub(crate) values: Vec<Value>,
}

impl NeuronInputs {
    /// The list `values`, to share.
    pub(crate) fn new(values: Vec<Value>) -> Rc<NeuronInputs> {
        Rc::new(NeuronInputs { values })
    }
}

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
        // Python: sum(..., self.b) starts from b; Rust's `sum()` from 0.0 + b (same bits
        // for every b but -0.0 with no products, where both engines here give 0.0).
        let mut sum = 0.0 + params.bias().data();
        for (w, x) in weights.iter().zip(inputs_list) {
            sum += w.data() * x.data();
        }
        // An overflowed sum stays a node of its own, so that `try_backward` reports it
        // as it would in Python's graph (`tanh(inf)` is 1 and would hide it).
        let separate = act.op().filter(|_| !sum.is_finite());
        if separate.is_some() {
            act = Act::Linear;
        }
        let data = act.op().map_or(sum, |op| op.forward(sum, 0.0, NO_CONSTS));
        let parents = Parents::Neuron(Rc::clone(params), Rc::clone(inputs));
        let op = Op::Neuron(act);
        let out = Value::from_op(data, op, parents, NO_CONSTS, Box::new(rule));
        let Some(op) = separate else {
            return Ok(out);
        };
        let activation = op.apply1(&out, NO_CONSTS);
        activation
            .0
            .borrow_mut()
            .extra
            .get_or_insert_with(Default::default)
            .neuron_activation = true;
        Ok(activation)
    }

    /// Gives a neuron node its own list of parents `[b, w0, x0, w1, x1, ...]` (a no-op
    /// for any other node): the list every view and the tape's compiler read.
    pub(crate) fn expand_neuron(&self) {
        let mut node = self.0.borrow_mut();
        let Parents::Neuron(params, inputs) = &*node.parents else {
            return;
        };
        let mut list = Vec::with_capacity(1 + 2 * inputs.values.len());
        list.push(params.bias().clone());
        for (w, x) in params.weights().iter().zip(&inputs.values) {
            list.push(w.clone());
            list.push(x.clone());
        }
        *node.parents = Parents::Many(list.into_boxed_slice());
    }
}

/// The rule of a neuron node: what the activation's, the sum's and the products' rules
/// of Python's graph add, in the order they add it.
fn rule(out: &Node) {
    let Op::Neuron(act) = out.op else {
        unreachable!("a neuron node's op is Op::Neuron")
    };
    // The sum's grad: `0.0 + f'(s) * out.grad`, as the activation's rule leaves it on
    // the sum node (or the node's own grad without an activation).
    let g = match act.op() {
        Some(op) => 0.0 + op.local_grads(0.0, 0.0, out.data, NO_CONSTS).0 * out.grad,
        None => out.grad,
    };
    match &*out.parents {
        Parents::Neuron(params, inputs) => {
            add_terms(
                g,
                params.bias(),
                params.weights().iter().zip(&inputs.values),
            );
        }
        parents => {
            let [b, terms @ ..] = parents.as_slice() else {
                unreachable!("a neuron node has its bias")
            };
            add_terms(g, b, terms.chunks_exact(2).map(|wx| (&wx[0], &wx[1])));
        }
    }
}

/// `b.grad += g`, then for each term `w.grad += x.data * g; x.grad += w.data * g`.
fn add_terms<'a>(g: f64, b: &Value, terms: impl Iterator<Item = (&'a Value, &'a Value)>) {
    // Python (sum, as + nodes): self.grad += out.grad
    b.add_grad(g);
    for (w, x) in terms {
        // Python (*): self.grad += other.data * out.grad; other.grad += self.data * out.grad
        // (`w`'s data read in the same borrow as its grad is written: one borrow fewer a
        // term, the same numbers, also where `w` is `x`.)
        let xd = x.data();
        let wd = {
            let mut w = w.0.borrow_mut();
            w.add_grad(xd * g);
            w.data
        };
        x.add_grad(wd * g);
    }
}

//! [`Value::neuron`]: a neuron's weighted sum and activation as one node of the graph.
//!
//! The node itself (its parents, its rule, how `backward()` walks it) is made in
//! `src/fast/neuron.rs`; this file maps an [`Activation`] onto it, which is why it
//! lives with the activations, above the engine.

use std::rc::Rc;

use super::Activation;
use crate::fast::Act;
use crate::fast::{NeuronInputs, NeuronParams};
use crate::{Error, Value};

impl Value {
    /// A neuron's output `act(b + w0·x0 + w1·x1 + ...)` as one node: Python's
    /// `sum((wi*xi for wi,xi in zip(w, x)), b)` followed by the activation.
    ///
    /// The sum is computed as micrograd computes it: `b` first, then each product
    /// `wi·xi`, rounded, added left to right, so the value is bit for bit Python's (and
    /// that of `once(b).chain(products).sum()`). [`Value::op`] is `"neuron"`,
    /// `"relu neuron"`, `"tanh neuron"` or `"sigmoid neuron"`; its
    /// [`parents`](Value::parents) are `[b, w0, x0, w1, x1, ...]`.
    /// [`Activation::LeakyRelu`] (whose derivative needs the sum, not only the output)
    /// is a `leaky_relu` node on top of a `"neuron"` node, and so is any activation of a
    /// sum that is not finite (so that [`try_backward`](Value::try_backward) reports the
    /// overflow, which `tanh(∞) = 1` would hide).
    ///
    /// `try_backward` checks the node as one value, after all its weights and inputs: a
    /// product or partial sum inside it that overflows is reported as this node (op
    /// `"neuron"`), where Python's graph names its `*` or `+` node; and where a weight
    /// or input after that product is itself not finite, that weight or input is named.
    ///
    /// Derivative, with `s = b + Σ wi·xi` and `f` the activation (`f' = 1` for
    /// `Linear`): d/db = f'(s), d/dwᵢ = xᵢ·f'(s), d/dxᵢ = wᵢ·f'(s). The rule adds
    /// `b.grad += g`, then `wᵢ.grad += xᵢ·g` and `xᵢ.grad += wᵢ·g` for i = 0, 1, ...,
    /// where `g = f'(s)·out.grad`: the numbers the rules of Python's `*` and `+` nodes
    /// add, so every gradient has the same bits as with the graph of products and sums.
    /// (Where one value is two operands of the same neuron, `neuron(b, [w, w], [x, x])`,
    /// that graph adds its two contributions last term first, this node first term
    /// first; the last digit can then differ.)
    ///
    /// A [`Layer`](crate::nn::Layer) shares its neurons' parameters and its inputs
    /// between the nodes it makes (one allocation per neuron); called directly, this
    /// makes the node its own lists.
    ///
    /// Only a neuron whose bias and weights are all leaves (as a model's are) is one
    /// node. With a computed one (`w0 = &a * &c`), this builds Python's graph of `*`
    /// and `+` nodes and the activation: the one node would walk the weights' graphs
    /// before the inputs', where Python walks each weight's with its input, and run
    /// their rules in another order.
    ///
    /// # Errors
    ///
    /// [`Error::InputWidth`] if `inputs` and `weights` differ in length (Python's `zip`
    /// would silently use the shorter).
    ///
    /// ```
    /// use micrograd::{nn::Activation, Value};
    /// // Python: act = sum((wi*xi for wi,xi in zip(w, x)), b); out = act.relu()
    /// let b = Value::new(0.5);
    /// let w = [Value::new(2.0), Value::new(-1.0)];
    /// let x = [Value::new(3.0), Value::new(4.0)];
    /// let y = Value::neuron(&b, &w, &x, Activation::Relu)?;
    /// assert_eq!((y.data(), y.op(), y.parents().len()), (2.5, "relu neuron", 5));
    /// y.backward();
    /// assert_eq!((b.grad(), w[0].grad(), x[1].grad()), (1.0, 3.0, -1.0));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn neuron(
        bias: &Value,
        weights: &[Value],
        inputs: &[Value],
        activation: Activation,
    ) -> Result<Value, Error> {
        let params = Rc::new(NeuronParams::new(bias, weights));
        Value::shared_neuron(&params, &NeuronInputs::new(inputs.to_vec()), activation)
    }

    /// [`Value::neuron`] of the parameters `params` and the inputs `inputs`, which the
    /// node shares (see `src/fast/neuron.rs`).
    pub(crate) fn shared_neuron(
        params: &Rc<NeuronParams>,
        inputs: &NeuronInputs,
        activation: Activation,
    ) -> Result<Value, Error> {
        // (A leaky ReLU's derivative needs the sum, which a neuron node does not keep;
        // your own activation is a graph of its own, applied to the sum.)
        let act = match activation {
            Activation::Relu => Act::Relu,
            Activation::Tanh => Act::Tanh,
            Activation::Sigmoid => Act::Sigmoid,
            Activation::Linear | Activation::LeakyRelu(_) | Activation::Custom(_) => Act::Linear,
        };
        let out = Value::neuron_node(params, inputs, act)?;
        Ok(match activation {
            Activation::LeakyRelu(slope) => out.leaky_relu(slope),
            Activation::Custom(custom) => custom.apply(&out),
            _ => out,
        })
    }
}

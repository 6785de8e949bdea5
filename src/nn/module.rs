//! The `Module` trait: anything with trainable parameters (micrograd's `class Module`).

use crate::{Error, Value};

/// Anything with trainable parameters: a [`Neuron`](super::Neuron), a
/// [`Layer`](super::Layer), an [`MLP`](super::MLP), or your own model.
///
/// Implement [`parameters`](Module::parameters); [`zero_grad`](Module::zero_grad),
/// [`num_parameters`](Module::num_parameters), [`params`](Module::params) and
/// [`set_params`](Module::set_params) come for free.
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::nn::Neuron;
/// use rand::{rngs::StdRng, SeedableRng};
///
/// /// Two neurons whose outputs are added: a model of your own.
/// struct Pair(Neuron, Neuron);
/// impl Module for Pair {
///     fn parameters(&self) -> Vec<Value> {
///         [self.0.parameters(), self.1.parameters()].concat()
///     }
/// }
///
/// let mut rng = StdRng::seed_from_u64(0);
/// let pair = Pair(Neuron::new(3, Activation::Relu, &mut rng), Neuron::new(3, Activation::Tanh, &mut rng));
/// assert_eq!(pair.num_parameters(), 8); // 2 * (3 weights + 1 bias)
/// ```
pub trait Module {
    /// Every trainable parameter, in a fixed order (micrograd's `parameters()`).
    ///
    /// The values are handles to the model's own nodes: setting their data changes the
    /// model, and `backward()` fills in their gradients.
    fn parameters(&self) -> Vec<Value>;

    /// Sets every parameter's gradient to 0 (Python: `for p in self.parameters(): p.grad = 0`).
    ///
    /// Call it before each `backward()` in a training loop: gradients accumulate.
    fn zero_grad(&self) {
        for p in self.parameters() {
            p.zero_grad();
        }
    }

    /// How many parameters there are (Python: `len(model.parameters())`).
    fn num_parameters(&self) -> usize {
        self.parameters().len()
    }

    /// The parameters' data as plain numbers, in the order of
    /// [`parameters`](Module::parameters) (Python: `[p.data for p in
    /// model.parameters()]`): a model's state that may cross threads or be stored,
    /// and go back in with [`set_params`](Module::set_params).
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let model = MLP::new(2, &[3, 1], &mut StdRng::seed_from_u64(0));
    /// let params = model.params();
    /// assert_eq!(params.len(), model.num_parameters());   // 2*3+3 + 3+1 = 13
    /// assert_eq!(params[0], model.parameters()[0].data());
    /// ```
    fn params(&self) -> Vec<f64> {
        self.parameters().iter().map(Value::data).collect()
    }

    /// Sets the parameters' data from plain numbers, in the order of
    /// [`parameters`](Module::parameters) (Python: `for p, x in
    /// zip(model.parameters(), xs): p.data = x`): the way back for
    /// [`params`](Module::params). Gradients are not touched; a compiled
    /// [`Tape`](crate::tape::Tape) notices the new data by itself.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] naming both lengths if
    /// `params` does not have one number per parameter (nothing is set).
    ///
    /// ```
    /// use micrograd::prelude::*;
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let model = MLP::new(2, &[3, 1], &mut StdRng::seed_from_u64(0));
    /// let zeros = vec![0.0; model.num_parameters()];
    /// model.set_params(&zeros)?;
    /// assert_eq!(model.params(), zeros);
    /// assert!(model.set_params(&[1.0, 2.0]).is_err());   // 13 expected, got 2
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    fn set_params(&self, params: &[f64]) -> Result<(), Error> {
        let parameters = self.parameters();
        if params.len() != parameters.len() {
            return Err(Error::InvalidInput(format!(
                "set_params: expected {} numbers (one per parameter of the model), got {}",
                parameters.len(),
                params.len()
            )));
        }
        for (p, &x) in parameters.iter().zip(params) {
            p.set_data(x);
        }
        Ok(())
    }
}

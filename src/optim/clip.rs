//! Gradient clipping, by global norm or by value: on `Value`s, and as [`Clip`], a step
//! that clips before any optimiser's update (also on a tape's numbers).

use super::{not_finite, positive, Around, Optimizer, OptimizerState};
use crate::{Error, Value};

/// How [`Clip`] (and [`clip_grad_norm`], [`clip_grad_value`]) limit the gradients.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Clipping {
    /// Scale every gradient by `max_norm / (‖g‖ + 1e-6)` when that is below 1, where
    /// ‖g‖ is the 2-norm of all the gradients together (PyTorch's
    /// `clip_grad_norm_(params, max_norm)`): the direction of the step is kept.
    Norm(f64),
    /// Clamp each gradient into `[-clip, clip]` (PyTorch's
    /// `clip_grad_value_(params, clip)`).
    Value(f64),
}

impl Clipping {
    /// `self` if its bound is finite and > 0.
    fn checked(self) -> Result<Clipping, Error> {
        match self {
            Clipping::Norm(n) => positive("max_norm", n).map(Clipping::Norm),
            Clipping::Value(v) => positive("clip_value", v).map(Clipping::Value),
        }
    }

    /// Clips `grads` in place and returns their 2-norm before clipping, or, if one is
    /// NaN or infinite, leaves them alone and returns its index.
    ///
    /// The norm is summed in the order of `grads` on the calling thread, so it is the
    /// same number for any thread count. Where the sum of squares overflows although
    /// every gradient is finite, it is taken again scaled by the largest gradient, so
    /// that huge gradients are scaled down instead of being set to 0.
    fn apply(self, grads: &mut [f64]) -> Result<f64, usize> {
        if let Some(i) = grads.iter().position(|g| !g.is_finite()) {
            return Err(i);
        }
        let mut norm = grads.iter().map(|g| g * g).sum::<f64>().sqrt();
        if norm.is_infinite() {
            let largest = grads.iter().fold(0.0_f64, |m, g| m.max(g.abs()));
            let scaled = grads.iter().map(|g| (g / largest) * (g / largest));
            norm = largest * scaled.sum::<f64>().sqrt();
        }
        match self {
            Clipping::Norm(max_norm) => {
                let factor = (max_norm / (norm + 1e-6)).min(1.0);
                if factor < 1.0 {
                    grads.iter_mut().for_each(|g| *g *= factor);
                }
            }
            Clipping::Value(clip) => grads.iter_mut().for_each(|g| *g = g.clamp(-clip, clip)),
        }
        Ok(norm)
    }

    /// [`apply`](Clipping::apply) to the gradients of `params`, written back.
    fn apply_to(self, params: &[Value]) -> Result<f64, Error> {
        let mut grads: Vec<f64> = params.iter().map(Value::grad).collect();
        let norm = self
            .apply(&mut grads)
            .map_err(|i| not_finite(params, i, ("gradient", grads[i])))?;
        for (p, g) in params.iter().zip(grads) {
            p.set_grad(g);
        }
        Ok(norm)
    }
}

/// Scales the gradients of `params` so that their global 2-norm is at most `max_norm`
/// (PyTorch's `torch.nn.utils.clip_grad_norm_`): each is multiplied by
/// `max_norm / (norm + 1e-6)` if that is below 1. Returns the norm before clipping.
///
/// # Errors
///
/// [`Error::HyperParameter`] unless `max_norm` is finite and > 0;
/// [`Error::NonFiniteUpdate`] naming the first gradient that is NaN or infinite (then
/// no gradient is changed).
///
/// ```
/// use micrograd::optim::clip_grad_norm;
/// use micrograd::Value;
/// let (a, b) = (Value::new(1.0), Value::new(1.0));
/// (&a * 3.0 + &b * 4.0).backward();            // grads 3 and 4: norm 5
/// assert_eq!(clip_grad_norm(&[a.clone(), b.clone()], 1.0)?, 5.0);
/// assert!((a.grad() - 0.6).abs() < 1e-6 && (b.grad() - 0.8).abs() < 1e-6);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn clip_grad_norm(params: &[Value], max_norm: f64) -> Result<f64, Error> {
    Clipping::Norm(max_norm).checked()?.apply_to(params)
}

/// Clamps each gradient of `params` into `[-clip, clip]` (PyTorch's
/// `torch.nn.utils.clip_grad_value_`).
///
/// # Errors
///
/// [`Error::HyperParameter`] unless `clip` is finite and > 0;
/// [`Error::NonFiniteUpdate`] naming the first gradient that is NaN or infinite (then
/// no gradient is changed).
///
/// ```
/// use micrograd::optim::clip_grad_value;
/// use micrograd::Value;
/// let (a, b) = (Value::new(1.0), Value::new(1.0));
/// (&a * 3.0 - &b * 0.5).backward();            // grads 3 and -0.5
/// clip_grad_value(&[a.clone(), b.clone()], 1.0)?;
/// assert_eq!((a.grad(), b.grad()), (1.0, -0.5));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn clip_grad_value(params: &[Value], clip: f64) -> Result<(), Error> {
    Clipping::Value(clip)
        .checked()?
        .apply_to(params)
        .map(|_| ())
}

/// Any optimiser, its gradients clipped before each step: by global norm
/// ([`Clip::norm`]) or by value ([`Clip::value`]).
///
/// On the dynamic graph, [`step`](Optimizer::step) clips the parameters' gradients in
/// place (as PyTorch's `clip_grad_norm_` does; they stay clipped) and steps. On plain
/// numbers ([`step_numbers`](Optimizer::step_numbers), which a
/// [`Tape::flush_and_step`](crate::tape::Tape::flush_and_step) or a
/// [`Training`](crate::tape::Training) calls) it clips the gradients it is given:
/// the norm is summed on the calling thread in the parameters' order, then the wrapped
/// optimiser updates on its threads, so the numbers are the same for any thread count
/// and the same as on the graph. A gradient that is NaN or infinite is not clipped: the
/// wrapped optimiser refuses it as usual ([`Error::NonFiniteUpdate`]).
///
/// The state saved and restored is the wrapped optimiser's; the clipping bound is not
/// part of it (build the same `Clip` to resume).
///
/// ```
/// use micrograd::prelude::*;
/// use micrograd::optim::Clip;
/// let w = Value::new(1.0);
/// let mut opt = Clip::norm(Sgd::new(vec![w.clone()], 0.1)?, 0.5)?;
/// (&w * 10.0).backward();                      // g = 10, clipped to about 0.5
/// opt.step()?;
/// assert!((w.data() - (1.0 - 0.1 * 0.5)).abs() < 1e-6);
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Debug)]
pub struct Clip<O> {
    inner: O,
    clipping: Clipping,
    /// The clipped gradients of a [`step_numbers`](Optimizer::step_numbers).
    scratch: Vec<f64>,
}

impl<O: Optimizer> Clip<O> {
    /// `opt`, its gradients scaled to a global 2-norm of at most `max_norm` before each
    /// step (see [`clip_grad_norm`]).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `max_norm` is finite and > 0.
    pub fn norm(opt: O, max_norm: f64) -> Result<Clip<O>, Error> {
        Clip::new(opt, Clipping::Norm(max_norm))
    }

    /// `opt`, each gradient clamped into `[-clip, clip]` before each step (see
    /// [`clip_grad_value`]).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `clip` is finite and > 0.
    pub fn value(opt: O, clip: f64) -> Result<Clip<O>, Error> {
        Clip::new(opt, Clipping::Value(clip))
    }

    /// `opt` clipped as `clipping` says.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless the bound is finite and > 0.
    pub fn new(opt: O, clipping: Clipping) -> Result<Clip<O>, Error> {
        Ok(Clip {
            inner: opt,
            clipping: clipping.checked()?,
            scratch: Vec::new(),
        })
    }

    /// The clipping.
    pub fn clipping(&self) -> Clipping {
        self.clipping
    }

    /// The wrapped optimiser.
    pub fn inner(&self) -> &O {
        &self.inner
    }

    /// The wrapped optimiser, to change it (e.g. its momentum is set at build time; its
    /// learning rate through [`Optimizer::set_learning_rate`] on the `Clip` as well).
    pub fn inner_mut(&mut self) -> &mut O {
        &mut self.inner
    }

    /// The wrapped optimiser, without the clipping.
    pub fn into_inner(self) -> O {
        self.inner
    }
}

impl<O: Optimizer> Optimizer for Clip<O> {
    fn params(&self) -> &[Value] {
        self.inner.params()
    }

    fn step(&mut self) -> Result<(), Error> {
        // A gradient that is not finite is left for the step to refuse.
        let _ = self.clipping.apply_to(self.inner.params());
        self.inner.step()
    }

    fn step_numbers(
        &mut self,
        data: &mut [f64],
        grads: &[f64],
        threads: usize,
    ) -> Result<(), Error> {
        self.scratch.clear();
        self.scratch.extend_from_slice(grads);
        let _ = self.clipping.apply(&mut self.scratch);
        self.inner.step_numbers(data, &self.scratch, threads)
    }

    /// All the gradients from `around.before` first (clipping by norm needs them all),
    /// clipped, then the wrapped optimiser's update block by block, each block's new
    /// data handed to `around.after`.
    fn step_numbers_around(
        &mut self,
        data: &mut [f64],
        grads: &mut [f64],
        threads: usize,
        around: &Around<'_>,
    ) -> Result<(), Error> {
        if grads.len() == self.params().len() {
            (around.before)(0..grads.len(), grads);
            let _ = self.clipping.apply(grads);
        }
        let given = Around {
            before: &|_, _| {},
            after: around.after,
        };
        self.inner.step_numbers_around(data, grads, threads, &given)
    }

    fn learning_rate(&self) -> f64 {
        self.inner.learning_rate()
    }

    fn set_learning_rate(&mut self, lr: f64) -> Result<(), Error> {
        self.inner.set_learning_rate(lr)
    }

    fn state(&self) -> OptimizerState {
        self.inner.state()
    }

    fn set_state(&mut self, state: &OptimizerState) -> Result<(), Error> {
        self.inner.set_state(state)
    }
}

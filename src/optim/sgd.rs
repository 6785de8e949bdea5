//! Stochastic gradient descent: micrograd's update, plus momentum and weight decay.

use super::state::named;
use super::{
    decay_factor, non_empty, non_negative, unit_interval, Around, Grads, Optimizer, OptimizerState,
    State,
};
use crate::{Error, Value};

/// Stochastic gradient descent with PyTorch's conventions. For each parameter p with
/// gradient g, one [`step`](Optimizer::step) does
///
/// ```text
/// g ← g + wd·p          (only if weight_decay > 0: L2 folded into the gradient)
/// v ← m·v + g           (only if momentum > 0; v starts at 0, so the first v is g)
/// p ← p - lr·v          (v = g without momentum)
/// ```
///
/// With the defaults (momentum 0, weight decay 0) this is exactly micrograd's
/// `p.data -= lr * p.grad`, bit for bit.
///
/// ```
/// use micrograd::prelude::*;
/// let w = Value::new(1.0);
/// let mut sgd = Sgd::new(vec![w.clone()], 0.1)?.momentum(0.5)?;
/// for _ in 0..2 {
///     sgd.zero_grad();
///     (&w * 2.0).backward();             // g = 2 at every step
///     sgd.step()?;
/// }
/// // v₁ = 2, p₁ = 1 - 0.1·2 = 0.8; v₂ = 0.5·2 + 2 = 3, p₂ = 0.8 - 0.1·3 = 0.5
/// assert!((w.data() - 0.5).abs() < 1e-15);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub struct Sgd {
    params: Vec<Value>,
    lr: f64,
    momentum: f64,
    weight_decay: f64,
    /// The velocity v of each parameter.
    velocity: State<1>,
}

/// The hyper-parameters and the number of parameters, not every parameter and its
/// velocity: `Sgd { lr: 0.1, momentum: 0.9, weight_decay: 0.0, params: 337 }`.
impl std::fmt::Debug for Sgd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sgd")
            .field("lr", &self.lr)
            .field("momentum", &self.momentum)
            .field("weight_decay", &self.weight_decay)
            .field("params", &self.params.len())
            .finish()
    }
}

impl Sgd {
    /// Plain SGD over `params` with learning rate `lr`.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `lr` is finite and ≥ 0;
    /// [`Error::InvalidInput`] if `params` is empty or holds a value that is not a leaf.
    pub fn new(params: Vec<Value>, lr: f64) -> Result<Sgd, Error> {
        let params = non_empty(params)?;
        Ok(Sgd {
            velocity: State::zeros(&params),
            params,
            lr: non_negative("lr", lr)?,
            momentum: 0.0,
            weight_decay: 0.0,
        })
    }

    /// Sets the momentum m (default 0). On an optimiser that has stepped without
    /// momentum, the velocity starts at 0, so the next step is `v = g` (PyTorch's first
    /// step with a momentum buffer).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `0 <= m < 1`.
    pub fn momentum(mut self, m: f64) -> Result<Sgd, Error> {
        let m = unit_interval("momentum", m)?;
        if self.momentum == 0.0 {
            // (Without momentum the rule keeps `v = g`, the last gradient, not a velocity.)
            self.velocity = State::zeros(&self.params);
        }
        self.momentum = m;
        Ok(self)
    }

    /// Sets the weight decay wd (default 0), added to the gradient as `wd·p`.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `wd` is finite and ≥ 0 and `lr·wd ≤ 1` (above 1,
    /// the decay `p·(1 - lr·wd)` would flip every parameter's sign at each step).
    pub fn weight_decay(mut self, wd: f64) -> Result<Sgd, Error> {
        let wd = non_negative("weight_decay", wd)?;
        decay_factor(self.lr, wd)?;
        self.weight_decay = wd;
        Ok(self)
    }
}

impl Sgd {
    /// The rule of a step: `(p, g, [v])` → `(new p, [new v])`. `PLAIN`: momentum and
    /// weight decay are both 0 (micrograd's update), so the rule need not look at them
    /// for each parameter (the same numbers: `v = g`, `p - lr·g`).
    fn rule<const PLAIN: bool>(&self) -> impl Fn(f64, f64, [f64; 1]) -> (f64, [f64; 1]) + Sync {
        let (lr, m, wd) = (self.lr, self.momentum, self.weight_decay);
        move |p, g, [v]| {
            let g = if !PLAIN && wd > 0.0 { g + wd * p } else { g };
            let v = if !PLAIN && m > 0.0 { m * v + g } else { g };
            // Python: p.data -= lr * p.grad
            (p - lr * v, [v])
        }
    }

    /// Whether momentum and weight decay are both 0: see [`rule`](Sgd::rule).
    fn plain(&self) -> bool {
        self.momentum == 0.0 && self.weight_decay == 0.0
    }

    /// [`Optimizer::step_numbers`] on `numbers` (data, and gradients given or made by
    /// an [`Around`]). The plain rule (momentum and weight decay both 0) is a loop of its
    /// own, so that the common case does not test them at every parameter.
    fn step_by(&mut self, numbers: (&mut [f64], Grads<'_>), threads: usize) -> Result<(), Error> {
        let params = &self.params;
        match self.plain() {
            true => {
                let rule = self.rule::<true>();
                (self.velocity).update_numbers(params, numbers, threads, rule)
            }
            false => {
                let rule = self.rule::<false>();
                (self.velocity).update_numbers(params, numbers, threads, rule)
            }
        }
    }
}

impl Optimizer for Sgd {
    fn params(&self) -> &[Value] {
        &self.params
    }

    fn step(&mut self) -> Result<(), Error> {
        match self.plain() {
            true => {
                let rule = self.rule::<true>();
                self.velocity.update(&self.params, rule)
            }
            false => {
                let rule = self.rule::<false>();
                self.velocity.update(&self.params, rule)
            }
        }
    }

    fn step_numbers(
        &mut self,
        data: &mut [f64],
        grads: &[f64],
        threads: usize,
    ) -> Result<(), Error> {
        self.step_by((data, Grads::Given(grads)), threads)
    }

    fn step_numbers_around(
        &mut self,
        data: &mut [f64],
        grads: &mut [f64],
        threads: usize,
        around: &Around<'_>,
    ) -> Result<(), Error> {
        self.step_by((data, Grads::Around(grads, around)), threads)
    }

    fn learning_rate(&self) -> f64 {
        self.lr
    }

    fn set_learning_rate(&mut self, lr: f64) -> Result<(), Error> {
        let lr = non_negative("lr", lr)?;
        decay_factor(lr, self.weight_decay)?;
        self.lr = lr;
        Ok(())
    }

    fn state(&self) -> OptimizerState {
        OptimizerState {
            kind: "Sgd".to_owned(),
            hyper_parameters: named(&[
                ("lr", self.lr),
                ("momentum", self.momentum),
                ("weight_decay", self.weight_decay),
            ]),
            steps: 0,
            slots: self.velocity.to_slots(),
        }
    }

    fn set_state(&mut self, state: &OptimizerState) -> Result<(), Error> {
        state.check_kind("Sgd")?;
        state.check_names(&["lr", "momentum", "weight_decay"])?;
        let lr = non_negative("lr", state.hyper_parameter("lr")?)?;
        let momentum = unit_interval("momentum", state.hyper_parameter("momentum")?)?;
        let wd = non_negative("weight_decay", state.hyper_parameter("weight_decay")?)?;
        decay_factor(lr, wd)?;
        self.velocity.current = state.slots(self.params.len())?;
        (self.lr, self.momentum, self.weight_decay) = (lr, momentum, wd);
        Ok(())
    }
}

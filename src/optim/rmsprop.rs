//! RMSProp (Hinton's lecture 6e, 2012), with PyTorch's conventions and defaults.

use super::state::named;
use super::{
    decay_factor, non_empty, non_negative, positive, unit_interval, Around, Grads, Optimizer,
    OptimizerState, State,
};
use super::{steps_by_take_step, Numbers};
use crate::{Error, Value};

/// RMSProp with PyTorch's update rule (`torch.optim.RMSprop`). For each parameter p with
/// gradient g, one [`step`](Optimizer::step) does
///
/// ```text
/// g ← g + wd·p                       (only if weight_decay > 0)
/// v ← α·v + (1 - α)·g²               (v, b, ḡ start at 0)
/// ḡ ← α·ḡ + (1 - α)·g                (only if centered)
/// a = √(v - ḡ²) + ε   if centered,   √v + ε otherwise
/// b ← μ·b + g / a;  p ← p - lr·b     if momentum μ > 0
/// p ← p - lr·(g / a)                 otherwise
/// ```
///
/// PyTorch's defaults: lr = 0.01, α = 0.99, ε = 1e-8, momentum 0, not centered, weight
/// decay 0. Unlike Adam there is no bias correction, so the first step moves each
/// parameter by lr·g/(√(1 - α)·|g| + ε), about 10·lr against its gradient's sign.
///
/// ```
/// use micrograd::optim::{Optimizer, RmsProp};
/// use micrograd::Value;
/// let w = Value::new(1.0);
/// let mut opt = RmsProp::new(vec![w.clone()], 0.01)?;
/// (&w * 2.0).backward();                       // g = 2
/// opt.step()?;
/// let v: f64 = (1.0 - 0.99) * 2.0 * 2.0;       // v = (1 - α)·g²
/// assert_eq!(w.data(), 1.0 - 0.01 * (2.0 / (v.sqrt() + 1e-8)));
/// # Ok::<(), micrograd::Error>(())
/// ```
pub struct RmsProp {
    params: Vec<Value>,
    lr: f64,
    alpha: f64,
    eps: f64,
    momentum: f64,
    centered: bool,
    weight_decay: f64,
    /// The number of steps taken (kept for the saved state; no step depends on it).
    steps: u64,
    /// `[v, b, ḡ]` of each parameter: the mean square, the momentum buffer, the mean
    /// gradient (the last two stay 0 unless momentum or centering is on).
    buffers: State<3>,
}

/// The hyper-parameters, the step count and the number of parameters: `RmsProp { lr:
/// 0.01, alpha: 0.99, eps: 1e-8, momentum: 0.0, centered: false, weight_decay: 0.0,
/// step: 3, params: 337 }`.
impl std::fmt::Debug for RmsProp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RmsProp")
            .field("lr", &self.lr)
            .field("alpha", &self.alpha)
            .field("eps", &self.eps)
            .field("momentum", &self.momentum)
            .field("centered", &self.centered)
            .field("weight_decay", &self.weight_decay)
            .field("step", &self.steps)
            .field("params", &self.params.len())
            .finish()
    }
}

impl RmsProp {
    /// RMSProp over `params` with learning rate `lr` (PyTorch's default is 0.01) and
    /// the other defaults: α = 0.99, ε = 1e-8, no momentum, not centered, no weight
    /// decay.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `lr` is finite and ≥ 0;
    /// [`Error::InvalidInput`] if `params` is empty or holds a value that is not a leaf.
    pub fn new(params: Vec<Value>, lr: f64) -> Result<RmsProp, Error> {
        let params = non_empty(params)?;
        Ok(RmsProp {
            buffers: State::zeros(&params),
            params,
            lr: non_negative("lr", lr)?,
            alpha: 0.99,
            eps: 1e-8,
            momentum: 0.0,
            centered: false,
            weight_decay: 0.0,
            steps: 0,
        })
    }

    /// Sets α, the decay rate of the running mean of g² (default 0.99).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `alpha` is in [0, 1).
    pub fn alpha(mut self, alpha: f64) -> Result<RmsProp, Error> {
        self.alpha = unit_interval("alpha", alpha)?;
        Ok(self)
    }

    /// Sets ε, added to the root mean square (default 1e-8).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `eps` is finite and > 0.
    pub fn eps(mut self, eps: f64) -> Result<RmsProp, Error> {
        self.eps = positive("eps", eps)?;
        Ok(self)
    }

    /// Sets the momentum μ (default 0).
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `0 <= momentum < 1`.
    pub fn momentum(mut self, momentum: f64) -> Result<RmsProp, Error> {
        self.momentum = unit_interval("momentum", momentum)?;
        Ok(self)
    }

    /// Centered RMSProp (default off): divides by an estimate of the gradient's
    /// variance, `v - ḡ²`, instead of its mean square.
    pub fn centered(mut self, centered: bool) -> RmsProp {
        self.centered = centered;
        self
    }

    /// Sets the weight decay wd (default 0), added to the gradient as `wd·p`.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `wd` is finite and ≥ 0 and `lr·wd ≤ 1`.
    pub fn weight_decay(mut self, wd: f64) -> Result<RmsProp, Error> {
        let wd = non_negative("weight_decay", wd)?;
        decay_factor(self.lr, wd)?;
        self.weight_decay = wd;
        Ok(self)
    }

    /// The rule of a step: `(p, g, [v, b, ḡ])` → `(new p, [new v, new b, new ḡ])`, in
    /// PyTorch's order of operations.
    fn rule(&self) -> impl Fn(f64, f64, [f64; 3]) -> (f64, [f64; 3]) + Sync {
        let (lr, alpha, eps, mu) = (self.lr, self.alpha, self.eps, self.momentum);
        let (centered, wd) = (self.centered, self.weight_decay);
        move |p, g, [v, b, mean]| {
            let g = if wd > 0.0 { g + wd * p } else { g };
            let v = alpha * v + (1.0 - alpha) * g * g;
            let (a, mean) = if centered {
                let mean = alpha * mean + (1.0 - alpha) * g;
                ((v - mean * mean).sqrt() + eps, mean)
            } else {
                (v.sqrt() + eps, mean)
            };
            if mu > 0.0 {
                let b = mu * b + g / a;
                (p - lr * b, [v, b, mean])
            } else {
                (p - lr * (g / a), [v, b, mean])
            }
        }
    }

    /// A step on the `Value`s (`numbers`: `None`) or on plain numbers.
    fn take_step(&mut self, numbers: Option<Numbers<'_>>) -> Result<(), Error> {
        let rule = self.rule();
        match numbers {
            None => self.buffers.update(&self.params, rule)?,
            Some((data, grads, threads)) => {
                (self.buffers).update_numbers(&self.params, (data, grads), threads, rule)?
            }
        }
        self.steps = self.steps.saturating_add(1);
        Ok(())
    }
}

impl Optimizer for RmsProp {
    fn params(&self) -> &[Value] {
        &self.params
    }

    steps_by_take_step!();

    fn learning_rate(&self) -> f64 {
        self.lr
    }

    fn set_learning_rate(&mut self, lr: f64) -> Result<(), Error> {
        let lr = non_negative("lr", lr)?;
        decay_factor(lr, self.weight_decay)?;
        self.lr = lr;
        Ok(())
    }

    /// Kind `"RmsProp"`; `centered` is saved as 1 or 0; each parameter's slot is
    /// `[v, b, ḡ]`.
    fn state(&self) -> OptimizerState {
        OptimizerState {
            kind: "RmsProp".to_owned(),
            hyper_parameters: named(&[
                ("lr", self.lr),
                ("alpha", self.alpha),
                ("eps", self.eps),
                ("momentum", self.momentum),
                ("centered", f64::from(u8::from(self.centered))),
                ("weight_decay", self.weight_decay),
            ]),
            steps: self.steps,
            slots: self.buffers.to_slots(),
        }
    }

    fn set_state(&mut self, state: &OptimizerState) -> Result<(), Error> {
        state.check_kind("RmsProp")?;
        let names = ["lr", "alpha", "eps", "momentum", "centered", "weight_decay"];
        state.check_names(&names)?;
        let lr = non_negative("lr", state.hyper_parameter("lr")?)?;
        let alpha = unit_interval("alpha", state.hyper_parameter("alpha")?)?;
        let eps = positive("eps", state.hyper_parameter("eps")?)?;
        let momentum = unit_interval("momentum", state.hyper_parameter("momentum")?)?;
        let centered = state.hyper_parameter("centered")?;
        if centered != 0.0 && centered != 1.0 {
            return Err(Error::HyperParameter {
                name: "centered",
                value: centered,
                expected: "0 (false) or 1 (true)",
            });
        }
        let wd = non_negative("weight_decay", state.hyper_parameter("weight_decay")?)?;
        decay_factor(lr, wd)?;
        self.buffers.current = state.slots(self.params.len())?;
        (self.lr, self.alpha, self.eps, self.momentum) = (lr, alpha, eps, momentum);
        (self.centered, self.weight_decay, self.steps) = (centered == 1.0, wd, state.steps);
        Ok(())
    }
}

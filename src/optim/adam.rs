//! Adam (Kingma & Ba, 2015) and AdamW (Loshchilov & Hutter, 2019), sharing one rule.

use super::state::named;
use super::{
    decay_factor, non_empty, non_negative, positive, unit_interval, Around, Grads, Optimizer,
    OptimizerState, State,
};
use super::{steps_by_take_step, Numbers};
use crate::{Error, Value};

/// Adam with PyTorch's conventions. Step t = 1, 2, ... does, for each parameter p with
/// gradient g:
///
/// ```text
/// m ← β₁·m + (1 - β₁)·g            (m, v start at 0)
/// v ← β₂·v + (1 - β₂)·g²
/// m̂ = m / (1 - β₁ᵗ)                (bias correction)
/// v̂ = v / (1 - β₂ᵗ)
/// p ← p - lr · m̂ / (√v̂ + ε)
/// ```
///
/// Defaults: β₁ = 0.9, β₂ = 0.999, ε = 1e-8. On the first step m̂ = g and v̂ = g², so
/// every parameter moves by lr·g/(|g| + ε), about lr against the sign of its gradient.
///
/// ```
/// use micrograd::prelude::*;
/// let w = Value::new(1.0);
/// let mut adam = Adam::new(vec![w.clone()], 0.1)?;
/// (&w * 5.0).backward();                 // g = 5
/// adam.step()?;
/// // p ← 1 - 0.1 · 5/(5 + 1e-8) ≈ 0.9
/// assert!((w.data() - 0.9).abs() < 1e-9);
/// # Ok::<(), micrograd::Error>(())
/// ```
pub struct Adam {
    params: Vec<Value>,
    lr: f64,
    beta1: f64,
    beta2: f64,
    eps: f64,
    /// AdamW's decoupled weight decay; always 0 for plain Adam.
    decoupled_weight_decay: f64,
    /// The number of steps taken so far (t of the last step).
    t: i32,
    /// m and v of each parameter.
    moments: State<2>,
}

/// The hyper-parameters, the step count and the number of parameters, not every
/// parameter and its moments: `Adam { lr: 0.05, beta1: 0.9, beta2: 0.999, eps: 1e-8,
/// weight_decay: 0.0, step: 3, params: 337 }` (`weight_decay` is AdamW's).
impl std::fmt::Debug for Adam {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Adam")
            .field("lr", &self.lr)
            .field("beta1", &self.beta1)
            .field("beta2", &self.beta2)
            .field("eps", &self.eps)
            .field("weight_decay", &self.decoupled_weight_decay)
            .field("step", &self.t)
            .field("params", &self.params.len())
            .finish()
    }
}

impl Adam {
    /// Adam over `params` with learning rate `lr` and the default β₁, β₂ and ε.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `lr` is finite and ≥ 0;
    /// [`Error::InvalidInput`] if `params` is empty or holds a value that is not a leaf.
    pub fn new(params: Vec<Value>, lr: f64) -> Result<Adam, Error> {
        let params = non_empty(params)?;
        Ok(Adam {
            moments: State::zeros(&params),
            params,
            lr: non_negative("lr", lr)?,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            decoupled_weight_decay: 0.0,
            t: 0,
        })
    }

    /// Sets β₁ and β₂, the decay rates of the running means of g and g².
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless both are in [0, 1).
    pub fn betas(mut self, beta1: f64, beta2: f64) -> Result<Adam, Error> {
        self.beta1 = unit_interval("beta1", beta1)?;
        self.beta2 = unit_interval("beta2", beta2)?;
        Ok(self)
    }

    /// Sets ε, which keeps the step finite where v̂ is 0.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `eps` is finite and > 0.
    pub fn eps(mut self, eps: f64) -> Result<Adam, Error> {
        self.eps = positive("eps", eps)?;
        Ok(self)
    }
}

impl Adam {
    /// [`Optimizer::state`] under the name `kind` (`"Adam"` or `"AdamW"`, which adds the
    /// weight decay).
    fn state_of(&self, kind: &str) -> OptimizerState {
        let mut hyper = vec![
            ("lr", self.lr),
            ("beta1", self.beta1),
            ("beta2", self.beta2),
            ("eps", self.eps),
        ];
        if kind == "AdamW" {
            hyper.push(("weight_decay", self.decoupled_weight_decay));
        }
        OptimizerState {
            kind: kind.to_owned(),
            hyper_parameters: named(&hyper),
            steps: self.t.unsigned_abs().into(),
            slots: self.moments.to_slots(),
        }
    }

    /// [`Optimizer::set_state`] for a state saved under the name `kind`.
    fn set_state_of(&mut self, state: &OptimizerState, kind: &str) -> Result<(), Error> {
        state.check_kind(kind)?;
        let known: &[&str] = if kind == "AdamW" {
            &["lr", "beta1", "beta2", "eps", "weight_decay"]
        } else {
            &["lr", "beta1", "beta2", "eps"]
        };
        state.check_names(known)?;
        let lr = non_negative("lr", state.hyper_parameter("lr")?)?;
        let beta1 = unit_interval("beta1", state.hyper_parameter("beta1")?)?;
        let beta2 = unit_interval("beta2", state.hyper_parameter("beta2")?)?;
        let eps = positive("eps", state.hyper_parameter("eps")?)?;
        let wd = if kind == "AdamW" {
            non_negative("weight_decay", state.hyper_parameter("weight_decay")?)?
        } else {
            0.0
        };
        decay_factor(lr, wd)?;
        let t = i32::try_from(state.steps).map_err(|_| {
            Error::InvalidInput(format!(
                "the saved {kind} state has taken {} steps, more than the {} this optimizer counts",
                state.steps,
                i32::MAX
            ))
        })?;
        self.moments.current = state.slots(self.params.len())?;
        (self.lr, self.beta1, self.beta2, self.eps) = (lr, beta1, beta2, eps);
        (self.decoupled_weight_decay, self.t) = (wd, t);
        Ok(())
    }
}

impl Adam {
    /// The rule of step t: (p, g, [m, v]) → (new p, [new m, new v]). Without
    /// `CORRECTS_M`, m̂ is m: for a step whose 1 - β₁ᵗ is exactly 1.
    fn rule<const CORRECTS_M: bool>(
        &self,
        t: i32,
    ) -> impl Fn(f64, f64, [f64; 2]) -> (f64, [f64; 2]) + Sync {
        let (lr, b1, b2, eps) = (self.lr, self.beta1, self.beta2, self.eps);
        let decay = 1.0 - lr * self.decoupled_weight_decay;
        let (correction1, correction2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
        move |p: f64, g: f64, [m, v]: [f64; 2]| {
            let m = b1 * m + (1.0 - b1) * g;
            let v = b2 * v + (1.0 - b2) * g * g;
            let m_hat = if CORRECTS_M { m / correction1 } else { m };
            let v_hat = v / correction2;
            // AdamW decays p before the Adam step (PyTorch: p.mul_(1 - lr*wd)).
            let p = p * decay;
            (p - lr * m_hat / (v_hat.sqrt() + eps), [m, v])
        }
    }
}

impl Adam {
    /// [`Optimizer::step`] (`numbers`: `None`) or [`Optimizer::step_numbers`].
    ///
    /// Once β₁ᵗ is below half an ulp of 1 (after about 350 steps with β₁ = 0.9),
    /// 1 - β₁ᵗ is exactly 1 and m / 1 is m, bit for bit: the step then skips that
    /// division, one of the three an Adam update makes per parameter (with the square
    /// root, the slowest part of it).
    fn take_step(&mut self, numbers: Option<Numbers<'_>>) -> Result<(), Error> {
        let t = self.t.saturating_add(1);
        if 1.0 - self.beta1.powi(t) == 1.0 {
            self.step_by(self.rule::<false>(t), numbers)?;
        } else {
            self.step_by(self.rule::<true>(t), numbers)?;
        }
        self.t = t;
        Ok(())
    }

    /// Applies `rule` to the parameters' `Value`s, or to `numbers`.
    fn step_by(
        &mut self,
        rule: impl Fn(f64, f64, [f64; 2]) -> (f64, [f64; 2]) + Sync,
        numbers: Option<Numbers<'_>>,
    ) -> Result<(), Error> {
        match numbers {
            None => self.moments.update(&self.params, rule),
            Some((data, grads, threads)) => {
                (self.moments).update_numbers(&self.params, (data, grads), threads, rule)
            }
        }
    }
}

impl Optimizer for Adam {
    fn params(&self) -> &[Value] {
        &self.params
    }

    steps_by_take_step!();

    fn learning_rate(&self) -> f64 {
        self.lr
    }

    fn set_learning_rate(&mut self, lr: f64) -> Result<(), Error> {
        let lr = non_negative("lr", lr)?;
        decay_factor(lr, self.decoupled_weight_decay)?;
        self.lr = lr;
        Ok(())
    }

    fn state(&self) -> OptimizerState {
        self.state_of("Adam")
    }

    fn set_state(&mut self, state: &OptimizerState) -> Result<(), Error> {
        self.set_state_of(state, "Adam")
    }
}

/// AdamW: [`Adam`] with decoupled weight decay wd. Each step first shrinks every
/// parameter, then takes the Adam step from the shrunk value (PyTorch's order):
///
/// ```text
/// p ← p - lr·wd·p                  (computed as p·(1 - lr·wd), as PyTorch does)
/// p ← p - lr · m̂ / (√v̂ + ε)        (m̂, v̂ from g alone, exactly as in Adam)
/// ```
///
/// Unlike L2 in the loss (or [`Sgd::weight_decay`](super::Sgd::weight_decay)), the
/// decay never enters m and v, so it is not rescaled by Adam. Default wd = 0.01.
///
/// ```
/// use micrograd::optim::{AdamW, Optimizer};
/// use micrograd::Value;
/// let w = Value::new(2.0);
/// let mut opt = AdamW::new(vec![w.clone()], 0.1)?.weight_decay(0.5)?;
/// // g = 0, so m = v = 0 and the Adam part is 0: only the decay acts.
/// opt.step()?;
/// assert_eq!(w.data(), 2.0 * (1.0 - 0.1 * 0.5));   // 1.9
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Debug)]
pub struct AdamW(Adam);

impl AdamW {
    /// AdamW over `params` with learning rate `lr`, weight decay 0.01 and Adam's default
    /// β₁, β₂ and ε.
    ///
    /// # Errors
    ///
    /// As [`Adam::new`], and [`Error::HyperParameter`] if `lr · 0.01 > 1` (see
    /// [`weight_decay`](AdamW::weight_decay)).
    pub fn new(params: Vec<Value>, lr: f64) -> Result<AdamW, Error> {
        AdamW(Adam::new(params, lr)?).weight_decay(0.01)
    }

    /// Sets the decoupled weight decay wd.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `wd` is finite and ≥ 0 and `lr·wd ≤ 1`: each step
    /// multiplies every parameter by `1 - lr·wd`, which above 1 would flip its sign even
    /// with a zero gradient. [`set_learning_rate`](Optimizer::set_learning_rate) checks
    /// the same product.
    ///
    /// ```
    /// use micrograd::optim::AdamW;
    /// use micrograd::Value;
    /// let err = AdamW::new(vec![Value::new(1.0)], 0.5)?.weight_decay(4.0).unwrap_err();
    /// assert!(err.to_string().starts_with("lr * weight_decay = 2 is out of range"), "{err}");
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn weight_decay(mut self, wd: f64) -> Result<AdamW, Error> {
        let wd = non_negative("weight_decay", wd)?;
        decay_factor(self.0.lr, wd)?;
        self.0.decoupled_weight_decay = wd;
        Ok(self)
    }

    /// As [`Adam::betas`].
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless both are in [0, 1).
    pub fn betas(self, beta1: f64, beta2: f64) -> Result<AdamW, Error> {
        self.0.betas(beta1, beta2).map(AdamW)
    }

    /// As [`Adam::eps`].
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] unless `eps` is finite and > 0.
    pub fn eps(self, eps: f64) -> Result<AdamW, Error> {
        self.0.eps(eps).map(AdamW)
    }
}

impl Optimizer for AdamW {
    fn params(&self) -> &[Value] {
        self.0.params()
    }

    fn step(&mut self) -> Result<(), Error> {
        self.0.step()
    }

    fn step_numbers(
        &mut self,
        data: &mut [f64],
        grads: &[f64],
        threads: usize,
    ) -> Result<(), Error> {
        self.0.step_numbers(data, grads, threads)
    }

    fn step_numbers_around(
        &mut self,
        data: &mut [f64],
        grads: &mut [f64],
        threads: usize,
        around: &Around<'_>,
    ) -> Result<(), Error> {
        self.0.step_numbers_around(data, grads, threads, around)
    }

    fn learning_rate(&self) -> f64 {
        self.0.learning_rate()
    }

    fn set_learning_rate(&mut self, lr: f64) -> Result<(), Error> {
        self.0.set_learning_rate(lr)
    }

    fn state(&self) -> OptimizerState {
        self.0.state_of("AdamW")
    }

    fn set_state(&mut self, state: &OptimizerState) -> Result<(), Error> {
        self.0.set_state_of(state, "AdamW")
    }
}

//! [`OptimizerState`]: everything an optimiser's next step depends on, as plain data, so
//! that a training run can be saved and resumed exactly.

use super::State;
use crate::error::quote;
use crate::Error;

/// An optimiser's state as plain data: what [`Optimizer::state`](super::Optimizer::state)
/// returns and [`Optimizer::set_state`](super::Optimizer::set_state) restores. With the
/// parameters' data, it is all a step depends on, so a run saved after N steps and resumed
/// takes exactly the steps an uninterrupted run would, bit for bit.
/// [`MLP::save_with`](crate::nn::MLP::save_with) writes it into a model file, and refuses
/// a state the file could not give back as it is (a non-finite number, states of
/// different lengths, ...: see its `# Errors`).
///
/// ```
/// use micrograd::prelude::*;
/// let w = Value::new(1.0);
/// let mut adam = Adam::new(vec![w.clone()], 0.1)?;
/// (&w * 5.0).backward();
/// adam.step()?;
/// let state = adam.state();
/// assert_eq!((state.kind.as_str(), state.steps), ("Adam", 1));
/// assert_eq!(state.slots[0][0], (1.0 - 0.9) * 5.0);   // m = (1 - β₁)·g
/// let mut resumed = Adam::new(vec![w.clone()], 0.1)?;
/// resumed.set_state(&state)?;
/// assert_eq!(resumed.state(), state);
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OptimizerState {
    /// The optimiser's type: `"Sgd"`, `"Adam"` or `"AdamW"`.
    pub kind: String,
    /// Its hyper-parameters by name, e.g. `("lr", 0.05)`, `("beta1", 0.9)`.
    pub hyper_parameters: Vec<(String, f64)>,
    /// The number of steps taken (Adam's t; 0 for SGD, whose step does not depend on it).
    pub steps: u64,
    /// Each parameter's numbers, in the order of the parameters: SGD's velocity `[v]`,
    /// Adam's moments `[m, v]`.
    pub slots: Vec<Vec<f64>>,
}

impl OptimizerState {
    /// The hyper-parameter `name`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if the state does not have it.
    pub fn hyper_parameter(&self, name: &str) -> Result<f64, Error> {
        let found = self.hyper_parameters.iter().find(|(n, _)| n == name);
        found.map(|&(_, x)| x).ok_or_else(|| {
            Error::InvalidInput(format!(
                "the saved {} state has no hyper-parameter `{name}`; save it again with \
                 Optimizer::state()",
                self.kind
            ))
        })
    }

    /// `Ok` if the state is of an optimiser of type `kind`.
    pub(super) fn check_kind(&self, kind: &str) -> Result<(), Error> {
        if self.kind == kind {
            return Ok(());
        }
        Err(Error::InvalidInput(format!(
            "the saved optimizer state is {}'s but this optimizer is {kind}; build a {} \
             over the same parameters to resume",
            self.kind, self.kind
        )))
    }

    /// `Ok` unless the state has a hyper-parameter not in `known` (a misspelt name, or
    /// one of another optimiser's) or one twice, which setting the state would
    /// silently ignore (all but the first).
    pub(super) fn check_names(&self, known: &[&str]) -> Result<(), Error> {
        let names = &self.hyper_parameters;
        if let Some((i, (name, _))) = (names.iter().enumerate())
            .find(|(i, (n, _))| names[..*i].iter().any(|(earlier, _)| earlier == n))
        {
            return Err(Error::InvalidInput(format!(
                "the saved {} state gives the hyper-parameter {} twice (again as entry \
                 {i}); keep one, or save the state again with Optimizer::state()",
                self.kind,
                quote(&name.escape_debug().to_string()),
            )));
        }
        let unknown = (names.iter()).find(|(n, _)| !known.contains(&n.as_str()));
        match unknown {
            None => Ok(()),
            Some((name, _)) => Err(Error::InvalidInput(format!(
                "the saved {} state has a hyper-parameter {} that this optimizer does not \
                 know; it knows {}: correct the name, or save the state again with \
                 Optimizer::state()",
                self.kind,
                quote(&name.escape_debug().to_string()),
                known.join(", ")
            ))),
        }
    }

    /// The state of `count` parameters, each `K` finite numbers, as [`State`] expects.
    pub(super) fn slots<const K: usize>(&self, count: usize) -> Result<Vec<[f64; K]>, Error> {
        if self.slots.len() != count {
            return Err(Error::InvalidInput(format!(
                "the saved {} state is for {} parameters but this optimizer has {count}; \
                 build it over the parameters of the model that was saved",
                self.kind,
                self.slots.len()
            )));
        }
        (self.slots.iter().enumerate())
            .map(|(i, slot)| {
                let numbers = <[f64; K]>::try_from(slot.as_slice()).ok();
                match numbers {
                    Some(numbers) if numbers.iter().all(|x| x.is_finite()) => Ok(numbers),
                    _ => Err(Error::InvalidInput(format!(
                        "the saved {} state of parameter {i} is {slot:?}; it must be {K} \
                         finite numbers",
                        self.kind
                    ))),
                }
            })
            .collect()
    }
}

impl<const K: usize> State<K> {
    /// Each parameter's numbers, for an [`OptimizerState`].
    pub(super) fn to_slots(&self) -> Vec<Vec<f64>> {
        self.current.iter().map(|s| s.to_vec()).collect()
    }
}

/// `(name, value)` pairs as an [`OptimizerState`] holds them.
pub(super) fn named(pairs: &[(&str, f64)]) -> Vec<(String, f64)> {
    pairs.iter().map(|&(n, x)| (n.to_owned(), x)).collect()
}

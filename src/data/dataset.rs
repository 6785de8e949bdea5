//! [`Dataset`]: rows of features with one label each.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::Error;

/// Samples for training or testing: `inputs[i]` is the feature row of sample `i` and
/// `labels[i]` its target.
///
/// Labels are plain numbers: `-1.0`/`+1.0` for micrograd's two-class SVM loss, a class
/// index `0.0, 1.0, ...` for multi-class data such as MNIST.
///
/// Every row should have the same width: [`batches`](Self::batches) checks it (and that
/// there is a label per row and at least one sample) before it hands out any batch.
///
/// ```
/// use micrograd::data::Dataset;
/// let xor = Dataset {
///     inputs: vec![vec![0.0, 0.0], vec![0.0, 1.0]],
///     labels: vec![-1.0, 1.0],
/// };
/// assert_eq!((xor.len(), xor.width()), (2, 2));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Dataset {
    /// One feature row per sample.
    pub inputs: Vec<Vec<f64>>,
    /// One label per sample.
    pub labels: Vec<f64>,
}

impl Dataset {
    /// The number of samples.
    ///
    /// ```
    /// assert_eq!(micrograd::data::moons100().len(), 100);
    /// ```
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are no samples.
    ///
    /// ```
    /// assert!(micrograd::data::Dataset::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// The number of features per sample (the width of the first row; 0 when empty).
    ///
    /// ```
    /// assert_eq!(micrograd::data::moons100().width(), 2);
    /// ```
    pub fn width(&self) -> usize {
        self.inputs.first().map_or(0, Vec::len)
    }
}

impl Dataset {
    /// Puts the samples in a uniformly random order (Fisher-Yates, through
    /// [`rand::seq::SliceRandom::shuffle`]), keeping each input with its label.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `inputs` and `labels` differ in length (the fields are
    /// public), as for [`batches`](Self::batches); `self` is then left as it was.
    ///
    /// ```
    /// use rand::{rngs::StdRng, SeedableRng};
    /// let mut data = micrograd::data::xor();
    /// data.shuffle(&mut StdRng::seed_from_u64(7))?;
    /// for (x, &y) in data.inputs.iter().zip(&data.labels) {
    ///     assert_eq!(y, if x[0] == x[1] { -1.0 } else { 1.0 });   // pairs stay together
    /// }
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn shuffle<R: Rng + ?Sized>(&mut self, rng: &mut R) -> Result<(), Error> {
        self.check_lengths()?;
        self.permute(rng);
        Ok(())
    }

    /// [`shuffle`](Self::shuffle) for a data set built with one label per row.
    pub(super) fn permute<R: Rng + ?Sized>(&mut self, rng: &mut R) {
        let mut order: Vec<usize> = (0..self.len()).collect();
        order.shuffle(rng);
        self.inputs = order
            .iter()
            .map(|&i| std::mem::take(&mut self.inputs[i]))
            .collect();
        self.labels = order.iter().map(|&i| self.labels[i]).collect();
    }

    /// Removes the last `n` samples and returns them, as [`Vec::split_off`] does: a
    /// hold-out set, for example, after a [`shuffle`](Self::shuffle).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidInput`] if `n` is more than [`len`](Self::len), or if `inputs` and
    /// `labels` differ in length; `self` is then left as it was.
    ///
    /// ```
    /// let mut train = micrograd::data::moons100();
    /// let test = train.split_off_last(20)?;
    /// assert_eq!((train.len(), test.len()), (80, 20));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn split_off_last(&mut self, n: usize) -> Result<Dataset, Error> {
        self.check_lengths()?;
        let Some(keep) = self.len().checked_sub(n) else {
            return Err(Error::InvalidInput(format!(
                "cannot split off the last {n} samples of a data set of {}",
                self.len()
            )));
        };
        Ok(Dataset {
            inputs: self.inputs.split_off(keep),
            labels: self.labels.split_off(keep),
        })
    }

    /// `Ok` if every row is as wide as the first.
    pub(super) fn check_widths(&self) -> Result<(), Error> {
        let width = self.width();
        match self.inputs.iter().position(|row| row.len() != width) {
            None => Ok(()),
            Some(i) => Err(Error::InvalidInput(format!(
                "inputs[{i}] has {} features but inputs[0] has {width}; every row of a data \
                 set needs the same number of features (the model's input width)",
                self.inputs[i].len()
            ))),
        }
    }

    /// `Ok` if there is one label per input row.
    pub(super) fn check_lengths(&self) -> Result<(), Error> {
        if self.inputs.len() == self.labels.len() {
            return Ok(());
        }
        Err(Error::InvalidInput(format!(
            "the data set has {} input rows but {} labels; it needs one label per row",
            self.inputs.len(),
            self.labels.len()
        )))
    }
}

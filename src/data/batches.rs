//! Mini-batches: a data set taken a few samples at a time.

use super::Dataset;
use crate::Error;

impl Dataset {
    /// The samples in order, `batch_size` at a time, as `(inputs, labels)` slices; the
    /// last batch holds what is left and may be smaller. Shuffle first for stochastic
    /// gradient descent.
    ///
    /// # Errors
    ///
    /// [`Error::HyperParameter`] if `batch_size` is 0. [`Error::InvalidInput`] if `inputs`
    /// and `labels` differ in length, if there are no samples (a training loop over no
    /// batches would silently do nothing), or if a row's width differs from the first
    /// row's (the message names the first such row; a model would report
    /// [`Error::InputWidth`] only when it reached it).
    ///
    /// ```
    /// let data = micrograd::data::moons100();
    /// let sizes: Vec<usize> = data.batches(32)?.map(|(x, y)| y.len()).collect();
    /// assert_eq!(sizes, vec![32, 32, 32, 4]);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn batches(
        &self,
        batch_size: usize,
    ) -> Result<impl ExactSizeIterator<Item = (&[Vec<f64>], &[f64])>, Error> {
        check_batch_size(batch_size)?;
        self.check_samples()?;
        Ok(self
            .inputs
            .chunks(batch_size)
            .zip(self.labels.chunks(batch_size)))
    }
}

impl Dataset {
    /// `Ok` if there is a label per row, at least one sample, and every row has the
    /// first row's width (see [`batches`](Dataset::batches)).
    pub(super) fn check_samples(&self) -> Result<(), Error> {
        self.check_lengths()?;
        if self.is_empty() {
            return Err(Error::InvalidInput(
                "the data set has no samples, so it has no batches and a training loop \
                 over them would do nothing; load or make some samples first (was a file \
                 empty, or everything split off?)"
                    .to_string(),
            ));
        }
        self.check_widths()
    }
}

/// [`Error::HyperParameter`] if `batch_size` is 0.
pub(super) fn check_batch_size(batch_size: usize) -> Result<(), Error> {
    if batch_size == 0 {
        return Err(Error::HyperParameter {
            name: "batch_size",
            value: 0.0,
            expected: "at least 1",
        });
    }
    Ok(())
}

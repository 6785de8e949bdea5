//! [`DataLoader`]: mini-batches in an order shuffled again every epoch, from the
//! caller's seeded generator.

use rand::seq::SliceRandom;
use rand::Rng;

use super::batches::check_batch_size;
use super::Dataset;
use crate::Error;

/// A data set's samples in mini-batches, reshuffled at the start of every epoch
/// (PyTorch's `DataLoader(data, batch_size, shuffle=True)` with a seeded generator).
///
/// The loader owns the generator it is given: each [`epoch`](DataLoader::epoch)
/// shuffles the previous epoch's order with it (Fisher-Yates, as
/// [`Dataset::shuffle`]), so the same seed gives the same batches in the same order,
/// run after run and whatever the number of threads that then train on them. The data
/// set is borrowed, not copied: a batch holds its rows as slices.
///
/// ```
/// use micrograd::data::DataLoader;
/// use rand::{rngs::StdRng, SeedableRng};
/// let data = micrograd::data::moons100();
/// let mut loader = DataLoader::new(&data, 32, StdRng::seed_from_u64(0))?;
/// for epoch in 0..2 {
///     let sizes: Vec<usize> = loader.epoch().map(|batch| batch.labels.len()).collect();
///     assert_eq!(sizes, vec![32, 32, 32, 4]);      // every sample once per epoch
/// }
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Debug)]
pub struct DataLoader<'a, R> {
    data: &'a Dataset,
    batch_size: usize,
    rng: R,
    /// The order of the last epoch (the identity before the first).
    order: Vec<usize>,
}

/// One mini-batch of a [`DataLoader`]: its samples' rows and labels, in the epoch's
/// order.
#[derive(Clone, Debug, PartialEq)]
pub struct Batch<'a> {
    /// The feature rows (a tape's batch methods take them as they are).
    pub inputs: Vec<&'a [f64]>,
    /// The labels, one per row.
    pub labels: Vec<f64>,
}

impl<'a, R: Rng> DataLoader<'a, R> {
    /// A loader of `data`, `batch_size` samples a batch (the last batch of an epoch
    /// holds what is left), shuffled by `rng`.
    ///
    /// # Errors
    ///
    /// As [`Dataset::batches`]: [`Error::HyperParameter`] if `batch_size` is 0;
    /// [`Error::InvalidInput`] if there are no samples, if `inputs` and `labels` differ
    /// in length, or if the rows differ in width.
    pub fn new(data: &'a Dataset, batch_size: usize, rng: R) -> Result<DataLoader<'a, R>, Error> {
        check_batch_size(batch_size)?;
        data.check_samples()?;
        Ok(DataLoader {
            data,
            batch_size,
            rng,
            order: (0..data.len()).collect(),
        })
    }

    /// The next epoch: the order shuffled again, then its batches.
    pub fn epoch(&mut self) -> impl ExactSizeIterator<Item = Batch<'a>> + '_ {
        self.order.shuffle(&mut self.rng);
        let data = self.data;
        self.order
            .chunks(self.batch_size)
            .map(move |indices| Batch {
                inputs: indices.iter().map(|&i| data.inputs[i].as_slice()).collect(),
                labels: indices.iter().map(|&i| data.labels[i]).collect(),
            })
    }

    /// The number of batches an epoch has.
    pub fn batches_per_epoch(&self) -> usize {
        self.order.len().div_ceil(self.batch_size)
    }
}

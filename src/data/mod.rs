//! Data sets: the samples a model learns from.
//!
//! Python micrograd's `demo.ipynb` gets its points from scikit-learn's `make_moons`; this
//! module provides that data and a little more, all as one type, [`Dataset`]: rows of
//! numeric features plus one numeric label per row.
//!
//! | where the data comes from | function |
//! |---|---|
//! | the notebook's own 100 points, built in | [`moons100()`] |
//! | new random points like scikit-learn's | [`make_moons`], [`make_circles`] |
//! | the four XOR points | [`xor`] |
//! | a CSV file (plain or gzip) | [`load_csv`], [`parse_csv`] |
//! | MNIST's IDX files (plain or gzip) | [`load_mnist`], [`load_idx_images`], [`load_idx_labels`] |
//!
//! The loaders inflate a gzip file to at most [`DEFAULT_MAX_INFLATED`] bytes (64 MiB); a
//! [`Loader`] sets another limit. The generators make at most [`MAX_SAMPLES`] samples.
//!
//! A [`Dataset`] can be [shuffled](Dataset::shuffle), split into a training and a hold-out
//! part ([`Dataset::split_off_last`]) and walked through in [mini-batches](Dataset::batches).
//! A [`DataLoader`] hands out mini-batches reshuffled every epoch from a seed;
//! [`one_hot()`] and [`Dataset::append_one_hot`] encode class labels; a [`Standardizer`]
//! scales features with the training set's mean and deviation.
//!
//! ```
//! let data = micrograd::data::moons100();
//! assert_eq!((data.len(), data.width()), (100, 2));
//! ```

mod batches;
mod csv;
mod dataset;
mod gz;
mod idx;
mod loader;
mod moons100;
mod one_hot;
mod standardize;
mod synthetic;

pub use csv::{load_csv, parse_csv};
pub use dataset::Dataset;
pub use gz::{Loader, DEFAULT_MAX_INFLATED};
pub use idx::{
    load_idx_images, load_idx_labels, load_mnist, parse_idx_images, parse_idx_labels, IdxImages,
    IDX_IMAGES_MAGIC, IDX_LABELS_MAGIC,
};
pub use loader::{Batch, DataLoader};
pub use moons100::moons100;
pub use one_hot::one_hot;
pub use standardize::Standardizer;
pub use synthetic::{make_circles, make_moons, xor, MAX_SAMPLES};

use std::path::Path;

use crate::Error;

/// An [`Error::Parse`] for `path` at `line` and `column` (0 when they do not apply).
fn parse_error(path: &Path, line: usize, column: usize, message: impl Into<String>) -> Error {
    Error::Parse {
        path: path.to_path_buf(),
        line,
        column,
        message: message.into(),
    }
}

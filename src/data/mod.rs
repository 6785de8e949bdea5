//! Data sets: the samples a model learns from.
//!
//! Python micrograd's `demo.ipynb` gets its points from scikit-learn's `make_moons`; this
//! module provides that data and a little more, all as one type, [`Dataset`]: rows of
//! numeric features plus one numeric label per row.
//!
//! | where the data comes from | function |
//! |---|---|
//! | the notebook's own 100 points, built in | [`moons100`] |
//! | CSV text | [`parse_csv`] |
//!
//! ```
//! let data = micrograd::data::moons100();
//! assert_eq!((data.len(), data.width()), (100, 2));
//! ```

mod csv;
mod dataset;
mod moons100;

pub use csv::parse_csv;
pub use dataset::Dataset;
pub use moons100::moons100;

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

//! The 100 two-moons points of micrograd's `demo.ipynb`, built into the crate.

use super::{parse_csv, Dataset};

/// The file, written by scikit-learn: `np.random.seed(1337)`,
/// `make_moons(n_samples=100, noise=0.1)`, labels mapped with `y*2 - 1`.
const MOONS100_CSV: &str = include_str!("moons100.csv");

/// The exact 100 points micrograd's `demo.ipynb` trains on, labels `-1.0` / `+1.0`.
///
/// The notebook makes them with scikit-learn:
///
/// ```python
/// np.random.seed(1337)
/// X, y = make_moons(n_samples=100, noise=0.1)
/// y = y*2 - 1 # make y be -1 or 1
/// ```
///
/// Those points, written at full precision, are embedded in the crate, so a Rust run
/// can be compared with the Python one number for number.
/// [`make_moons`](crate::data::make_moons) draws new points of the same shape.
///
/// # Panics
///
/// Never in practice: the embedded file is a constant of the crate, parsed with
/// [`parse_csv`] and checked by this crate's tests.
///
/// ```
/// let data = micrograd::data::moons100();
/// assert_eq!(data.len(), 100);
/// assert!(data.labels.iter().all(|&y| y == -1.0 || y == 1.0));
/// ```
pub fn moons100() -> Dataset {
    parse_csv(MOONS100_CSV, "src/data/moons100.csv")
        .expect("the embedded moons100.csv is a valid CSV file")
}

//! MNIST's IDX files as a training and a held-out set (`07_mnist`, `11_microcontroller`):
//! `train-*` and `t10k-*`, or the last N images of one of them.

use std::path::{Path, PathBuf};

use micrograd::data::{load_mnist, Dataset};

use super::Result;

/// The training and test sets from the IDX files in `dir`: with `holdout`, the last N
/// images of `train-*` (or of `t10k-*` when it is the only set there) are the test set;
/// without it, `train-*` trains and `t10k-*` tests.
pub fn load(dir: &Path, holdout: Option<usize>) -> Result<(Dataset, Dataset)> {
    if !dir.is_dir() {
        return Err(format!(
            "--data {}: no such folder; pass the folder that holds MNIST's IDX files",
            dir.display()
        )
        .into());
    }
    let (train, test) = (find_set(dir, "train")?, find_set(dir, "t10k")?);
    let sets = match (train, test, holdout) {
        (Some(train), Some(test), None) => (read_set(&train)?, read_set(&test)?),
        (Some(set), _, Some(n)) | (None, Some(set), Some(n)) => {
            let mut train = read_set(&set)?;
            let test = super::classify::hold_out(&mut train, n)?;
            (train, test)
        }
        (Some(set), None, None) | (None, Some(set), None) => {
            return Err(format!(
                "{} is the only MNIST set in {}; pass --holdout N to test on its last N images",
                set.0.display(),
                dir.display()
            )
            .into())
        }
        (None, None, _) => {
            return Err(format!(
                "no MNIST files in {}: expected train-images-idx3-ubyte and \
                 train-labels-idx1-ubyte, and/or t10k-images-idx3-ubyte and \
                 t10k-labels-idx1-ubyte (each may end in .gz)",
                dir.display()
            )
            .into())
        }
    };
    Ok(sets)
}

/// The images and labels files of the set `prefix` (`train` or `t10k`) in `dir`, plain or
/// `.gz`; `None` if neither is there, an error if only one of them is.
pub fn find_set(dir: &Path, prefix: &str) -> Result<Option<(PathBuf, PathBuf)>> {
    let find = |kind: &str| {
        let name = format!("{prefix}-{kind}");
        [dir.join(&name), dir.join(format!("{name}.gz"))]
            .into_iter()
            .find(|path| path.is_file())
    };
    let (images, labels) = ("images-idx3-ubyte", "labels-idx1-ubyte");
    match (find(images), find(labels)) {
        (Some(i), Some(l)) => Ok(Some((i, l))),
        (None, None) => Ok(None),
        (Some(found), None) | (None, Some(found)) => Err(format!(
            "{} is there but {prefix}-{}(.gz), which belongs with it, is not",
            found.display(),
            if found.to_string_lossy().contains(images) {
                labels
            } else {
                images
            }
        )
        .into()),
    }
}

/// One MNIST set, checked to be 28x28 images of the digits 0-9.
fn read_set((images, labels): &(PathBuf, PathBuf)) -> Result<Dataset> {
    let data = load_mnist(images, labels)?;
    super::classify::check_width(&data, 784, images)?;
    super::classify::check_digit_labels(&data, labels)?;
    Ok(data)
}

/// Keeps only the first `limit` images of `train` (`--limit N`; all of them for `None`);
/// an error if there are fewer.
pub fn limit(train: &mut Dataset, limit: Option<usize>) -> Result {
    if let Some(n) = limit {
        if n > train.len() {
            let len = train.len();
            return Err(format!("--limit {n}: there are only {len} training images").into());
        }
        train.inputs.truncate(n);
        train.labels.truncate(n);
    }
    Ok(())
}

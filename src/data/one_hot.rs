//! One-hot encoding of class labels.

use super::Dataset;
use crate::Error;

/// Class `label` of `classes` as `classes` numbers: 1 at index `label`, 0 elsewhere
/// (PyTorch's `F.one_hot`, scikit-learn's `OneHotEncoder` for classes `0..classes`).
///
/// # Errors
///
/// [`Error::InvalidInput`] naming the label if it is not a whole number in
/// `0..classes` (its row would be all zeros, and a loss would train on nothing), or
/// if a row of `classes` numbers cannot be allocated.
///
/// ```
/// use micrograd::data::one_hot;
/// assert_eq!(one_hot(2.0, 4)?, vec![0.0, 0.0, 1.0, 0.0]);
/// assert!(one_hot(4.0, 4).is_err());
/// # Ok::<(), micrograd::Error>(())
/// ```
pub fn one_hot(label: f64, classes: usize) -> Result<Vec<f64>, Error> {
    check_label(label, classes)?;
    let mut row = Vec::new();
    reserve(&mut row, classes)?;
    push_one_hot(&mut row, label, classes);
    Ok(row)
}

/// An error unless `label` is a whole number in `0..classes`.
fn check_label(label: f64, classes: usize) -> Result<(), Error> {
    if !(label >= 0.0 && label.fract() == 0.0 && label < classes as f64) {
        return Err(Error::InvalidInput(format!(
            "label {label} is not one of the classes 0..{classes}; give whole class \
             numbers from 0 to {}",
            classes.saturating_sub(1)
        )));
    }
    Ok(())
}

/// Room in `row` for `classes` more numbers, or an error where they cannot be
/// allocated (a count such as `usize::MAX`), instead of aborting the process.
fn reserve(row: &mut Vec<f64>, classes: usize) -> Result<(), Error> {
    row.try_reserve_exact(classes).map_err(|_| {
        Error::InvalidInput(format!(
            "classes = {classes}: a one-hot row of that many numbers cannot be allocated"
        ))
    })
}

/// Appends [`one_hot`]`(label, classes)` to `row`, for a label [`check_label`] took.
fn push_one_hot(row: &mut Vec<f64>, label: f64, classes: usize) {
    row.extend((0..classes).map(|c| f64::from(u8::from(c as f64 == label))));
}

impl Dataset {
    /// Appends each sample's label, one-hot over `classes`, to its row: the samples a
    /// compiled tape takes when its leaves are the features followed by the target's.
    ///
    /// # Errors
    ///
    /// As [`one_hot`], naming the sample (nothing is changed then), and
    /// [`Error::InvalidInput`] if `inputs` and `labels` differ in length.
    ///
    /// ```
    /// use micrograd::data::Dataset;
    /// let mut data = Dataset { inputs: vec![vec![0.5], vec![0.25]], labels: vec![1.0, 0.0] };
    /// data.append_one_hot(2)?;
    /// assert_eq!(data.inputs, vec![vec![0.5, 0.0, 1.0], vec![0.25, 1.0, 0.0]]);
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn append_one_hot(&mut self, classes: usize) -> Result<(), Error> {
        self.check_lengths()?;
        for (i, &y) in self.labels.iter().enumerate() {
            check_label(y, classes)
                .map_err(|e| Error::InvalidInput(format!("sample {i}: {}", strip(&e))))?;
        }
        // (Every row's room first: a row that cannot have it leaves every row as it was.)
        for x in &mut self.inputs {
            reserve(x, classes)?;
        }
        for (x, &y) in self.inputs.iter_mut().zip(&self.labels) {
            push_one_hot(x, y, classes);
        }
        Ok(())
    }
}

/// The message of an [`Error::InvalidInput`] without its `invalid input: ` prefix.
fn strip(e: &Error) -> String {
    match e {
        Error::InvalidInput(message) => message.clone(),
        other => other.to_string(),
    }
}

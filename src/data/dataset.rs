//! [`Dataset`]: rows of features with one label each.

/// Samples for training or testing: `inputs[i]` is the feature row of sample `i` and
/// `labels[i]` its target.
///
/// Labels are plain numbers: `-1.0`/`+1.0` for micrograd's two-class SVM loss, a class
/// index `0.0, 1.0, ...` for multi-class data such as MNIST.
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

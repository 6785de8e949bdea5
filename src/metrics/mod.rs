//! Scoring a model's predictions on plain numbers: a confusion matrix and accuracy for
//! classifiers, mean squared and mean absolute error for regression, as scikit-learn's
//! `sklearn.metrics` defines them.
//!
//! | file | what it holds | scikit-learn |
//! |------|---------------|--------------|
//! | `confusion.rs` | [`ConfusionMatrix`], [`predicted_classes`] | `confusion_matrix`, `accuracy_score` |
//! | `regression.rs` | [`RegressionMetrics`] | `mean_squared_error`, `mean_absolute_error` |
//!
//! A model's predictions come from [`MLP::predict_batch`](crate::nn::MLP::predict_batch)
//! (the graph) or a [`Predictor`](crate::nn::Predictor) (the compiled tape);
//! [`MLP::evaluate_classifier`](crate::nn::MLP::evaluate_classifier) and its kin do
//! both steps on a data set.
//!
//! ```
//! use micrograd::metrics::{predicted_classes, ConfusionMatrix};
//! let outputs = [vec![0.9, 0.1], vec![0.2, 0.7], vec![0.6, 0.3]];
//! let predicted = predicted_classes(&outputs)?;          // [0, 1, 0]
//! let matrix = ConfusionMatrix::new(&[0, 1, 1], &predicted, 2)?;
//! assert_eq!(matrix.counts(), &[vec![1, 0], vec![1, 1]]); // rows: true, columns: predicted
//! assert_eq!(matrix.accuracy(), 2.0 / 3.0);
//! # Ok::<(), micrograd::Error>(())
//! ```

mod confusion;
mod regression;

pub use confusion::{predicted_classes, ConfusionMatrix};
pub use regression::RegressionMetrics;

//! Lesson 37: the training toolkit a PyTorch user reaches for, on micrograd's engine:
//! initialisers, an activation of your own, RMSProp and gradient clipping, predicting
//! and scoring a model, and data that is shuffled, batched, one-hot encoded and
//! standardised.
//!
//! Each part checks against an outside reference: PyTorch's documented formulas (its
//! optimisers and `torch.nn.init`), scikit-learn's definitions of the metrics and of
//! `StandardScaler`, Python's `random`.

// How the weights start: micrograd's uniform, Glorot, He.
#[path = "37_training_toolkit/init.rs"]
mod init;

// An activation of your own, in a model, on the tape, in a file.
#[path = "37_training_toolkit/activation.rs"]
mod activation;

// RMSProp, and clipping the gradients before any step.
#[path = "37_training_toolkit/optim.rs"]
mod optim;

// Mini-batches reshuffled every epoch, one-hot labels, standardised features.
#[path = "37_training_toolkit/data.rs"]
mod data;

// Predicting and scoring: confusion matrix, accuracy, MSE, MAE.
#[path = "37_training_toolkit/predict.rs"]
mod predict;

//! Lesson 37: the training toolkit a PyTorch user reaches for, on micrograd's engine:
//! initialisers, an activation of your own, RMSProp and gradient clipping, predicting
//! and scoring a model, and data that is shuffled, batched, one-hot encoded and
//! standardised.
//!
//! Each part checks against an outside reference: PyTorch's documented formulas (its
//! optimisers and `torch.nn.init`), scikit-learn's definitions of the metrics and of
//! `StandardScaler`, Python's `random`.

#[path = "37_training_toolkit/activation.rs"]
mod activation;
#[path = "37_training_toolkit/data.rs"]
mod data;
#[path = "37_training_toolkit/init.rs"]
mod init;
#[path = "37_training_toolkit/optim.rs"]
mod optim;

//! What the exercises share: the lecture's expression and neuron, its four samples and
//! its network, built in one place ([`lecture`]). The exercises themselves are in
//! `yours/`, their tests in `tests/`, and the runner is `src/main.rs`.

#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod lecture;

//! Teaches: the training loop of Karpathy's micrograd lecture ("The spelled-out intro to
//! neural networks and backpropagation", Zero to Hero): forward pass, loss, zero the
//! gradients, backward pass, nudge every parameter against its gradient, repeat.
//!
//! Run: `cargo run --release --example 08_lecture [-- --steps N --lr RATE --seed N]`.
//! The numbers are the lecture notebook's (`micrograd_lecture_second_half_roughly.ipynb`
//! in karpathy/nn-zero-to-hero): `MLP(3, [4, 4, 1])` with tanh in every layer, the four
//! samples `xs` with targets `ys`, the summed squared error, 20 steps of
//! `p.data += -0.1 * p.grad`. It prints the loss and the sign accuracy at every step, then
//! the final predictions, which approach the targets 1, -1, -1, 1.
//!
//! The lecture does not seed its generator; here `--seed N` (default 1337) gives the
//! weights Python's `random.seed(N)` gives the lecture's code, via
//! `micrograd::random::PythonRandom`.

mod common;

use std::process::ExitCode;

use micrograd::loss;
use micrograd::optim::check_loss;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;

const USAGE: &str = "08_lecture [FLAGS]   (defaults in brackets)
  --steps N     training steps [20]
  --lr RATE     the step size of p.data += -lr * p.grad [0.1]
  --seed N      Python's random.seed(N) for the initial weights [1337]
  -h, --help    print this and exit";

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    let steps = common::steps(&mut args, 20)?;
    let lr: f64 = common::number(&mut args, "--lr")?.unwrap_or(0.1);
    let seed: i128 = common::number(&mut args, "--seed")?.unwrap_or(1337);
    common::finish(args, USAGE)?;
    if !(lr.is_finite() && lr > 0.0) {
        return Err(format!("--lr must be a finite number > 0, not {lr}").into());
    }

    // n = MLP(3, [4, 4, 1])
    let model = lecture_mlp(seed);
    println!("{model}");
    println!("number of parameters {}", model.num_parameters());

    // xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
    let xs = common::LECTURE_XS;
    // ys = [1.0, -1.0, -1.0, 1.0] # desired targets
    let ys = common::LECTURE_YS;

    let mut ypred = Vec::new();
    let mut last = (f64::NAN, f64::NAN);
    // for k in range(20):
    for k in 0..steps {
        // # forward pass
        // ypred = [n(x) for x in xs]
        ypred = common::predict(&model, &xs)?;
        // loss = sum((yout - ygt)**2 for ygt, yout in zip(ys, ypred))
        let loss: Value = ys
            .iter()
            .zip(&ypred)
            .map(|(&ygt, yout)| (yout - ygt).powf(2.0))
            .sum();
        check_loss(k, loss.data())?;

        // # backward pass
        // for p in n.parameters():
        //     p.grad = 0.0
        model.zero_grad();
        // loss.backward()
        loss.backward();

        // # update
        // for p in n.parameters():
        //     p.data += -0.1 * p.grad
        // (`micrograd::optim::Sgd` does exactly this, with checks; see 03_moons.)
        for p in model.parameters() {
            p.set_data(p.data() + -lr * p.grad());
        }

        // print(k, loss.data)
        let accuracy = loss::binary_accuracy(&ypred, &ys)?;
        common::print_step(k, loss.data(), Some(accuracy));
        last = (loss.data(), accuracy);
    }

    // ypred: the predictions of the last forward pass (before its update)
    for ((x, y), target) in xs.iter().zip(&ypred).zip(ys) {
        println!("prediction for {x:?}: {:?} (target {target:?})", y.data());
    }
    common::print_final(steps - 1, last.0, Some(last.1));
    Ok(())
}

/// The lecture's `MLP(3, [4, 4, 1])`: tanh in every layer, the output too, and every
/// weight *and bias* drawn from `random.uniform(-1, 1)`.
///
/// ```python
/// class Neuron:
///   def __init__(self, nin):
///     self.w = [Value(random.uniform(-1,1)) for _ in range(nin)]
///     self.b = Value(random.uniform(-1,1))
///   def __call__(self, x):
///     act = sum((wi*xi for wi, xi in zip(self.w, x)), self.b)
///     out = act.tanh()
///     return out
/// ```
///
/// `micrograd::nn` follows micrograd's library instead, where biases start at 0. A
/// neuron's `parameters()` are its weights then its bias, layer by layer: the order in
/// which the lecture draws them. So drawing every parameter again, in that order, from a
/// generator seeded like Python's, gives the lecture's model for `random.seed(seed)`.
fn lecture_mlp(seed: i128) -> MLP {
    let mut rng = PythonRandom::seed(seed);
    let tanh = [
        (4, Activation::Tanh),
        (4, Activation::Tanh),
        (1, Activation::Tanh),
    ];
    let model = MLP::with_activations(3, &tanh, &mut rng);
    let mut rng = PythonRandom::seed(seed);
    for p in model.parameters() {
        p.set_data(rng.uniform(-1.0, 1.0));
    }
    model
}

//! Lesson 33: the proof that a step on the tape's own numbers is the optimiser's step on
//! the `Value`s. Random models, random lists of parameters (shuffled, some left out,
//! some listed twice, some on no tape, an input the samples fill, one marked `no_grad`
//! after compiling), random optimisers (SGD with momentum and weight decay, Adam,
//! AdamW; now and then a learning rate so large that the step is refused), random
//! batches (now and then a number that overflows) on 1 to 3 threads, a learning rate
//! changed between steps: three ways of taking the same steps end with the same bits,
//! or stop at the same error.
//!
//! - `Way::Values`: `tape.accumulate_batch(..)`, then `opt.zero_grad();
//!   tape.flush_grads(); opt.step()`: micrograd's loop, the steps on the `Value`s;
//! - `Way::FlushAndStep`: `tape.accumulate_batch(..)`, then
//!   `tape.flush_and_step(&mut opt, threads)`;
//! - `Way::Training`: `training.step(&inputs, batch)`, the `Value`s written at its end.
//!
//! Each way runs on its own number of threads, drawn for it. A failure prints its seed:
//! `MICROGRAD_RANDOM_STEPS=2000 cargo test --release --test 33_random_steps_match_the_optimiser` runs a
//! larger search (the default keeps `cargo test` fast).
//!
//! Python's loop, which the first way is:
//! `model.zero_grad(); loss.backward(); for p in model.parameters(): p.data -= lr * p.grad`

use micrograd::optim::{AdamW, OptimizerState};
use micrograd::prelude::*;
use micrograd::tape::{Inputs, Tape};
use rand::seq::SliceRandom;
use rand::{rngs::StdRng, RngExt, SeedableRng};

/// The three ways of taking a step (see the lesson's opening).
#[derive(Clone, Copy, Debug)]
enum Way {
    Values,
    FlushAndStep,
    Training,
}

/// Everything a run ends with: each step's losses (or its error), then every
/// parameter's data and grad, every leaf's grad, the optimiser's state, and the losses
/// of one more batch run on the tape after the steps.
#[derive(Debug, PartialEq)]
struct Ending {
    steps: Vec<Result<Vec<u64>, String>>,
    params: Vec<(u64, u64)>,
    leaf_grads: Vec<u64>,
    state: OptimizerState,
    next: Result<Vec<u64>, String>,
}

fn bits(xs: &[f64]) -> Vec<u64> {
    xs.iter().map(|x| x.to_bits()).collect()
}

/// A random model's squared error (an L2 term now and then) compiled, the inputs a
/// sample fills (its features, then its target), and the optimiser's parameters.
struct Setup {
    tape: Tape,
    inputs: Inputs,
    leaves: Vec<Value>,
    params: Vec<Value>,
    width: usize,
}

fn setup(rng: &mut StdRng) -> Setup {
    let nin = rng.random_range(1..5);
    let mut widths: Vec<usize> = (0..rng.random_range(1..3))
        .map(|_| rng.random_range(1..20))
        .collect();
    widths.push(1);
    let model = MLP::new(nin, &widths, rng);
    let frozen = rng.random_bool(0.5);
    let x: Vec<Value> = (0..=nin)
        .map(|_| Value::new(0.0))
        .map(|v| if frozen { v.no_grad() } else { v })
        .collect();
    let out = &model.forward(&x[..nin]).unwrap()[0];
    let mut loss = (out - &x[nin]).powi(2);
    if rng.random_bool(0.3) {
        loss += model.parameters().iter().map(|p| p * p).sum::<Value>();
    }
    let tape = Tape::compile(&loss).unwrap();
    let inputs = tape.inputs(&x).unwrap();
    let leaves = tape.leaves().to_vec();
    // The optimiser's list: the model's parameters shuffled, some left out, some twice,
    // now and then one on no tape or an input that the samples fill.
    let mut params: Vec<Value> = model.parameters();
    params.retain(|_| rng.random_bool(0.9));
    for _ in 0..rng.random_range(0..3) {
        if let Some(p) = params.get(rng.random_range(0..params.len().max(1))) {
            params.push(p.clone());
        }
    }
    if rng.random_bool(0.3) {
        params.push(Value::new(rng.random_range(-1.0..1.0)));
    }
    if rng.random_bool(0.2) {
        params.push(x[rng.random_range(0..=nin)].clone());
    }
    if params.is_empty() {
        params.push(model.parameters()[0].clone());
    }
    params.shuffle(rng);
    if rng.random_bool(0.2) {
        // marked after compiling: the tape still sums its gradient, the step hands on none
        let _ = params[0].clone().no_grad();
    }
    let width = nin + 1;
    Setup {
        tape,
        inputs,
        leaves,
        params,
        width,
    }
}

/// A random optimiser over `params`: SGD (momentum, weight decay), Adam or AdamW, its
/// learning rate now and then large enough to make a step refuse.
fn optimizer(rng: &mut StdRng, params: Vec<Value>) -> Box<dyn Optimizer> {
    let lr = match rng.random_bool(0.05) {
        true => 1e300,
        false => 10f64.powi(rng.random_range(-4..1)),
    };
    match rng.random_range(0..3) {
        0 => {
            let (m, wd) = (rng.random_range(0.0..0.95), rng.random_range(0.0..0.5));
            let sgd = Sgd::new(params, lr).unwrap().momentum(m).unwrap();
            Box::new(if lr < 1.0 {
                sgd.weight_decay(wd).unwrap()
            } else {
                sgd
            })
        }
        1 => Box::new(Adam::new(params, lr).unwrap()),
        _ => {
            // (its default weight decay, 0.01, refuses a learning rate above 100)
            let wd = if lr < 1.0 {
                rng.random_range(0.0..0.5)
            } else {
                0.0
            };
            let mut adamw = AdamW::new(params, 1e-3).unwrap().weight_decay(wd).unwrap();
            adamw.set_learning_rate(lr).unwrap();
            Box::new(adamw)
        }
    }
}

/// 1 to 3 batches of 1 to 20 samples of numbers of very different sizes, now and then
/// one that overflows the loss.
fn batches(rng: &mut StdRng, width: usize) -> Vec<Vec<Vec<f64>>> {
    let number = |rng: &mut StdRng| {
        let scale = match rng.random_bool(0.005) {
            true => 1e160,
            false => 10f64.powi(rng.random_range(-2..3)),
        };
        rng.random_range(-1.0..1.0) * scale
    };
    (0..rng.random_range(1..4))
        .map(|_| {
            (0..rng.random_range(1..21))
                .map(|_| (0..width).map(|_| number(rng)).collect())
                .collect()
        })
        .collect()
}

/// The steps of case `seed` taken `way` on `threads` threads.
fn run(seed: u64, way: Way, threads: usize) -> Ending {
    let rng = &mut StdRng::seed_from_u64(seed);
    let Setup {
        mut tape,
        inputs,
        leaves,
        params,
        width,
    } = setup(rng);
    let mut opt = optimizer(rng, params.clone());
    let batches = batches(rng, width);
    let outcome = |r: Result<Vec<f64>, Error>| r.map(|l| bits(&l)).map_err(|e| e.to_string());
    let mut steps = Vec::new();
    match way {
        Way::Training => {
            let mut training = tape.train(&mut *opt, threads).unwrap();
            for (k, batch) in batches.iter().enumerate() {
                if k > 0 {
                    let lr = training.optimizer().learning_rate();
                    training.optimizer().set_learning_rate(lr * 0.5).unwrap();
                }
                steps.push(outcome(training.step(&inputs, batch)));
                if steps[k].is_err() {
                    break;
                }
            }
        }
        Way::Values | Way::FlushAndStep => {
            for (k, batch) in batches.iter().enumerate() {
                if k > 0 {
                    opt.set_learning_rate(opt.learning_rate() * 0.5).unwrap();
                }
                let stepped = tape
                    .accumulate_batch(&inputs, batch, threads)
                    .and_then(|losses| {
                        match way {
                            Way::Values => {
                                opt.zero_grad();
                                tape.flush_grads();
                                opt.step()
                            }
                            _ => tape.flush_and_step(&mut *opt, threads),
                        }
                        .map(|()| losses)
                    });
                steps.push(outcome(stepped));
                if steps[k].is_err() {
                    break;
                }
            }
        }
    }
    let next = outcome(tape.accumulate_batch(&inputs, &batches[0], 1));
    tape.flush_grads();
    let numbers = |p: &Value| (p.data().to_bits(), p.grad().to_bits());
    Ending {
        steps,
        params: params.iter().map(numbers).collect(),
        leaf_grads: leaves.iter().map(|l| l.grad().to_bits()).collect(),
        state: opt.state(),
        next,
    }
}

// model.zero_grad(); loss.backward(); opt.step()   against the tape's two shortcuts
#[test]
fn random_steps_on_the_tapes_numbers_equal_the_steps_on_the_values_bit_for_bit() {
    let cases = std::env::var("MICROGRAD_RANDOM_STEPS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let (mut refused, mut stepped) = (0, 0);
    for seed in 0..cases {
        let mut threads = StdRng::seed_from_u64(!seed);
        let mut on_threads = |way| run(seed, way, threads.random_range(1..4));
        let by_values = on_threads(Way::Values);
        for way in [Way::FlushAndStep, Way::Training] {
            assert_eq!(on_threads(way), by_values, "seed {seed}, {way:?}");
        }
        refused += by_values.steps.iter().filter(|s| s.is_err()).count();
        stepped += by_values.steps.iter().filter(|s| s.is_ok()).count();
    }
    // (So that neither the steps nor the refusals can go missing silently.)
    println!("{stepped} steps taken, {refused} refused, in {cases} cases");
    assert!(stepped >= cases as usize && refused * 50 >= cases as usize);
}

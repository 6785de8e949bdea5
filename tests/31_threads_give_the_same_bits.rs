//! Lesson 31: one compiled program, many threads. A tape's instructions (its
//! `Program`) hold no `Value`, so threads can share them; `accumulate_batch` splits a
//! batch's samples across threads, each with its own buffers, and adds their gradients
//! up in a fixed order (chunks of `CHUNK` samples, chunk after chunk), so the result is
//! the same bit for bit on 1, 2 or 16 threads. A model's state goes across as plain
//! numbers: `params`, `set_params`, `leaf_grads`, `add_grad`; a `Training` keeps the
//! parameters as numbers from step to step and writes their `Value`s at its end.
//!
//! Python micrograd has no threads; the loop these tests mirror is still
//! `for x, y in batch: loss = ...; loss.backward()` (gradients add up in `p.grad`).

use micrograd::optim::{Around, OptimizerState};
use micrograd::prelude::*;
use micrograd::program::Program;
use micrograd::tape::{Inputs, Tape, CHUNK};
use rand::{rngs::StdRng, RngExt, SeedableRng};

/// An MLP(4, [16, 16, 1]) (its hidden layers are the tape's 16-wide layers), its
/// squared error on one sample compiled, and the leaves a sample fills: 4 features,
/// then the target.
fn squared_error_tape(seed: u64) -> (MLP, Tape, Inputs) {
    let model = MLP::new(4, &[16, 16, 1], &mut StdRng::seed_from_u64(seed));
    let x: Vec<Value> = (0..5).map(|_| Value::new(0.0)).collect();
    let out = &model.forward(&x[..4]).unwrap()[0];
    let tape = Tape::compile(&(out - &x[4]).powi(2)).unwrap();
    let inputs = tape.inputs(&x).unwrap();
    (model, tape, inputs)
}

/// The same squared error over `model`'s parameters, compiled again from new input
/// leaves: another tape over the same parameters.
fn another_tape(model: &MLP) -> (Tape, Inputs) {
    let x: Vec<Value> = (0..5).map(|_| Value::new(0.0)).collect();
    let out = &model.forward(&x[..4]).unwrap()[0];
    let tape = Tape::compile(&(out - &x[4]).powi(2)).unwrap();
    let inputs = tape.inputs(&x).unwrap();
    (tape, inputs)
}

/// `n` samples of numbers of very different sizes, so that adding the same gradients
/// in another order changes bits.
fn samples(n: usize) -> Vec<[f64; 5]> {
    let mut rng = StdRng::seed_from_u64(7);
    (0..n)
        .map(|_| {
            std::array::from_fn(|_| {
                rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-3..4))
            })
        })
        .collect()
}

/// The bits of a tape's leaf gradients and of the losses of a batch of `n` samples run
/// on `threads`.
fn batch_bits(n: usize, threads: usize) -> (Vec<u64>, Vec<u64>) {
    let (_, mut tape, inputs) = squared_error_tape(1);
    let losses = tape
        .accumulate_batch(&inputs, &samples(n), threads)
        .unwrap();
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    (bits(tape.leaf_grads()), bits(&losses))
}

#[test]
fn a_batch_gives_the_same_gradients_bit_for_bit_on_1_2_and_16_threads() {
    // 37 samples: four full chunks and a short one; 300: several rounds of chunks.
    for n in [37, 300] {
        let one = batch_bits(n, 1);
        assert_eq!(batch_bits(n, 2), one, "{n} samples");
        assert_eq!(batch_bits(n, 16), one, "{n} samples");
    }
}

// loss.backward(); then, gradients zeroed, for x, y in batch: loss(x, y).backward()
#[test]
fn a_batch_after_a_backward_starts_its_sums_at_0_on_any_threads() {
    // (The backward leaves its own gradients where a batch adds up its sums: on several
    // threads the first chunk's sums are written over them.)
    for threads in [1, 2, 16] {
        let (_, mut tape, inputs) = squared_error_tape(1);
        tape.set_inputs(&inputs, &samples(1)[0]).unwrap();
        tape.evaluate().unwrap();
        tape.backward().unwrap();
        tape.accumulate_batch(&inputs, &samples(37), threads)
            .unwrap();
        let bits: Vec<u64> = tape.leaf_grads().iter().map(|g| g.to_bits()).collect();
        assert_eq!(bits, batch_bits(37, 1).0, "{threads} threads");
    }
}

// loss = sum(w_i * x for i in range(10_000)); for x in batch: loss.backward()
#[test]
fn a_model_with_many_parameters_gets_every_gradient_summed_on_threads_too() {
    // 10,000 weights: more leaves than one thread adds up, so the chunk sums are added
    // in several blocks of leaves, each on a thread.
    let w: Vec<Value> = (0..10_000).map(|i| Value::new(i as f64)).collect();
    let x = Value::new(0.0).no_grad();
    let loss: Value = w.iter().map(|wi| wi * &x).sum();
    let batch: Vec<[f64; 1]> = (1..=20).map(|s| [s as f64]).collect();
    let grads = |threads| {
        let mut tape = Tape::compile(&loss).unwrap();
        let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
        tape.accumulate_batch(&input, &batch, threads).unwrap();
        tape.leaf_grads().to_vec()
    };
    let one = grads(1);
    // d loss / d w_i = x, summed over the samples: 1 + 2 + ... + 20 = 210, exactly.
    let tape = Tape::compile(&loss).unwrap();
    for (leaf, g) in tape.leaves().iter().zip(&one) {
        if leaf.requires_grad() {
            assert_eq!(*g, 210.0);
        }
    }
    assert_eq!(grads(2), one);
    assert_eq!(grads(16), one);
}

// model = MLP(5000, [2, 1]); for x in batch: model(x)[0].backward()
#[test]
fn a_wide_layer_whose_weights_span_blocks_of_leaves_gets_every_gradient_on_threads_too() {
    // On threads the chunks' sums are added up in blocks of 4,096 leaves or more, and a
    // block also makes the sums of the layer weights in it: here each hidden neuron's
    // 5,000 weights lie in two blocks, and each part gets its sums in its own block.
    let model = MLP::new(5000, &[2, 1], &mut StdRng::seed_from_u64(3));
    let x: Vec<Value> = (0..5000).map(|_| Value::new(0.0).no_grad()).collect();
    let loss = model.forward(&x).unwrap()[0].clone();
    let mut rng = StdRng::seed_from_u64(4);
    let batch: Vec<Vec<f64>> = (0..20)
        .map(|_| (0..5000).map(|_| rng.random_range(-1.0..1.0)).collect())
        .collect();
    let grads = |threads| {
        let mut tape = Tape::compile(&loss).unwrap();
        let input = tape.inputs(&x).unwrap();
        tape.accumulate_batch(&input, &batch, threads).unwrap();
        let bits = tape.leaf_grads().iter().map(|g| g.to_bits());
        bits.collect::<Vec<_>>()
    };
    let one = grads(1);
    assert_eq!(grads(2), one);
    assert_eq!(grads(16), one);
}

// for chunk in batch: for x, y in chunk: loss(x, y).backward()   (sums flushed per chunk)
#[test]
fn a_batch_on_threads_is_accumulate_over_each_chunk_then_flush_on_one_thread() {
    let data = samples(300);
    let (model, mut tape, inputs) = squared_error_tape(1);
    let mut losses = Vec::new();
    for chunk in data.chunks(CHUNK) {
        for sample in chunk {
            tape.set_inputs(&inputs, sample).unwrap();
            losses.push(tape.accumulate().unwrap());
        }
        tape.flush_grads();
    }
    let by_chunks: Vec<f64> = model.parameters().iter().map(Value::grad).collect();

    let (model, mut tape, inputs) = squared_error_tape(1);
    assert_eq!(tape.accumulate_batch(&inputs, &data, 2).unwrap(), losses);
    tape.flush_grads();
    let threads: Vec<f64> = model.parameters().iter().map(Value::grad).collect();
    assert_eq!(threads, by_chunks);
}

/// A random MLP's squared error on one sample (inputs that need no gradient half of the
/// time, an L2 term a third of the time, `p * p` or `p.powi(2)`), compiled twice: two tapes over the same
/// parameters, and the leaves a sample fills on each (its features then its target, or
/// the target first).
fn random_model_tapes(rng: &mut StdRng) -> (MLP, [(Tape, Inputs); 2], usize) {
    let nin = rng.random_range(1..6);
    let mut widths: Vec<usize> = (0..rng.random_range(1..4))
        .map(|_| rng.random_range(1..24))
        .collect();
    widths.push(1);
    let model = MLP::new(nin, &widths, rng);
    let (frozen, l2, target_first, powi) = (
        rng.random_bool(0.5),
        rng.random_bool(0.3),
        rng.random_bool(0.5),
        rng.random_bool(0.5),
    );
    let compile = || {
        let x: Vec<Value> = (0..=nin)
            .map(|_| Value::new(0.0))
            .map(|v| if frozen { v.no_grad() } else { v })
            .collect();
        let out = &model.forward(&x[..nin]).unwrap()[0];
        let mut loss = (out - &x[nin]).powi(2);
        if l2 {
            // (each weight used once more, by a two-parent op or by a one-parent one)
            let square = |p: &Value| if powi { p.powi(2) } else { p * p };
            loss += model.parameters().iter().map(square).sum::<Value>();
        }
        let tape = Tape::compile(&loss).unwrap();
        let mut leaves = x.clone();
        if target_first {
            leaves.rotate_right(1);
        }
        let inputs = tape.inputs(&leaves).unwrap();
        (tape, inputs)
    };
    let tapes = [compile(), compile()];
    (model, tapes, nin + 1)
}

// for chunk in batch: for x, y in chunk: loss(x, y).backward()   (random models and data)
#[test]
fn random_models_and_data_give_the_bits_of_accumulate_over_each_chunk_on_threads() {
    for seed in 0..40 {
        let mut rng = StdRng::seed_from_u64(seed);
        let (model, [(mut batch, feed), (mut one, one_feed)], width) = random_model_tapes(&mut rng);
        // Numbers of very different sizes, now and then large enough to overflow.
        let data: Vec<Vec<f64>> = (0..rng.random_range(1..30))
            .map(|_| {
                let scale = |rng: &mut StdRng| match rng.random_bool(0.01) {
                    true => 1e160,
                    false => 10f64.powi(rng.random_range(-3..4)),
                };
                (0..width)
                    .map(|_| rng.random_range(-1.0..1.0) * scale(&mut rng))
                    .collect()
            })
            .collect();
        let threads = rng.random_range(1..4);
        let got = batch.accumulate_batch(&feed, &data, threads);
        let mut expected = Ok(Vec::new());
        'chunks: for chunk in data.chunks(CHUNK) {
            for sample in chunk {
                one.set_inputs(&one_feed, sample).unwrap();
                match (one.accumulate(), &mut expected) {
                    (Ok(loss), Ok(losses)) => losses.push(loss),
                    (Err(e), _) => {
                        expected = Err(e);
                        break 'chunks;
                    }
                    (Ok(_), Err(_)) => unreachable!(),
                }
            }
            one.flush_grads();
        }
        let at = format!("seed {seed}, {threads} threads");
        match (got, expected) {
            (Ok(got), Ok(expected)) => {
                assert_eq!(got, expected, "{at}");
                let params = model.parameters();
                let by_chunks: Vec<u64> = params.iter().map(|p| p.grad().to_bits()).collect();
                for p in &params {
                    p.zero_grad();
                }
                batch.flush_grads();
                let grads: Vec<u64> = params.iter().map(|p| p.grad().to_bits()).collect();
                assert_eq!(grads, by_chunks, "{at}");
            }
            (got, expected) => {
                let (got, expected) = (got.map(|_| ()), expected.map(|_| ()));
                assert_eq!(format!("{got:?}"), format!("{expected:?}"), "{at}");
            }
        }
    }
}

#[test]
fn evaluating_a_batch_on_threads_gives_each_samples_outputs() {
    let x = [Value::new(0.0), Value::new(0.0)];
    let score = (&x[0] * 3.0 + &x[1]).tanh();
    let outputs = std::slice::from_ref(&score);
    let mut tape = Tape::compile_with_outputs(&(&score * 2.0), outputs).unwrap();
    let inputs = tape.inputs(&x).unwrap();
    let data = [[0.5, 1.0], [-1.0, 0.25], [0.0, 0.0]];
    let scores = tape.evaluate_batch(&inputs, &data, 2).unwrap();
    let expected: Vec<Vec<f64>> = data
        .iter()
        .map(|[a, b]| vec![(a * 3.0 + b).tanh()])
        .collect();
    assert_eq!(scores, expected);
}

#[test]
fn the_error_of_a_batch_is_that_of_its_lowest_failing_sample_on_any_threads() {
    let (x, y) = (Value::new(1.0), Value::new(1.0));
    let loss = x.ln().with_label("log x") + y.ln().with_label("log y");
    let mut tape = Tape::compile(&loss).unwrap();
    let inputs = tape.inputs(&[x, y]).unwrap();
    // Sample 5 fails at `log y`, sample 30 (in another chunk) at `log x`.
    let mut data = vec![[1.0, 2.0]; 32];
    data[5] = [1.0, -1.0];
    data[30] = [-1.0, 1.0];
    for threads in [1, 2, 16] {
        let err = tape.accumulate_batch(&inputs, &data, threads).unwrap_err();
        assert!(
            err.to_string().contains("log y"),
            "{threads} threads: {err}"
        );
    }
    // As after an error of `accumulate`: the sums since the last flush are 0.
    assert!(tape.leaf_grads().iter().all(|&g| g == 0.0));
}

// A parameter set to -inf whose op maps it to a finite number (relu(-inf) = 0): only
// the leaf itself is not finite, and a batch on threads finds it as `accumulate` does.
#[test]
fn a_parameter_that_is_not_finite_is_the_same_error_in_a_batch_on_any_threads() {
    let (w, x) = (Value::new(1.0).with_label("w"), Value::new(0.0).no_grad());
    let mut tape = Tape::compile(&(w.relu() + &x)).unwrap();
    let inputs = tape.inputs(&[x]).unwrap();
    tape.accumulate_batch(&inputs, &[[1.0]; 16], 2).unwrap();
    w.set_data(f64::NEG_INFINITY);
    tape.set_inputs(&inputs, &[1.0]).unwrap();
    let one = tape.accumulate().unwrap_err().to_string();
    for threads in [1, 2, 16] {
        let err = tape
            .accumulate_batch(&inputs, &[[1.0]; 16], threads)
            .unwrap_err();
        assert_eq!(err.to_string(), one, "{threads} threads");
    }
}

// A custom op's closures are the user's code: if one panics on a thread, the panic
// reaches the caller (as on one thread), and no thread waits forever for the chunk
// that panicked.
#[test]
fn a_custom_op_that_panics_on_a_thread_panics_the_batch_on_any_threads() {
    let x = Value::new(1.0);
    let picky = |p: &[f64]| match p[0] {
        x if x < 0.0 => panic!("negative input"),
        x => x,
    };
    let loss = Value::custom("picky", &[&x], picky, |_, _, d| d[0] = 1.0) * 2.0;
    let mut tape = Tape::compile(&loss).unwrap();
    let inputs = tape.inputs(&[x]).unwrap();
    // Sample 20 (in the third chunk of four) panics.
    let mut data = vec![[1.0]; 32];
    data[20] = [-1.0];
    for threads in [1, 2, 16] {
        let batch = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tape.accumulate_batch(&inputs, &data, threads)
        }));
        assert!(batch.is_err(), "{threads} threads");
    }
}

// A panic in a batch (here a custom op's gradient closure, at sample 20) drops the
// sums since the last flush, as an error does: a later flush hands over no part of a
// batch. The tape then runs the next batch as usual.
#[test]
fn a_batch_that_panics_drops_the_sums_as_an_error_does() {
    let (x, w) = (Value::new(1.0).no_grad(), Value::new(3.0));
    let slope = |p: &[f64], _: f64, d: &mut [f64]| match p[0] {
        x if x < 0.0 => panic!("negative input"),
        _ => d[0] = 1.0,
    };
    let picky = Value::custom("picky", &[&x], |p| p[0], slope);
    let mut tape = Tape::compile(&(&picky * &w)).unwrap();
    let inputs = tape.inputs(&[x]).unwrap();
    let mut data = vec![[1.0]; 32];
    data[20] = [-1.0];
    for threads in [1, 2] {
        tape.accumulate_batch(&inputs, &[[1.0]], threads).unwrap();
        let batch = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            tape.accumulate_batch(&inputs, &data, threads)
        }));
        assert!(batch.is_err());
        assert_eq!(tape.leaf_grads(), [0.0, 0.0], "{threads} threads");
        tape.flush_grads();
        assert_eq!(w.grad(), 0.0);
        tape.accumulate_batch(&inputs, &[[2.0]], threads).unwrap();
        tape.flush_grads();
        assert_eq!(w.grad(), 2.0);
        w.zero_grad();
    }
    // `accumulate`, one sample at a time: the same.
    tape.accumulate().unwrap();
    tape.set_inputs(&inputs, &[-2.0]).unwrap();
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| tape.accumulate()));
    assert!(run.is_err());
    tape.flush_grads();
    assert_eq!(w.grad(), 0.0);
}

// Two weights whose gradient sums overflow over the chunks (each chunk's sum is
// finite): w2's after chunk 1, w1's after chunk 5, in other rounds on 1 and on 2
// threads. The error names the same leaf on any threads; a later sample's own error
// comes first.
#[test]
fn sums_that_overflow_over_the_chunks_give_one_error_on_any_threads() {
    let error = |threads: usize, bad_sample: bool| {
        let (w1, w2) = (
            Value::new(1.0).with_label("w1"),
            Value::new(1.0).with_label("w2"),
        );
        let (x1, x2) = (
            Value::new(0.0).no_grad(),
            Value::new(0.0).no_grad().with_label("x2"),
        );
        let mut tape = Tape::compile(&(&(&w1 * &x1) + &(&w2 * &x2))).unwrap();
        let inputs = tape.inputs(&[x1, x2]).unwrap();
        let mut samples = vec![[0.0, 0.0]; 6 * CHUNK];
        (samples[0][1], samples[CHUNK][1]) = (1e308, 1e308);
        (samples[4 * CHUNK][0], samples[5 * CHUNK][0]) = (1e308, 1e308);
        if bad_sample {
            samples[5 * CHUNK + 1][1] = f64::INFINITY;
        }
        let err = tape
            .accumulate_batch(&inputs, &samples, threads)
            .unwrap_err();
        assert!(tape.leaf_grads().iter().all(|&g| g == 0.0));
        err.to_string()
    };
    for bad_sample in [false, true] {
        let one = error(1, bad_sample);
        assert!(one.contains(if bad_sample { "x2" } else { "w1" }), "{one}");
        assert_eq!(error(2, bad_sample), one);
        assert_eq!(error(16, bad_sample), one);
    }
}

// for x in batch: (w * x).backward()   for two batches of one sample, without zero_grad
// in between: w's gradient from each is 1e308, their sum is not finite. The second batch
// reports it, on any threads, with the error `accumulate` gives sample by sample.
#[test]
fn sums_that_overflow_over_two_batches_give_the_error_of_accumulate() {
    let tape_and_inputs = || {
        let (w, x) = (Value::new(1.0).with_label("w"), Value::new(0.0).no_grad());
        let tape = Tape::compile(&(&w * &x)).unwrap();
        let inputs = tape.inputs(&[x]).unwrap();
        (tape, inputs)
    };
    let (mut tape, inputs) = tape_and_inputs();
    tape.set_inputs(&inputs, &[1e308]).unwrap();
    tape.accumulate().unwrap();
    let expected = tape.accumulate().unwrap_err().to_string();
    assert!(expected.contains("w"), "{expected}");
    for threads in [1, 2] {
        let (mut tape, inputs) = tape_and_inputs();
        tape.accumulate_batch(&inputs, &[[1e308]], threads).unwrap();
        let err = tape.accumulate_batch(&inputs, &[[1e308]], threads);
        assert_eq!(err.unwrap_err().to_string(), expected, "{threads} threads");
        assert!(tape.leaf_grads().iter().all(|&g| g == 0.0));
    }
}

/// An MLP(1, [2, 1]) with hidden weights 1e-20, biases 0 and output weights `w2`, its
/// output on one input compiled, and that input (it needs no gradient). A hidden
/// weight's gradient per sample is `x * w2`.
fn tiny_weights_tape(w2: f64) -> (Tape, Inputs) {
    let model = MLP::new(1, &[2, 1], &mut StdRng::seed_from_u64(1));
    model
        .set_params(&[1e-20, 0.0, 1e-20, 0.0, w2, w2, 0.0])
        .unwrap();
    let x = Value::new(0.0).no_grad();
    let tape = Tape::compile(&model.forward(std::slice::from_ref(&x)).unwrap()[0]).unwrap();
    let inputs = tape.inputs(&[x]).unwrap();
    (tape, inputs)
}

// for x in chunk: model([x]).backward()   (the error of the first sample whose grads overflow)
#[test]
fn a_weight_gradient_that_overflows_in_a_batch_is_the_error_accumulate_gives() {
    // A batch adds a layer's weight gradients once per chunk (see `docs/tape.md`),
    // so it learns of an overflow there late: it must still report it as `accumulate`
    // does, sample by sample. With w2 = 1e10, sample 11's own gradient is 1e310 (inf);
    // with w2 = 1e8, each sample's is 1e308 and their sum overflows at sample 12.
    let mut data = vec![[1.0]; 16];
    data[11..].fill([1e300]);
    for w2 in [1e10, 1e8] {
        let (mut tape, inputs) = tiny_weights_tape(w2);
        let mut expected = None;
        for chunk in data.chunks(CHUNK) {
            for sample in chunk {
                tape.set_inputs(&inputs, sample).unwrap();
                expected = expected.or(tape.accumulate().err());
            }
            tape.flush_grads();
        }
        let expected = format!("{:?}", expected.unwrap());
        for threads in [1, 2] {
            let (mut tape, inputs) = tiny_weights_tape(w2);
            let err = tape.accumulate_batch(&inputs, &data, threads).unwrap_err();
            assert_eq!(format!("{err:?}"), expected, "{threads} threads");
            assert!(tape.leaf_grads().iter().all(|&g| g == 0.0));
        }
    }
}

// for x in batch: model([x]).backward()   (sample 3's weight gradient overflows first)
#[test]
fn a_hidden_overflow_in_one_chunk_comes_before_another_chunks_error_on_any_threads() {
    // Sample 3's weight gradient is 1e310 (inf), which a batch on threads sees only
    // when it adds the chunk's weight sums; sample 10, in the next chunk, fails at once
    // (its input is inf). The batch's error is still sample 3's, as `accumulate` says.
    let mut data = vec![[1.0]; 16];
    data[3] = [1e300];
    data[10] = [f64::INFINITY];
    let (mut tape, inputs) = tiny_weights_tape(1e10);
    let expected = data.iter().find_map(|sample| {
        tape.set_inputs(&inputs, sample).unwrap();
        tape.accumulate().err()
    });
    let expected = format!("{:?}", expected.unwrap());
    assert!(expected.contains("Backward"), "{expected}");
    for threads in [1, 2, 16] {
        let (mut tape, inputs) = tiny_weights_tape(1e10);
        let err = tape.accumulate_batch(&inputs, &data, threads).unwrap_err();
        assert_eq!(format!("{err:?}"), expected, "{threads} threads");
    }
}

// w.no_grad() for the hidden weights after compiling; then for x in batch:
// model([x]).backward(): the weights get nothing, and a gradient that would overflow
// on them is no error (the graph computes none there).
#[test]
fn layer_weights_marked_no_grad_after_compiling_get_nothing_in_a_batch() {
    let grads = |tape: &Tape| tape.leaves().iter().map(Value::grad).collect::<Vec<_>>();
    for (w2, x) in [(1.0, 1.0), (1e10, 1e300)] {
        let data = vec![[x]; 16]; // each hidden weight's gradient: x * w2
        let (mut by_chunk, inputs) = tiny_weights_tape(w2);
        let hidden: Vec<bool> = by_chunk
            .leaves()
            .iter()
            .map(|l| l.data() == 1e-20)
            .collect();
        let freeze = |tape: &Tape| {
            for (leaf, _) in tape.leaves().iter().zip(&hidden).filter(|(_, &h)| h) {
                let _ = leaf.clone().no_grad();
            }
        };
        freeze(&by_chunk);
        for chunk in data.chunks(CHUNK) {
            for sample in chunk {
                by_chunk.set_inputs(&inputs, sample).unwrap();
                by_chunk.accumulate().unwrap();
            }
            by_chunk.flush_grads();
        }
        for threads in [1, 2] {
            let (mut tape, inputs) = tiny_weights_tape(w2);
            freeze(&tape);
            tape.accumulate_batch(&inputs, &data, threads).unwrap();
            let sums = tape.leaf_grads().iter().zip(&hidden);
            assert!(
                sums.filter(|(_, &h)| h).all(|(&g, _)| g == 0.0),
                "{threads}"
            );
            tape.flush_grads();
            assert_eq!(grads(&tape), grads(&by_chunk), "{threads} threads");
        }
    }
}

// x.data = 2; y.data = 3; then each batch's samples fill x, or y, and the other keeps
// its data (the workers' buffers, kept from batch to batch, must not keep a sample's)
#[test]
fn a_leaf_the_last_batch_filled_holds_its_data_again_in_the_next() {
    for threads in [1, 2, 16] {
        let (x, y) = (Value::new(2.0), Value::new(3.0));
        let xy = &x * &y;
        let mut tape = Tape::compile_with_outputs(&xy, std::slice::from_ref(&xy)).unwrap();
        let fill_x = tape.inputs(std::slice::from_ref(&x)).unwrap();
        let fill_y = tape.inputs(std::slice::from_ref(&y)).unwrap();
        let data = vec![[5.0]; 3 * CHUNK];
        let xy = |tape: &mut Tape, fill| tape.evaluate_batch(fill, &data, threads).unwrap()[0][0];
        assert_eq!(xy(&mut tape, &fill_x), 5.0 * 3.0);
        assert_eq!(xy(&mut tape, &fill_y), 2.0 * 5.0); // x is 2 again
        y.set_data(4.0); // a Value written between batches counts
        assert_eq!(xy(&mut tape, &fill_x), 5.0 * 4.0);
        tape.set_inputs(&fill_y, &[10.0]).unwrap(); // and a leaf fed to the tape
        assert_eq!(xy(&mut tape, &fill_x), 5.0 * 10.0);
    }
}

#[test]
fn zero_threads_or_a_sample_of_the_wrong_width_is_an_error() {
    let (_, mut tape, inputs) = squared_error_tape(1);
    assert!(tape.accumulate_batch(&inputs, &samples(3), 0).is_err());
    let short = [vec![1.0; 5], vec![1.0; 4]];
    let err = tape.accumulate_batch(&inputs, &short, 2).unwrap_err();
    assert!(
        matches!(
            err,
            Error::InputWidth {
                expected: 5,
                got: 4
            }
        ),
        "{err}"
    );
}

#[test]
fn a_program_is_send_and_sync_so_threads_share_it() {
    fn shared_by_threads<T: Send + Sync>(_: &T) {}
    let x = Value::new(2.0);
    let tape = Tape::compile(&(&x * &x)).unwrap();
    let program: &Program = tape.program();
    shared_by_threads(program);
    let counts = std::thread::scope(|s| {
        let a = s.spawn(|| program.node_count());
        let b = s.spawn(|| program.leaf_count());
        (a.join().unwrap(), b.join().unwrap())
    });
    assert_eq!(counts, (2, 1));
}

// params = [p.data for p in model.parameters()]
#[test]
fn params_out_and_back_in_is_the_same_model() {
    let (model, ..) = squared_error_tape(1);
    let (other, ..) = squared_error_tape(2);
    assert_ne!(other.params(), model.params());
    other.set_params(&model.params()).unwrap();
    assert_eq!(other.params(), model.params());
    let x = [0.5, -1.0, 2.0, 0.25].map(Value::new);
    let out = |m: &MLP| m.forward(&x).unwrap()[0].data();
    assert_eq!(out(&other), out(&model));
}

#[test]
fn set_params_of_the_wrong_length_is_an_error_naming_both_lengths() {
    let (model, ..) = squared_error_tape(1);
    let before = model.params();
    let err = model.set_params(&before[1..]).unwrap_err();
    let (expected, got) = (before.len(), before.len() - 1);
    assert!(
        err.to_string().contains(&format!("expected {expected}")),
        "{err}"
    );
    assert!(err.to_string().contains(&format!("got {got}")), "{err}");
    assert_eq!(model.params(), before, "nothing is set");
}

// p.grad += g   (a gradient computed elsewhere, then the optimiser's step)
#[test]
fn add_grad_hands_a_gradient_from_elsewhere_to_the_optimiser() {
    let w = Value::new(1.0);
    (&w * 2.0).backward();
    w.add_grad(0.5);
    assert_eq!(w.grad(), 2.5);
    let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
    opt.step().unwrap();
    assert_eq!(w.data(), 1.0 - 0.1 * 2.5);
}

#[test]
fn leaf_grads_are_the_sums_flush_grads_hands_to_the_leaves() {
    let (_, mut tape, inputs) = squared_error_tape(1);
    tape.accumulate_batch(&inputs, &samples(10), 2).unwrap();
    let sums = tape.leaf_grads().to_vec();
    let leaves = tape.leaves().to_vec();
    leaves.iter().for_each(Value::zero_grad);
    tape.flush_grads();
    assert_eq!(leaves.iter().map(Value::grad).collect::<Vec<_>>(), sums);
}

// w*x backward, then a step with no batch summed: grad_of is still that backward's
// gradient, as documented (the step handed over no sums, and reset none).
#[test]
fn grad_of_after_a_backward_then_flush_and_step_is_still_that_backwards() {
    let (w, x) = (Value::new(3.0), Value::new(2.0));
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
    tape.backward().unwrap();
    tape.flush_and_step(&mut opt, 1).unwrap();
    assert_eq!(w.data(), 3.0); // opt.zero_grad(); tape.flush_grads(): a step of 0
    assert_eq!(tape.grad_of(&w).unwrap(), 2.0);
    assert_eq!(tape.leaf_grads(), [2.0, 3.0]);
}

/// The bits of a model's parameters and grads after five batches trained with Adam:
/// `opt.zero_grad(); tape.flush_grads(); opt.step()` (`threads` = None), or
/// `tape.flush_and_step(&mut opt, threads)`; then those of every leaf of the tape (the
/// inputs' grads add up over the batches). The optimiser also holds a parameter that
/// is not on the tape if `elsewhere` (its gradient is 0; Adam moves it by its momentum
/// alone): then the step moves the numbers one by one, else in slices.
fn trained_bits(threads: Option<usize>, elsewhere: bool) -> Vec<(u64, u64)> {
    let (model, mut tape, inputs) = squared_error_tape(3);
    let elsewhere = vec![Value::new(0.5)].into_iter().filter(|_| elsewhere);
    let params: Vec<Value> = model.parameters().into_iter().chain(elsewhere).collect();
    let mut opt = Adam::new(params.clone(), 0.01).unwrap();
    let batch = samples(40);
    for batch in batch.chunks(8) {
        tape.accumulate_batch(&inputs, batch, 2).unwrap();
        match threads {
            None => {
                opt.zero_grad();
                tape.flush_grads();
                opt.step().unwrap();
            }
            Some(n) => tape.flush_and_step(&mut opt, n).unwrap(),
        }
        assert!(tape.leaf_grads().iter().all(|&g| g == 0.0));
    }
    let bits = |p: &Value| (p.data().to_bits(), p.grad().to_bits());
    params.iter().chain(tape.leaves()).map(bits).collect()
}

/// `trained_bits`, the five batches taken by a `Training` on `threads` threads.
fn training_bits(threads: usize, elsewhere: bool) -> Vec<(u64, u64)> {
    let (model, mut tape, inputs) = squared_error_tape(3);
    let elsewhere = vec![Value::new(0.5)].into_iter().filter(|_| elsewhere);
    let params: Vec<Value> = model.parameters().into_iter().chain(elsewhere).collect();
    let mut opt = Adam::new(params.clone(), 0.01).unwrap();
    let mut training = tape.train(&mut opt, threads).unwrap();
    for batch in samples(40).chunks(8) {
        training.step(&inputs, batch).unwrap();
    }
    training.finish();
    // The sums were handed over, as by flush_grads.
    assert!(tape.leaf_grads().iter().all(|&g| g == 0.0));
    let bits = |p: &Value| (p.data().to_bits(), p.grad().to_bits());
    params.iter().chain(tape.leaves()).map(bits).collect()
}

#[test]
fn flush_and_step_is_zero_grad_flush_grads_step_bit_for_bit_on_any_threads() {
    // for x, y in batch: loss(x, y).backward()
    // for p in model.parameters(): p.data -= ... (Adam); then p.grad = 0
    for elsewhere in [true, false] {
        let by_values = trained_bits(None, elsewhere);
        assert_eq!(trained_bits(Some(1), elsewhere), by_values);
        assert_eq!(trained_bits(Some(2), elsewhere), by_values);
        assert_eq!(trained_bits(Some(16), elsewhere), by_values);
    }
}

// loss.backward(); opt.step(); then the next loss is computed from the new weights
#[test]
fn after_flush_and_step_the_tapes_own_runs_use_the_new_weights() {
    let (model, mut tape, inputs) = squared_error_tape(4);
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let sample = [0.5, -1.0, 2.0, 0.25, 1.0];
    for threads in [1, 2] {
        tape.accumulate_batch(&inputs, &[sample], threads).unwrap();
        tape.flush_and_step(&mut opt, threads).unwrap();
        tape.set_inputs(&inputs, &sample).unwrap();
        let out = &model.forward_f64(&sample[..4]).unwrap()[0];
        let graph = (out - sample[4]).powi(2);
        assert_eq!(tape.accumulate().unwrap().to_bits(), graph.data().to_bits());
        tape.flush_grads();
    }
}

#[test]
fn a_training_ends_with_the_numbers_of_flush_and_step_after_every_batch() {
    // for batch in batches: (for x, y in batch: loss(x, y).backward()); adam step
    for elsewhere in [true, false] {
        let by_values = trained_bits(None, elsewhere);
        assert_eq!(training_bits(1, elsewhere), by_values);
        assert_eq!(training_bits(2, elsewhere), by_values);
        assert_eq!(training_bits(16, elsewhere), by_values);
    }
}

#[test]
fn the_values_get_a_trainings_numbers_when_it_ends_even_if_never_finished() {
    let (model, mut tape, inputs) = squared_error_tape(3);
    let mut opt = Adam::new(model.parameters(), 0.01).unwrap();
    let before: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    {
        let mut training = tape.train(&mut opt, 2).unwrap();
        for batch in samples(40).chunks(8) {
            training.step(&inputs, batch).unwrap();
        }
        let now: Vec<f64> = model.parameters().iter().map(Value::data).collect();
        assert_ne!(training.params(), &before[..]); // which has stepped
        assert_eq!(now, training.params()); // data() reads the training's numbers
    } // dropped without finish(): the Values are written all the same
    let now: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert_ne!(now, before);
    let bits = |p: &Value| (p.data().to_bits(), p.grad().to_bits());
    let after: Vec<_> = model.parameters().iter().map(bits).collect();
    assert_eq!(after, training_bits(2, false)[..after.len()]);
}

#[test]
fn a_value_written_during_a_training_is_refused_at_the_next_step() {
    let (model, mut tape, inputs) = squared_error_tape(9);
    let w = model.parameters()[0].clone();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut training = tape.train(&mut opt, 2).unwrap();
    training.step(&inputs, &samples(8)).unwrap();
    w.set_data(1.0); // the training's numbers would overwrite this
    let err = training.step(&inputs, &samples(8)).unwrap_err();
    assert!(
        err.to_string()
            .contains("finish() it before writing other Values"),
        "{err}"
    );
}

#[test]
fn another_tape_over_a_trainings_parameters_refuses_to_run_until_it_ends() {
    let (model, mut tape, inputs) = squared_error_tape(6);
    let (mut other, other_inputs) = another_tape(&model);
    let batch = samples(8);
    // (It ran beside another model's training first, holding none of its parameters:
    // it must look again when this training starts.)
    let (unrelated, mut tape_u, inputs_u) = squared_error_tape(7);
    let mut opt_u = Sgd::new(unrelated.parameters(), 0.1).unwrap();
    let mut training_u = tape_u.train(&mut opt_u, 2).unwrap();
    training_u.step(&inputs_u, &batch).unwrap();
    other.accumulate_batch(&other_inputs, &batch, 1).unwrap();
    other.flush_grads();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let mut training = tape.train(&mut opt, 2).unwrap();
    training.step(&inputs, &batch).unwrap();
    // Its Values still hold the old data: reading them would be silently stale.
    let err = other
        .accumulate_batch(&other_inputs, &batch, 1)
        .unwrap_err();
    assert!(
        err.to_string().contains("finish() the Training first"),
        "{err}"
    );
    assert!(other.forward().is_err());
    training.finish();
    let after = other.accumulate_batch(&other_inputs, &batch, 1).unwrap();
    assert_eq!(after, tape.accumulate_batch(&inputs, &batch, 1).unwrap());
}

/// `y = w * x * s`: `w` trained, `x` a leaf no one feeds or trains, `s` fed per sample.
fn w_x_s_tape() -> (Value, Value, Tape, Inputs) {
    let (w, x, s) = (
        Value::new(3.0),
        Value::new(1.0).no_grad(),
        Value::new(0.0).no_grad(),
    );
    let y = &(&w * &x) * &s;
    let tape = Tape::compile_with_outputs(&y, std::slice::from_ref(&y)).unwrap();
    let fill_s = tape.inputs(std::slice::from_ref(&s)).unwrap();
    (w, x, tape, fill_s)
}

// x.data = 5 after a training's last step, before it ends: the next run uses x = 5
#[test]
fn a_leaf_written_after_a_trainings_last_step_is_read_by_the_next_run() {
    for threads in [1, 2] {
        let (w, x, mut tape, fill_s) = w_x_s_tape();
        let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
        let mut training = tape.train(&mut opt, threads).unwrap();
        training.step(&fill_s, &[[1.0], [2.0]]).unwrap();
        x.set_data(5.0);
        training.finish();
        let y = tape.evaluate_batch(&fill_s, &[[1.0]], threads).unwrap()[0][0];
        assert_eq!(y, w.data() * 5.0, "{threads} threads");
    }
}

// x.data = 5 while a training holds w: evaluating on it is refused, as a step is, and
// after it ends the tape runs on the trained w and the new x
#[test]
fn evaluating_during_a_training_after_a_value_was_written_is_refused() {
    for threads in [1, 2] {
        let (w, x, mut tape, fill_s) = w_x_s_tape();
        let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
        let mut training = tape.train(&mut opt, threads).unwrap();
        training.step(&fill_s, &[[1.0], [2.0]]).unwrap();
        let trained = training.params()[0];
        x.set_data(5.0);
        let refused = training.evaluate_batch(&fill_s, &[[1.0]]).unwrap_err();
        assert!(refused.to_string().contains("finish()"), "{refused}");
        training.finish();
        assert_eq!(w.data(), trained);
        let y = tape.evaluate_batch(&fill_s, &[[1.0]], threads).unwrap()[0][0];
        assert_eq!(y, trained * 5.0, "{threads} threads");
    }
}

// A new input made with no_grad, or another tape's error (which builds its graph again
// to name the culprit), writes no Value a training holds: its next step runs
#[test]
fn a_new_no_grad_leaf_or_another_tapes_error_does_not_stop_a_training() {
    let (w, _, mut tape, fill_s) = w_x_s_tape();
    let (v, z) = (Value::new(1.0), Value::new(0.0).no_grad());
    let mut other = Tape::compile(&(&v * &z).exp()).unwrap();
    let fill_z = other.inputs(std::slice::from_ref(&z)).unwrap();
    let mut opt = Sgd::new(vec![w.clone()], 0.1).unwrap();
    let mut training = tape.train(&mut opt, 1).unwrap();
    training.step(&fill_s, &[[1.0]]).unwrap();
    let _input = Value::new(2.0).no_grad();
    other.set_inputs(&fill_z, &[1000.0]).unwrap();
    assert!(other.accumulate().is_err()); // exp(1000) overflows
    assert!(training.step(&fill_s, &[[1.0]]).is_ok());
}

#[test]
fn a_refused_step_of_a_training_writes_the_values_as_a_refused_flush_and_step() {
    let (model, mut tape, inputs) = squared_error_tape(5);
    let mut opt = Sgd::new(model.parameters(), 1e308).unwrap();
    let before: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    let mut training = tape.train(&mut opt, 2).unwrap();
    let err = training.step(&inputs, &samples(8)).unwrap_err();
    assert!(matches!(err, Error::NonFiniteUpdate { .. }), "{err}");
    drop(training);
    let after: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert_eq!(after, before);
    // The same sums, taken by flush_and_step: the same grads.
    let grads: Vec<f64> = model.parameters().iter().map(Value::grad).collect();
    for p in model.parameters() {
        p.zero_grad();
    }
    tape.accumulate_batch(&inputs, &samples(8), 2).unwrap();
    assert!(tape.flush_and_step(&mut opt, 2).is_err());
    let again: Vec<f64> = model.parameters().iter().map(Value::grad).collect();
    assert_eq!(grads, again);
}

// A step refused by one parameter (its update overflows) while others' were finite:
// the tape runs on the parameters from before the step, as their Values hold them.
#[test]
fn after_a_refused_step_the_tape_runs_on_the_parameters_from_before_it() {
    for threads in [1, 2, 16] {
        let (model, mut tape, inputs) = squared_error_tape(5);
        let losses = |tape: &mut Tape| {
            let losses = tape
                .accumulate_batch(&inputs, &samples(8), threads)
                .unwrap();
            tape.flush_grads();
            losses
        };
        let before = losses(&mut tape);
        let mut opt = Sgd::new(model.parameters(), 1e305).unwrap();
        let mut training = tape.train(&mut opt, threads).unwrap();
        let err = training.step(&inputs, &samples(8)).unwrap_err();
        assert!(matches!(err, Error::NonFiniteUpdate { .. }), "{err}");
        drop(training);
        assert_eq!(losses(&mut tape), before, "{threads} threads");
    }
}

#[test]
fn after_flush_and_step_the_tape_runs_on_the_new_parameters_and_set_data_still_counts() {
    let (model, mut tape, inputs) = squared_error_tape(4);
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    let batch = samples(8);
    tape.accumulate_batch(&inputs, &batch, 2).unwrap();
    tape.flush_and_step(&mut opt, 2).unwrap();
    let w = &model.parameters()[0];
    w.set_data(w.data() + 0.25); // a write after the step: the tape must see it
    let on_tape = tape.accumulate_batch(&inputs, &batch, 1).unwrap();
    let (mut graph, fresh) = another_tape(&model);
    assert_eq!(on_tape, graph.accumulate_batch(&fresh, &batch, 1).unwrap());
}

/// Two steps of `opt` on `tape`, each on `batch`, by `zero_grad; flush_grads; step`
/// (`by_values`) or by `flush_and_step`; then the losses of the next batch.
fn two_steps<S: AsRef<[f64]> + Sync>(
    tape: &mut Tape,
    opt: &mut Sgd,
    (input, batch): (&Inputs, &[S]),
    by_values: bool,
) -> Vec<f64> {
    for _ in 0..2 {
        tape.accumulate_batch(input, batch, 2).unwrap();
        if by_values {
            opt.zero_grad();
            tape.flush_grads();
            opt.step().unwrap();
        } else {
            tape.flush_and_step(opt, 2).unwrap();
        }
    }
    tape.accumulate_batch(input, batch, 2).unwrap()
}

/// `loss = (w x + b)^2` with `b` marked `no_grad` after compiling (the tape still sums a
/// gradient for it, which `flush_grads` does not hand over) and `w` fed by `set_inputs`
/// (the tape runs on the fed number, the optimiser steps the `Value`): two steps, by
/// `zero_grad; flush_grads; step` (`by_values`) or by `flush_and_step`, then the bits
/// of the parameters and of the next batch's losses.
fn frozen_and_fed_bits(by_values: bool) -> Vec<u64> {
    let (w, b, x) = (Value::new(0.5), Value::new(0.25), Value::new(0.0));
    let mut tape = Tape::compile(&(&w * &x + &b).powi(2)).unwrap();
    let _ = b.clone().no_grad();
    let (input, fed) = (
        tape.inputs(std::slice::from_ref(&x)).unwrap(),
        tape.inputs(std::slice::from_ref(&w)).unwrap(),
    );
    tape.set_inputs(&fed, &[2.0]).unwrap();
    let mut opt = Sgd::new(vec![w.clone(), b.clone()], 0.1).unwrap();
    let batch = [[1.0], [3.0]];
    let losses = two_steps(&mut tape, &mut opt, (&input, &batch), by_values);
    let numbers = [w.data(), w.grad(), b.data(), b.grad()];
    numbers.iter().chain(&losses).map(|n| n.to_bits()).collect()
}

#[test]
fn flush_and_step_keeps_a_no_grad_parameter_and_a_fed_leaf_as_the_three_calls_do() {
    assert_eq!(frozen_and_fed_bits(false), frozen_and_fed_bits(true));
}

/// One neuron of 16 inputs, `loss = (n(x) - y)^2`: a batch summed, then weight 3 marked
/// `no_grad` and a step by `zero_grad; flush_grads; step` (`by_values`: `flush_grads`
/// hands the weight nothing, so it steps with grad 0) or by `flush_and_step`, the
/// optimiser over the parameters in order (one run of the tape's leaves) or reversed
/// (one by one); the bits of the parameters.
fn marked_after_the_batch_bits(by_values: bool, reversed: bool) -> Vec<u64> {
    let model = MLP::new(16, &[1], &mut StdRng::seed_from_u64(4));
    let x: Vec<Value> = (0..17).map(|_| Value::new(0.0).no_grad()).collect();
    let out = &model.forward(&x[..16]).unwrap()[0];
    let mut tape = Tape::compile(&(out - &x[16]).powi(2)).unwrap();
    let input = tape.inputs(&x).unwrap();
    let mut params = model.parameters();
    if reversed {
        params.reverse();
    }
    let mut opt = Sgd::new(params.clone(), 0.1).unwrap();
    let batch: Vec<[f64; 17]> = (samples(3).iter())
        .map(|s| std::array::from_fn(|i| s[i % 5]))
        .collect();
    tape.accumulate_batch(&input, &batch, 2).unwrap();
    let _ = model.parameters()[3].clone().no_grad();
    if by_values {
        opt.zero_grad();
        tape.flush_grads();
        opt.step().unwrap();
    } else {
        tape.flush_and_step(&mut opt, 2).unwrap();
    }
    let numbers = params.iter().flat_map(|p| [p.data(), p.grad()]);
    numbers.map(f64::to_bits).collect()
}

// for x, y in batch: loss(x, y).backward(); w3.requires_grad = False
// opt.zero_grad(); flush the sums into the grads; opt.step()
#[test]
fn a_parameter_marked_no_grad_after_the_batch_steps_with_grad_0_as_the_three_calls_do() {
    for reversed in [false, true] {
        let by_values = marked_after_the_batch_bits(true, reversed);
        let w3_grad = by_values[2 * if reversed { 13 } else { 3 } + 1];
        assert_eq!(w3_grad, 0.0f64.to_bits(), "w3's grad");
        assert_eq!(marked_after_the_batch_bits(false, reversed), by_values);
    }
}

/// As [`frozen_and_fed_bits`], for one neuron of 16 inputs (its parameters long runs of
/// the tape's leaves, whose numbers the step moves run by run) and a weight fed.
fn fed_weight_bits(by_values: bool) -> Vec<u64> {
    let model = MLP::new(16, &[1], &mut StdRng::seed_from_u64(3));
    let x: Vec<Value> = (0..17).map(|_| Value::new(0.0)).collect();
    let out = &model.forward(&x[..16]).unwrap()[0];
    let mut tape = Tape::compile(&(out - &x[16]).powi(2)).unwrap();
    let params = model.parameters();
    let (input, fed) = (
        tape.inputs(&x).unwrap(),
        tape.inputs(&params[3..4]).unwrap(),
    );
    tape.set_inputs(&fed, &[2.0]).unwrap();
    let mut opt = Sgd::new(params.clone(), 0.1).unwrap();
    let batch: Vec<[f64; 17]> = (samples(3).iter())
        .map(|s| std::array::from_fn(|i| s[i % 5]))
        .collect();
    let losses = two_steps(&mut tape, &mut opt, (&input, &batch), by_values);
    let numbers = params.iter().flat_map(|p| [p.data(), p.grad()]);
    numbers.chain(losses).map(f64::to_bits).collect()
}

#[test]
fn flush_and_step_keeps_a_fed_weight_of_a_wide_neuron_as_the_three_calls_do() {
    assert_eq!(fed_weight_bits(false), fed_weight_bits(true));
}

#[test]
fn a_refused_flush_and_step_leaves_the_grads_of_zero_grad_and_flush_grads() {
    let (model, mut tape, inputs) = squared_error_tape(5);
    let mut opt = Sgd::new(model.parameters(), 1e308).unwrap();
    let before: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    tape.accumulate_batch(&inputs, &samples(8), 2).unwrap();
    let sums = tape.leaf_grads().to_vec();
    let err = tape.flush_and_step(&mut opt, 2).unwrap_err();
    assert!(matches!(err, Error::NonFiniteUpdate { .. }), "{err}");
    let after: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert_eq!(after, before);
    for (leaf, &s) in tape.leaves().iter().zip(&sums) {
        assert_eq!(leaf.grad(), 0.0 + s);
    }
    assert!(tape.flush_and_step(&mut opt, 0).is_err());
}

#[test]
fn another_tape_over_the_same_parameters_sees_the_step_of_flush_and_step() {
    let (model, mut tape, inputs) = squared_error_tape(6);
    let (mut other, other_inputs) = another_tape(&model);
    let batch = samples(8);
    let before = other.accumulate_batch(&other_inputs, &batch, 1).unwrap();
    let mut opt = Sgd::new(model.parameters(), 0.1).unwrap();
    tape.accumulate_batch(&inputs, &batch, 2).unwrap();
    tape.flush_and_step(&mut opt, 2).unwrap();
    let after = other.accumulate_batch(&other_inputs, &batch, 1).unwrap();
    assert_ne!(after, before);
    assert_eq!(after, tape.accumulate_batch(&inputs, &batch, 1).unwrap());
}

/// An optimiser written outside the crate whose rate depends on the place a parameter
/// is listed at (`lr = 0.1·(i + 1)` for the i-th), that adds a tenth of the sum of all
/// the parameters' data to every gradient (it looks across parameters, as clipping by a
/// norm does), and that hands its blocks' new data on last block first. A parameter
/// listed twice gets two new numbers; on `Value`s the later place's is written last, so
/// it is the one that stays, and the next step reads it at both places.
struct RateByPlace(Vec<Value>);

/// `p - 0.1·(i + 1)·(g + 0.1·Σp)` for the i-th parameter, all from the data before the
/// step.
fn rate_by_place(data: &[f64], grads: &[f64]) -> Vec<f64> {
    let (lr, sum) = (|i: usize| 0.1 * (i + 1) as f64, data.iter().sum::<f64>());
    (data.iter().zip(grads).enumerate())
        .map(|(i, (&p, &g))| p - lr(i) * (g + 0.1 * sum))
        .collect()
}

impl Optimizer for RateByPlace {
    fn params(&self) -> &[Value] {
        &self.0
    }
    fn step(&mut self) -> Result<(), Error> {
        let (data, grads): (Vec<f64>, Vec<f64>) =
            self.0.iter().map(|p| (p.data(), p.grad())).unzip();
        for (p, new) in self.0.iter().zip(rate_by_place(&data, &grads)) {
            p.set_data(new);
        }
        Ok(())
    }
    fn step_numbers(&mut self, data: &mut [f64], grads: &[f64], _: usize) -> Result<(), Error> {
        data.copy_from_slice(&rate_by_place(data, grads));
        Ok(())
    }
    fn step_numbers_around(
        &mut self,
        data: &mut [f64],
        grads: &mut [f64],
        threads: usize,
        around: &Around<'_>,
    ) -> Result<(), Error> {
        for i in 0..grads.len() {
            (around.before)(i..i + 1, &mut grads[i..i + 1]);
        }
        self.step_numbers(data, grads, threads)?;
        for i in (0..data.len()).rev() {
            (around.after)(i..i + 1, &data[i..i + 1]);
        }
        Ok(())
    }
    fn learning_rate(&self) -> f64 {
        0.1
    }
    fn set_learning_rate(&mut self, _: f64) -> Result<(), Error> {
        Ok(())
    }
    fn state(&self) -> OptimizerState {
        Sgd::new(self.0.clone(), 0.1).unwrap().state()
    }
    fn set_state(&mut self, _: &OptimizerState) -> Result<(), Error> {
        Ok(())
    }
}

/// `loss = w·x` over a batch, `RateByPlace` over `[w, v, w, v]` (`v` is on no tape):
/// three steps by `zero_grad; flush_grads; step` on the `Value`s (`"values"`), by
/// `flush_and_step`, or by a `Training`; then the bits of w, v and the next batch's
/// losses.
fn listed_twice_bits(by: &str, threads: usize) -> Vec<u64> {
    let (w, x) = (Value::new(1.0), Value::new(0.0).no_grad());
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let input = tape.inputs(std::slice::from_ref(&x)).unwrap();
    let v = Value::new(0.5);
    let mut opt = RateByPlace(vec![w.clone(), v.clone(), w.clone(), v.clone()]);
    let batch = [[2.0], [3.0]];
    if by == "training" {
        let mut training = tape.train(&mut opt, threads).unwrap();
        for _ in 0..3 {
            training.step(&input, &batch).unwrap();
        }
    } else {
        for _ in 0..3 {
            tape.accumulate_batch(&input, &batch, threads).unwrap();
            if by == "values" {
                opt.zero_grad();
                tape.flush_grads();
                opt.step().unwrap();
            } else {
                tape.flush_and_step(&mut opt, threads).unwrap();
            }
        }
    }
    let losses = tape.accumulate_batch(&input, &batch, threads).unwrap();
    tape.flush_grads();
    [w.data(), v.data()]
        .iter()
        .chain(&losses)
        .map(|n| n.to_bits())
        .collect()
}

// new = [p.data - 0.1 * (i + 1) * (p.grad + 0.1 * total) for i, p in enumerate(params)]
// for p, d in zip(params, new): p.data = d   (params = [w, v, w, v]: the later place wins)
#[test]
fn a_parameter_listed_twice_steps_on_the_tape_as_on_its_values() {
    let by_values = listed_twice_bits("values", 1);
    // three steps from w = 1, v = 0.5, w's grad 2 + 3 and v's 0 at each
    let (w, v) = (0..3).fold((1.0, 0.5), |(w, v): (f64, f64), _| {
        let total = w + v + w + v;
        (
            w - 0.1 * 3.0 * (5.0 + 0.1 * total),
            v - 0.1 * 4.0 * (0.0 + 0.1 * total),
        )
    });
    assert_eq!(by_values[..2], [w.to_bits(), v.to_bits()]);
    for threads in [1, 2] {
        assert_eq!(listed_twice_bits("flush_and_step", threads), by_values);
        assert_eq!(listed_twice_bits("training", threads), by_values);
    }
}

//! Lesson 36: nothing is silently lost or wrong. A panic in your own op's closure or in
//! your own optimiser's step, a link planted where a file is written, a data file cut
//! short: each gives a clear error (or a correct result), never a quiet wrong number.
//! (A model file cut short is in lesson 17, a label Graphviz cannot read in lesson 10.)
//!
//! Python micrograd has no such guards; the loops these tests mirror are micrograd's
//! `for x, y in batch: loss(x, y).backward()` and `p.data -= lr * p.grad`.

use std::panic::{catch_unwind, AssertUnwindSafe};

use micrograd::prelude::*;
use micrograd::tape::{Inputs, Tape};
use rand::{rngs::StdRng, RngExt, SeedableRng};

// ----- a panic in your own op's closure -----

/// The first feature a sample gives to make the custom op's closure panic.
const BOOM: f64 = 999.0;

/// Which closure of the custom op panics on a sample whose first feature is [`BOOM`].
#[derive(Clone, Copy, Debug)]
enum Panics {
    Forward,
    Gradient,
}

/// An MLP(4, [16, 16, 1]) (its hidden layers are the tape's 16-wide layers) and its
/// squared error `(model([picky(x0), x1, x2, x3]) - y)^2` on one sample, compiled;
/// `picky` is the identity, written as a custom op whose `which` closure panics on
/// [`BOOM`] (the gradient closure after the model's weights got theirs). The leaves a
/// sample fills: 4 features, then the target.
fn picky_tape(which: Panics) -> (MLP, Tape, Inputs) {
    let model = MLP::new(4, &[16, 16, 1], &mut StdRng::seed_from_u64(36));
    let x: Vec<Value> = (0..5).map(|_| Value::new(0.0)).collect();
    let forward = move |p: &[f64]| match which {
        Panics::Forward if p[0] == BOOM => panic!("picky: forward of {BOOM}"),
        _ => p[0],
    };
    let gradient = move |p: &[f64], _: f64, d: &mut [f64]| match which {
        Panics::Gradient if p[0] == BOOM => panic!("picky: gradient at {BOOM}"),
        _ => d[0] = 1.0,
    };
    let mut features = x[..4].to_vec();
    features[0] = Value::custom("picky", &[&x[0]], forward, gradient);
    let out = &model.forward(&features).unwrap()[0];
    let tape = Tape::compile(&(out - &x[4]).powi(2)).unwrap();
    let inputs = tape.inputs(&x).unwrap();
    (model, tape, inputs)
}

/// `n` samples of 4 features and a target, numbers of very different sizes (so that
/// adding the same gradients in another order changes bits), from `seed`.
fn samples(n: usize, seed: u64) -> Vec<[f64; 5]> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut number = move || rng.random_range(-1.0..1.0) * 10f64.powi(rng.random_range(-2..3));
    (0..n).map(|_| std::array::from_fn(|_| number())).collect()
}

/// `samples(n, seed)` with sample `bad` made to panic.
fn with_boom(n: usize, seed: u64, bad: usize) -> Vec<[f64; 5]> {
    let mut data = samples(n, seed);
    data[bad][0] = BOOM;
    data
}

/// The bits of numbers, to compare them exactly.
fn bits(xs: impl IntoIterator<Item = f64>) -> Vec<u64> {
    xs.into_iter().map(f64::to_bits).collect()
}

/// The bits of a model's parameters' data and grads.
fn model_bits(model: &MLP) -> (Vec<u64>, Vec<u64>) {
    let params = model.parameters();
    (
        bits(params.iter().map(Value::data)),
        bits(params.iter().map(Value::grad)),
    )
}

// for x, y in batch: loss(x, y).backward()   where one sample's op panics, caught
#[test]
fn after_a_batch_that_panicked_the_next_batch_is_exact_on_any_threads() {
    // 70 samples: several chunks, the panic in the third. Afterwards the tape must give
    // what a tape that never met the panic gives, bit for bit.
    let (good, bad) = (samples(70, 1), with_boom(70, 2, 37));
    for which in [Panics::Forward, Panics::Gradient] {
        let (model, mut tape, inputs) = picky_tape(which);
        let losses = tape.accumulate_batch(&inputs, &good, 1).unwrap();
        tape.flush_grads();
        let expected = (bits(losses), model_bits(&model));
        for threads in [1, 2, 16] {
            let (model, mut tape, inputs) = picky_tape(which);
            tape.accumulate_batch(&inputs, &good, threads).unwrap();
            let batch = catch_unwind(AssertUnwindSafe(|| {
                tape.accumulate_batch(&inputs, &bad, threads)
            }));
            assert!(batch.is_err(), "{which:?} on {threads} threads");
            let losses = tape.accumulate_batch(&inputs, &good, threads).unwrap();
            tape.flush_grads();
            let got = (bits(losses), model_bits(&model));
            assert!(got == expected, "{which:?} on {threads} threads");
        }
    }
}

/// `steps` steps of Adam through a `Training` on 2 threads, a batch each; the batches
/// named in `panicking` panic (caught, the training goes on). Returns the model.
fn train(which: Panics, batches: &[Vec<[f64; 5]>], panicking: &[usize]) -> MLP {
    let (model, mut tape, inputs) = picky_tape(which);
    let mut adam = Adam::new(model.parameters(), 0.01).unwrap();
    let mut training = tape.train(&mut adam, 2).unwrap();
    for (i, batch) in batches.iter().enumerate() {
        let step = catch_unwind(AssertUnwindSafe(|| training.step(&inputs, batch)));
        match step {
            Ok(losses) => assert!(losses.is_ok(), "{losses:?}"),
            Err(_) => assert!(panicking.contains(&i), "batch {i} panicked"),
        }
    }
    training.finish();
    model
}

// for batch in batches: zero_grad(); sum(loss(x, y)).backward(); adam.step()
#[test]
fn a_training_step_that_panicked_takes_no_step_and_the_next_steps_are_exact() {
    let (b0, b1, b2) = (samples(40, 5), samples(40, 6), samples(40, 7));
    let boom = with_boom(40, 8, 20);
    for which in [Panics::Forward, Panics::Gradient] {
        let clean = train(which, &[b0.clone(), b1.clone(), b2.clone()], &[]);
        let batches = [b0.clone(), boom.clone(), b1.clone(), b2.clone()];
        let interrupted = train(which, &batches, &[1]);
        assert!(model_bits(&interrupted) == model_bits(&clean), "{which:?}");
    }
}

// A panic that leaves the loop drops the Training on its way out: the parameters get
// the numbers of the last step that finished, as `finish()` would have given them.
#[test]
fn a_training_dropped_by_a_panic_writes_the_last_finished_step() {
    let (b0, boom) = (samples(40, 9), with_boom(40, 10, 3));
    let clean = train(Panics::Gradient, std::slice::from_ref(&b0), &[]);
    let (model, mut tape, inputs) = picky_tape(Panics::Gradient);
    let mut adam = Adam::new(model.parameters(), 0.01).unwrap();
    let run = catch_unwind(AssertUnwindSafe(|| {
        let mut training = tape.train(&mut adam, 2).unwrap();
        training.step(&inputs, &b0).unwrap();
        training.step(&inputs, &boom).unwrap();
    }));
    assert!(run.is_err());
    assert!(model_bits(&model) == model_bits(&clean));
    // The tape and the optimiser go on from there, as after a finished training.
    let more = [b0.clone(), samples(40, 11)];
    let clean = train(Panics::Gradient, &more, &[]);
    tape.accumulate_batch(&inputs, &more[1], 2).unwrap();
    tape.flush_and_step(&mut adam, 2).unwrap();
    assert!(model_bits(&model) == model_bits(&clean));
}

// After any of these panics, the graph built again gives the same numbers as the tape.
#[test]
fn after_a_tape_panicked_the_graph_and_the_tape_agree_again() {
    for which in [Panics::Forward, Panics::Gradient] {
        let (model, mut tape, inputs) = picky_tape(which);
        let boom = with_boom(1, 12, 0);
        tape.set_inputs(&inputs, &boom[0]).unwrap();
        let run = catch_unwind(AssertUnwindSafe(|| tape.accumulate()));
        assert!(run.is_err(), "{which:?}");
        tape.flush_grads(); // (hands over nothing: the run's part was dropped)
        let sample = samples(1, 13)[0];
        tape.set_inputs(&inputs, &sample).unwrap();
        let on_tape = tape.evaluate().unwrap();
        tape.backward().unwrap(); // (into grads that are 0, as the flush left them)
        let tape_grads = model_bits(&model).1;
        // The graph, built again on the same sample.
        model.zero_grad();
        let x: Vec<Value> = sample.iter().map(|&s| Value::new(s)).collect();
        let out = &model.forward(&x[..4]).unwrap()[0]; // (picky is the identity)
        let loss = (out - &x[4]).powi(2);
        loss.backward();
        assert_eq!(loss.data().to_bits(), on_tape.to_bits(), "{which:?}");
        assert!(model_bits(&model).1 == tape_grads, "{which:?}");
    }
}

// Tape::check builds your graph again with your closure: if it panics, the leaves get
// back their data and grads, and the tape its sums, as when it returns.
#[test]
fn a_check_whose_build_panics_puts_the_leaves_and_the_sums_back() {
    let (model, mut tape, inputs) = picky_tape(Panics::Gradient);
    tape.accumulate_batch(&inputs, &samples(5, 14), 1).unwrap();
    let sums = bits(tape.leaf_grads().iter().copied());
    for p in model.parameters() {
        p.set_grad(0.5);
    }
    let before = model_bits(&model);
    let check = catch_unwind(AssertUnwindSafe(|| {
        tape.check(|| -> Result<Value, Error> { panic!("a build that panics") })
    }));
    assert!(check.is_err());
    assert!(model_bits(&model) == before);
    assert!(bits(tape.leaf_grads().iter().copied()) == sums);
    // The op's own gradient closure panicking inside the check: the same.
    tape.set_inputs(&inputs, &with_boom(1, 15, 0)[0]).unwrap();
    let check = catch_unwind(AssertUnwindSafe(|| tape.check(|| Ok(Value::new(0.0)))));
    assert!(check.is_err());
    assert!(model_bits(&model) == before);
    assert!(bits(tape.leaf_grads().iter().copied()) == sums);
}

/// Your own optimiser (`p.data -= 0.5 * p.grad`), whose step panics once the count of
/// steps it has left, `.1`, is 0.
struct PanicsAt(Vec<Value>, usize);

impl Optimizer for PanicsAt {
    fn params(&self) -> &[Value] {
        &self.0
    }
    fn step(&mut self) -> Result<(), Error> {
        if self.1 == 0 {
            panic!("a step that panics");
        }
        self.1 -= 1;
        for p in &self.0 {
            p.set_data(p.data() - 0.5 * p.grad());
        }
        Ok(())
    }
    fn learning_rate(&self) -> f64 {
        0.5
    }
    fn set_learning_rate(&mut self, _: f64) -> Result<(), Error> {
        Ok(())
    }
    fn state(&self) -> micrograd::optim::OptimizerState {
        micrograd::optim::OptimizerState {
            kind: "PanicsAt".to_owned(),
            hyper_parameters: Vec::new(),
            steps: 0,
            slots: Vec::new(),
        }
    }
    fn set_state(&mut self, _: &micrograd::optim::OptimizerState) -> Result<(), Error> {
        Ok(())
    }
}

/// `w` after three batches of `w * x` stepped by [`PanicsAt`] (which does not panic in
/// three steps) on 2 threads, through a `Training` or by `flush_and_step`.
fn own_optimizer_steps(training: bool) -> (f64, f64) {
    let (w, x) = (Value::new(3.0), Value::new(0.0).no_grad());
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let input = tape.inputs(&[x]).unwrap();
    let mut opt = PanicsAt(vec![w.clone()], 3);
    let batches: [&[[f64; 1]]; 3] = [&[[1.0], [2.0]], &[[0.5]], &[[-1.0], [3.0]]];
    if training {
        let mut training = tape.train(&mut opt, 2).unwrap();
        for batch in batches {
            training.step(&input, batch).unwrap();
        }
    } else {
        for batch in batches {
            tape.accumulate_batch(&input, batch, 2).unwrap();
            tape.flush_and_step(&mut opt, 2).unwrap();
        }
    }
    (w.data(), w.grad())
}

// for batch in batches: opt.zero_grad(); sum(w * x for x in batch).backward(); opt.step()
// An optimiser of your own steps through its parameters' Values and puts them back:
// those writes are its step's, not writes a Training must refuse.
#[test]
fn a_training_steps_your_own_optimizer_as_flush_and_step_does() {
    let expected = (3.0 - 0.5 * 3.0 - 0.5 * 0.5 - 0.5 * 2.0, 2.0);
    assert_eq!(own_optimizer_steps(false), expected);
    assert_eq!(own_optimizer_steps(true), expected);
}

// for x in batches: loss = x * w**2; loss.backward(); w.data -= 0.5 * w.grad
// Your own optimiser's writes through the Values are put back after its step: the tape
// reads the training's numbers again, not the ones from before the training.
#[test]
fn a_training_with_your_own_optimizer_runs_each_batch_on_the_last_steps_weights() {
    let (w, x) = (Value::new(1.0), Value::new(0.0).no_grad());
    let mut tape = Tape::compile(&(&x * &w.powi(2))).unwrap();
    let input = tape.inputs(&[x]).unwrap();
    let mut opt = PanicsAt(vec![w.clone()], 3);
    let mut training = tape.train(&mut opt, 2).unwrap();
    let mut losses = Vec::new();
    let mut weights = Vec::new();
    for _ in 0..3 {
        losses.extend(training.step(&input, &[[0.5]]).unwrap());
        weights.push(w.data());
    }
    training.finish();
    // d/dw (x w²) = 2 x w = w at x = 0.5: each step halves w, the loss 0.5 w² is a quarter
    assert_eq!(losses, [0.5, 0.125, 0.03125]);
    assert_eq!(weights, [0.5, 0.25, 0.125]);
    assert_eq!(w.data(), 0.125);
}

/// Your own optimiser that steps plain numbers, block by block, and panics before its
/// first block.
struct PanicsInNumbers(Vec<Value>);

impl Optimizer for PanicsInNumbers {
    fn params(&self) -> &[Value] {
        &self.0
    }
    fn step(&mut self) -> Result<(), Error> {
        unreachable!("flush_and_step steps the numbers")
    }
    fn step_numbers_around(
        &mut self,
        _: &mut [f64],
        _: &mut [f64],
        _: usize,
        _: &micrograd::optim::Around<'_>,
    ) -> Result<(), Error> {
        panic!("a step that panics")
    }
    fn learning_rate(&self) -> f64 {
        0.5
    }
    fn set_learning_rate(&mut self, _: f64) -> Result<(), Error> {
        Ok(())
    }
    fn state(&self) -> micrograd::optim::OptimizerState {
        PanicsAt(Vec::new(), 0).state()
    }
    fn set_state(&mut self, _: &micrograd::optim::OptimizerState) -> Result<(), Error> {
        Ok(())
    }
}

// for x in batch: (w * x).backward(); opt.step()   where your optimiser's step panics:
// the batch's gradient is handed over once, as after a step refused with an error.
#[test]
fn a_step_of_your_own_optimizer_that_panics_hands_the_gradient_over_once() {
    let (w, x) = (Value::new(3.0), Value::new(0.0).no_grad());
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let input = tape.inputs(&[x]).unwrap();
    tape.accumulate_batch(&input, &[[1.0], [2.0]], 2).unwrap();
    let mut opt = PanicsInNumbers(vec![w.clone()]);
    let step = catch_unwind(AssertUnwindSafe(|| tape.flush_and_step(&mut opt, 2)));
    assert!(step.is_err());
    // As after a step refused: d (w x) / dw = x, summed, in the grad.
    assert_eq!((w.data(), w.grad()), (3.0, 3.0));
    // The tape goes on from there: no sums are left to flush (or to hand over again).
    tape.backward().unwrap(); // adds d (w x) / dw at x's own data, 0
    tape.flush_grads();
    assert_eq!(w.grad(), 3.0);
    let mut opt = PanicsAt(vec![w.clone()], 1);
    w.zero_grad();
    tape.accumulate_batch(&input, &[[4.0]], 2).unwrap();
    tape.flush_and_step(&mut opt, 2).unwrap();
    assert_eq!((w.data(), w.grad()), (3.0 - 0.5 * 4.0, 4.0));
}

// The same step in a Training: the Values are written as after a step refused, and the
// training goes on.
#[test]
fn a_training_whose_optimizer_panics_writes_the_values_and_goes_on() {
    let (w, x) = (Value::new(3.0), Value::new(0.0).no_grad());
    let mut tape = Tape::compile(&(&w * &x)).unwrap();
    let input = tape.inputs(&[x]).unwrap();
    let mut opt = PanicsAt(vec![w.clone()], 1);
    let mut training = tape.train(&mut opt, 2).unwrap();
    training.step(&input, &[[1.0], [2.0]]).unwrap(); // w = 3 - 0.5 * 3
    let step = catch_unwind(AssertUnwindSafe(|| training.step(&input, &[[4.0]])));
    assert!(step.is_err());
    assert_eq!((w.data(), w.grad()), (1.5, 4.0)); // written: no step, its gradient
    training.optimizer().1 = 1;
    training.step(&input, &[[1.0]]).unwrap();
    training.finish();
    assert_eq!((w.data(), w.grad()), (1.5 - 0.5 * 1.0, 1.0));
}

// ----- a link planted where a file is written -----

// A save writes a temporary file beside its file and renames it over it. Another user
// of the folder (/tmp, a shared project) who plants a link where that temporary file
// goes must not get the model, or the C, written into the file the link points to.
#[cfg(unix)]
#[test]
fn links_planted_at_the_temporary_files_names_are_never_written_through() {
    use micrograd::codegen::CodeGen;
    let dir = std::env::temp_dir().join(format!("micrograd-36-links-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    let files = ["model.txt", "net.h", "net.c"];
    let mut planted = Vec::new();
    for name in files {
        // The names saves used to take (`.NAME.tmp-PID-N`), and some an attacker might
        // guess of those they take now.
        let old = (0..64).map(|n| format!(".{name}.tmp-{}-{n}", std::process::id()));
        let guessed = ["0000000000000000", "ffffffffffffffff", "0123456789abcdef"]
            .map(|digits| format!(".{name}.tmp-{digits}"));
        for link in old.chain(guessed) {
            std::os::unix::fs::symlink(&victim, dir.join(&link)).unwrap();
            planted.push(link);
        }
    }
    let model = MLP::new(2, &[3, 1], &mut StdRng::seed_from_u64(36));
    let adam = Adam::new(model.parameters(), 0.01).unwrap();
    model.save(dir.join("model.txt")).unwrap();
    model.save_with(dir.join("model.txt"), &adam).unwrap();
    let x = [Value::new(0.5), Value::new(-1.0)];
    let tape = Tape::compile(&model.forward(&x).unwrap()[0]).unwrap();
    let code = CodeGen::new(&tape, "net")
        .parameters(&model.parameters())
        .generate()
        .unwrap();
    code.write_to(&dir).unwrap();

    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    let loaded = MLP::from_file(dir.join("model.txt")).unwrap();
    assert!(model_bits(&loaded).0 == model_bits(&model).0);
    assert_eq!(
        std::fs::read_to_string(dir.join("net.c")).unwrap(),
        code.source
    );
    // Nothing else is left in the folder, and every link is still a link.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    let mut expected: Vec<String> = files.iter().map(|f| f.to_string()).collect();
    expected.push("victim.txt".to_owned());
    expected.extend(planted.iter().cloned());
    names.sort();
    expected.sort();
    assert_eq!(names, expected);
    for link in &planted {
        let meta = std::fs::symlink_metadata(dir.join(link)).unwrap();
        assert!(meta.file_type().is_symlink(), "{link}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ----- a picture of a backward pass -----

// The stepper page runs the backward pass on the graph itself (as the lecture steps
// `o._backward()` by hand), then puts every grad back: also when your op's closure
// panics halfway, so drawing a graph never leaves it with other grads.
#[test]
fn a_stepper_page_that_panicked_leaves_the_graphs_grads_as_they_were() {
    let x = Value::new(2.0);
    let loud = Value::custom("loud", &[&x], |p| p[0], |_, _, _| panic!("boom"));
    let y = &loud * &x;
    x.set_grad(7.0);
    loud.set_grad(5.0);
    let drawn = catch_unwind(AssertUnwindSafe(|| y.to_html()));
    assert!(drawn.is_err(), "the custom op's closure panicked");
    assert_eq!((x.grad(), loud.grad(), y.grad()), (7.0, 5.0, 0.0));
}

// ----- data files cut short -----

/// A fresh path in the temp directory, unique to this test and process.
fn temp_path(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("micrograd-36-{}-{name}", std::process::id()))
}

/// Whether `load` refuses every proper prefix of `bytes`, written to a file, with a
/// parse error; the offsets it does not refuse.
fn loads_cut_short<T>(
    bytes: &[u8],
    name: &str,
    load: impl Fn(std::path::PathBuf) -> Result<T, Error>,
) -> Vec<usize> {
    let path = temp_path(name);
    let loaded = (0..bytes.len())
        .filter(|&len| {
            std::fs::write(&path, &bytes[..len]).unwrap();
            !matches!(load(path.clone()), Err(Error::Parse { .. }))
        })
        .collect();
    std::fs::remove_file(&path).unwrap();
    loaded
}

// An IDX file says how many bytes follow its header: a cut anywhere is refused.
#[test]
fn an_idx_file_cut_anywhere_is_an_error() {
    use micrograd::data::{load_idx_images, load_idx_labels};
    // Three 2x2 images and their labels, as MNIST's files hold them.
    let mut images = vec![0, 0, 8, 3, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0, 2];
    images.extend((0..12).map(|i| i * 20));
    let labels = [0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 1];
    assert_eq!(
        loads_cut_short(&images, "images", load_idx_images),
        [] as [usize; 0]
    );
    assert_eq!(
        loads_cut_short(&labels, "labels", load_idx_labels),
        [] as [usize; 0]
    );
}

// A gzip file ends with the length and checksum of what it holds: cut anywhere, it
// does not decompress, and the loader says so.
#[cfg(feature = "flate2")]
#[test]
fn a_gzip_data_file_cut_anywhere_is_an_error() {
    use std::io::Write;
    let text = "x,y,label\n0.5,1.25,1\n-3,4e-3,0\n2.5,-1,1\n";
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(text.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    let cut = loads_cut_short(&gz, "data.csv.gz", micrograd::data::load_csv);
    assert_eq!(cut, [] as [usize; 0]);
}

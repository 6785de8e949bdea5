//! Lesson 17: saving a model (and its optimiser) to a file and loading it back (no Python counterpart).

use std::path::PathBuf;

#[path = "common/parse_failure.rs"]
mod parse_failure;
use parse_failure::parse_failure;

use micrograd::optim::{AdamW, OptimizerState};
use micrograd::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// A fresh path in the temp directory, unique to this test and process.
fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("micrograd-17-{}-{name}", std::process::id()))
}

fn model(nouts: &[usize], seed: u64) -> MLP {
    MLP::new(2, nouts, &mut StdRng::seed_from_u64(seed))
}

fn data(model: &MLP) -> Vec<f64> {
    model.parameters().iter().map(Value::data).collect()
}

/// Writes `text` to a temp file and loads it into an `MLP(2, [2, 1])` (9 parameters).
fn load_text(name: &str, text: &str) -> Result<(), Error> {
    let path = temp_file(name);
    std::fs::write(&path, text).unwrap();
    let result = model(&[2, 1], 0).load(&path);
    std::fs::remove_file(&path).unwrap();
    result
}

/// The header of a version-2 file for `MLP(2, [2, 1])` as `MLP::new` builds it.
const HEADER_2_2_1: &str =
    "micrograd-mlp version 2\ninput 2\nlayer 2 ReLU\nlayer 1 Linear\nparameters 9\n";

#[test]
fn a_saved_model_loads_back_bit_for_bit() {
    let path = temp_file("round-trip");
    let saved = model(&[16, 16, 1], 1);
    saved.parameters()[0].set_data(0.1 + 0.2); // a float with no short decimal form
    saved.save(&path).unwrap();
    let loaded = model(&[16, 16, 1], 2);
    assert_ne!(data(&loaded), data(&saved));
    loaded.load(&path).unwrap();
    assert_eq!(data(&loaded), data(&saved));
    let text = std::fs::read_to_string(&path).unwrap();
    let header = "micrograd-mlp version 3\ninput 2\nlayer 16 ReLU\nlayer 16 ReLU\n\
                  layer 1 Linear\nparameters 337\n0.30000000000000004\n";
    assert!(text.starts_with(header), "{text}");
    assert!(text.ends_with("\nend\n"), "{text}");
    assert_eq!(text.lines().count(), 6 + 337 + 1);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn from_file_builds_the_model_alone_with_its_activations() {
    let path = temp_file("from-file");
    let layers = [
        (3, Activation::Tanh),
        (3, Activation::LeakyRelu(0.01)),
        (2, Activation::Sigmoid),
        (1, Activation::Linear),
    ];
    let saved = MLP::with_activations(2, &layers, &mut StdRng::seed_from_u64(3));
    saved.save(&path).unwrap();
    let loaded = MLP::from_file(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded.to_string(), saved.to_string()); // TanhNeuron(2), LeakyReLU(0.01)...
    assert_eq!(data(&loaded), data(&saved));
    let out = |m: &MLP| m.forward_f64(&[0.5, -1.5]).unwrap()[0].data();
    assert_eq!(out(&loaded), out(&saved));
}

#[test]
fn loading_a_tanh_model_into_a_relu_model_is_an_error() {
    let path = temp_file("tanh");
    let tanh = [(4, Activation::Tanh), (1, Activation::Linear)];
    MLP::with_activations(2, &tanh, &mut StdRng::seed_from_u64(1))
        .save(&path)
        .unwrap();
    let relu = model(&[4, 1], 2);
    let before = data(&relu);
    let err = relu.load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(err, Error::ShapeMismatch { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("MLP(2, [4 Tanh, 1 Linear])"), "{message}");
    assert!(message.contains("MLP(2, [4 ReLU, 1 Linear])"), "{message}");
    assert_eq!(data(&relu), before);
}

#[test]
fn loading_into_another_shape_names_both_shapes() {
    let path = temp_file("shape");
    model(&[8, 1], 1).save(&path).unwrap();
    let err = model(&[16, 16, 1], 1).load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(err, Error::ShapeMismatch { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("MLP(2, [8 ReLU, 1 Linear])"), "{message}");
    assert!(
        message.contains("MLP(2, [16 ReLU, 16 ReLU, 1 Linear])"),
        "{message}"
    );
}

#[test]
fn version_1_files_still_load_into_a_model_but_cannot_build_one_alone() {
    // Version 1: `micrograd-mlp NIN WIDTHS...`, no activations.
    let nine = "0.5\n".repeat(9);
    let path = temp_file("v1");
    std::fs::write(&path, format!("micrograd-mlp 2 2 1\n{nine}")).unwrap();
    let target = model(&[2, 1], 0);
    target.load(&path).unwrap();
    assert_eq!(data(&target), vec![0.5; 9]);
    let (line, _, message) = parse_failure(MLP::from_file(&path));
    std::fs::remove_file(&path).unwrap();
    assert_eq!(line, 1);
    assert!(message.contains("version-1"), "{message}");
    assert!(message.contains("MLP::load"), "{message}");
}

#[test]
fn an_unknown_version_is_an_error_that_names_it() {
    let (line, _, message) = parse_failure(load_text("v4", "micrograd-mlp version 4\n"));
    assert_eq!(line, 1);
    assert!(message.contains("version `4`"), "{message}");
}

#[test]
fn nan_inf_and_overflowing_numbers_are_refused_with_line_and_column() {
    for bad in ["NaN", "inf", "-inf", "1e999"] {
        let text = format!("{HEADER_2_2_1}0.5\n0.25\n{bad}\n{}", "0\n".repeat(6));
        let (line, column, message) = parse_failure(load_text("non-finite", &text));
        assert_eq!((line, column), (8, 1), "{bad}");
        assert!(message.contains(&format!("`{bad}`")), "{message}");
        assert!(message.contains("not a finite number"), "{message}");
    }
}

#[test]
fn a_byte_order_mark_crlf_and_trailing_blank_lines_are_accepted() {
    let nine = "0.5\r\n".repeat(9);
    let text = format!("\u{feff}{}{nine}\r\n\n", HEADER_2_2_1.replace('\n', "\r\n"));
    assert!(load_text("bom", &text).is_ok());
}

#[test]
fn a_malformed_line_is_reported_with_its_number_and_nothing_is_loaded() {
    let target = model(&[2, 1], 0);
    let before = data(&target);
    let path = temp_file("malformed");
    std::fs::write(&path, format!("{HEADER_2_2_1}0.5\n0.25\nzero\n")).unwrap();
    let err = target.load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(err, Error::Parse { line: 8, .. }), "{err:?}");
    assert!(err.to_string().contains("`zero`"), "{err}");
    assert_eq!(data(&target), before);
}

#[test]
fn an_error_quotes_a_short_excerpt_of_a_long_line() {
    let long = "x".repeat(3000);
    let (_, _, message) = parse_failure(load_text("long", &format!("{HEADER_2_2_1}{long}\n")));
    assert!(message.len() < 200, "{message}");
}

#[cfg(unix)]
#[test]
fn a_file_that_is_not_a_model_is_refused_without_being_read_whole() {
    // /dev/zero never ends: reading it whole would never return.
    let (line, _, message) = parse_failure(model(&[2, 1], 0).load("/dev/zero"));
    assert_eq!(line, 1);
    assert!(message.contains("longer than 4096 bytes"), "{message}");
}

#[test]
fn a_bad_header_is_a_parse_error_on_line_1() {
    let (line, column, _) = parse_failure(load_text("header", "mlp 2 2 1\n"));
    assert_eq!((line, column), (1, 1));
    let (line, column, _) = parse_failure(load_text("width", "micrograd-mlp 2 two 1\n"));
    assert_eq!((line, column), (1, 17));
    let (line, _, _) = parse_failure(load_text("empty", ""));
    assert_eq!(line, 1);
    let swish = HEADER_2_2_1.replace("layer 2 ReLU", "layer 2 Swish");
    let (line, column, message) = parse_failure(load_text("swish", &swish));
    assert_eq!((line, column), (3, 9));
    assert!(message.contains("unknown activation `Swish`"), "{message}");
    let wrong_count = HEADER_2_2_1.replace("parameters 9", "parameters 8");
    let (line, _, message) = parse_failure(load_text("count", &wrong_count));
    assert_eq!(line, 5);
    assert!(message.contains("says 8 parameters"), "{message}");
}

#[test]
fn too_few_or_too_many_parameters_is_a_parse_error() {
    // MLP(2, [2, 1]) has 9 parameters: the file's lines 6..=14
    let nine = "0\n".repeat(9);
    assert!(load_text("exact", &format!("{HEADER_2_2_1}{nine}")).is_ok());
    let (line, _, _) = parse_failure(load_text("short", &format!("{HEADER_2_2_1}0\n0\n")));
    assert_eq!(line, 8);
    let (line, _, _) = parse_failure(load_text("long", &format!("{HEADER_2_2_1}{nine}0\n")));
    assert_eq!(line, 15);
}

#[test]
fn a_layer_of_no_neurons_is_refused_in_a_file_and_at_save() {
    let path = temp_file("zero-width");
    // A zero-width layer would hide an input width no file could back with parameters.
    for input in ["2", "1000000000000000000"] {
        let text = format!(
            "micrograd-mlp version 2\ninput {input}\nlayer 0 ReLU\nlayer 1 Linear\nparameters 1\n0\n"
        );
        std::fs::write(&path, text).unwrap();
        let (line, column, message) = parse_failure(MLP::from_file(&path));
        assert_eq!((line, column), (3, 7));
        assert!(message.contains("no neurons"), "{message}");
    }
    std::fs::remove_file(&path).unwrap();
    let err = model(&[0, 1], 0).save(&path).unwrap_err();
    assert!(err.to_string().contains("layer 0 has no neurons"), "{err}");
    assert!(!path.exists(), "nothing is written");
}

#[test]
fn an_unreadable_file_is_an_io_error() {
    let err = model(&[2, 1], 0)
        .load(temp_file("does-not-exist"))
        .unwrap_err();
    assert!(matches!(err, Error::Io { .. }), "{err:?}");
}

#[test]
fn an_unwritable_path_is_a_write_error() {
    let dir = temp_file("no-such-dir");
    let err = model(&[2, 1], 0).save(dir.join("model.txt")).unwrap_err();
    assert!(matches!(err, Error::Write { .. }), "{err:?}");
    assert!(err.to_string().starts_with("cannot write"), "{err}");
}

#[test]
fn a_failed_save_leaves_the_previous_file_as_it_was() {
    let dir = temp_file("failed-save");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("model.txt");
    model(&[2, 1], 1).save(&path).unwrap();
    let old = std::fs::read_to_string(&path).unwrap();
    // A model that diverged is refused before anything is written.
    let diverged = model(&[2, 1], 2);
    diverged.parameters()[3].set_data(f64::NAN);
    let err = diverged.save(&path).unwrap_err();
    assert!(err.to_string().contains("parameter 3 is NaN"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
    // Saving over a directory is refused: the directory stays, and no temporary file
    // is left beside it.
    let err = model(&[2, 1], 3).save(&dir).unwrap_err();
    assert!(matches!(err, Error::Write { .. }), "{err:?}");
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["model.txt"]);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_name_as_long_as_the_file_system_allows_can_be_saved() {
    // 255 bytes is the longest name most file systems take; the temporary file written
    // beside it must not need a longer one.
    let dir = temp_file("long-name");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.txt", "m".repeat(251)));
    let saved = model(&[2, 1], 5);
    saved.save(&path).unwrap();
    assert_eq!(data(&MLP::from_file(&path).unwrap()), data(&saved));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(unix)]
#[test]
fn saving_over_a_file_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt;
    let path = temp_file("mode");
    std::fs::write(&path, "an older model\n").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o604)).unwrap();
    model(&[2, 1], 0).save(&path).unwrap();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(mode & 0o777, 0o604, "{mode:o}");
}

#[cfg(unix)]
#[test]
fn saving_through_a_symlink_replaces_its_target_and_keeps_the_link() {
    let dir = temp_file("symlink");
    std::fs::create_dir_all(dir.join("models")).unwrap();
    let (link, target) = (dir.join("model.txt"), dir.join("models/v3.txt"));
    std::fs::write(&target, "an older model\n").unwrap();
    std::os::unix::fs::symlink("models/v3.txt", &link).unwrap();
    let saved = model(&[2, 1], 4);
    saved.save(&link).unwrap();
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(data(&MLP::from_file(&target).unwrap()), data(&saved));
    std::fs::remove_dir_all(&dir).unwrap();
}

// ----- resuming a training run: model and optimiser state -----

/// One step of full-batch training of `model` on XOR with mean squared error.
fn train_step(model: &MLP, opt: &mut dyn Optimizer) {
    let xor = micrograd::data::xor();
    let preds: Vec<Value> = (xor.inputs.iter())
        .map(|x| model.forward_f64(x).unwrap().remove(0))
        .collect();
    let loss = micrograd::loss::mse(&preds, &xor.labels).unwrap();
    opt.zero_grad();
    loss.backward();
    opt.step().unwrap();
}

/// A tanh model for XOR, the same for every call.
fn xor_model() -> MLP {
    let layers = [(4, Activation::Tanh), (1, Activation::Linear)];
    MLP::with_activations(2, &layers, &mut StdRng::seed_from_u64(17))
}

/// The optimisers a run can be resumed with, each built fresh over `params` with
/// hyper-parameters that differ from the constructors' defaults (which `load_with`
/// must restore).
fn optimizers(params: Vec<Value>, fresh: bool) -> Vec<Box<dyn Optimizer>> {
    let lr = if fresh { 1.0 } else { 0.05 };
    let sgd = Sgd::new(params.clone(), lr).unwrap();
    let adamw = AdamW::new(params.clone(), lr).unwrap();
    if fresh {
        return vec![
            Box::new(sgd),
            Box::new(Adam::new(params, lr).unwrap()),
            Box::new(adamw),
        ];
    }
    vec![
        Box::new(sgd.momentum(0.9).unwrap()),
        Box::new(Adam::new(params, lr).unwrap().betas(0.8, 0.99).unwrap()),
        Box::new(adamw.weight_decay(0.1).unwrap()),
    ]
}

#[test]
fn a_resumed_run_takes_exactly_the_steps_an_uninterrupted_one_would() {
    let (n, m) = (7, 5);
    for which in 0..3 {
        // N + M steps without a break.
        let straight = xor_model();
        let mut opt = optimizers(straight.parameters(), false).remove(which);
        (0..n + m).for_each(|_| train_step(&straight, opt.as_mut()));

        // N steps, save, then a new process would: build from the file, make a fresh
        // optimiser, restore its state, and take M steps.
        let path = temp_file(&format!("resume-{which}"));
        let first = xor_model();
        let mut opt = optimizers(first.parameters(), false).remove(which);
        (0..n).for_each(|_| train_step(&first, opt.as_mut()));
        first.save_with(&path, opt.as_ref()).unwrap();
        let resumed = MLP::from_file(&path).unwrap();
        let mut opt = optimizers(resumed.parameters(), true).remove(which);
        resumed.load_with(&path, opt.as_mut()).unwrap();
        std::fs::remove_file(&path).unwrap();
        (0..m).for_each(|_| train_step(&resumed, opt.as_mut()));

        assert_eq!(data(&resumed), data(&straight), "optimizer {which}");
    }
}

#[test]
fn optimizer_state_must_be_there_and_of_the_same_kind() {
    let path = temp_file("no-state");
    let model = xor_model();
    model.save(&path).unwrap();
    let mut adam = Adam::new(model.parameters(), 0.1).unwrap();
    let (_, _, message) = parse_failure(model.load_with(&path, &mut adam));
    assert!(message.contains("no optimizer state"), "{message}");
    model.save_with(&path, &adam).unwrap();
    let mut sgd = Sgd::new(model.parameters(), 0.1).unwrap();
    let err = model.load_with(&path, &mut sgd).unwrap_err();
    assert!(
        err.to_string().contains("Adam's but this optimizer is Sgd"),
        "{err}"
    );
    // An optimiser over another model's parameters is refused too.
    let other = xor_model();
    let mut elsewhere = Adam::new(other.parameters(), 0.1).unwrap();
    let err = model.load_with(&path, &mut elsewhere).unwrap_err();
    assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
    std::fs::remove_file(&path).unwrap();
}

#[cfg(feature = "serde")]
#[test]
fn with_the_serde_feature_the_saved_forms_round_trip_through_json() {
    let model = xor_model();
    let mut adam = Adam::new(model.parameters(), 0.1).unwrap();
    train_step(&model, &mut adam);
    let saved = model.to_saved();
    let json = serde_json::to_string(&saved).unwrap();
    assert!(json.contains("\"Tanh\""), "{json}");
    let back: micrograd::nn::SavedMlp = serde_json::from_str(&json).unwrap();
    assert_eq!(back, saved);
    assert_eq!(data(&MLP::from_saved(&back).unwrap()), data(&model));
    let state = adam.state();
    let json = serde_json::to_string(&state).unwrap();
    assert_eq!(
        serde_json::from_str::<micrograd::optim::OptimizerState>(&json).unwrap(),
        state
    );
}

#[test]
fn a_huge_state_width_is_a_parse_error_naming_it_not_an_allocation() {
    let nine = "0\n".repeat(9);
    let state = "optimizer Adam\nsteps 1\nlr 0.1\nstate 9 99999999999999999\n0 0\n";
    let text = format!("{HEADER_2_2_1}{nine}{state}");
    let (line, column, message) = parse_failure(load_text("huge-width", &text));
    assert_eq!((line, column), (18, 9));
    assert!(message.contains("99999999999999999"), "{message}");
}

#[test]
fn load_refuses_a_state_for_another_number_of_parameters() {
    let nine = "0\n".repeat(9);
    let sgd = "optimizer Sgd\nsteps 0\nlr 0.1\nmomentum 0\nweight_decay 0\n";
    let text = format!("{HEADER_2_2_1}{nine}{sgd}state 8 1\n{}", "0\n".repeat(8));
    let (line, column, message) = parse_failure(load_text("state-count", &text));
    assert_eq!((line, column), (20, 7));
    assert!(
        message.contains("8 parameters") && message.contains("9"),
        "{message}"
    );
}

#[test]
fn the_column_of_a_bad_state_width_counts_the_digits_as_written() {
    let nine = "0\n".repeat(9);
    let text = format!("{HEADER_2_2_1}{nine}optimizer Adam\nsteps 1\nlr 0.1\nstate 009 x\n");
    let (line, column, message) = parse_failure(load_text("state-column", &text));
    assert_eq!((line, column), (18, 11), "{message}");
}

#[test]
fn a_leaky_relu_slope_that_is_not_finite_is_refused_by_from_saved() {
    for slope in [f64::NAN, f64::INFINITY] {
        let mut saved = model(&[2, 1], 1).to_saved();
        saved.layers[0].1 = Activation::LeakyRelu(slope);
        let err = MLP::from_saved(&saved).unwrap_err();
        assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
        assert!(err.to_string().contains(&format!("({slope:?})")), "{err}");
    }
}

#[test]
fn a_hyper_parameter_given_twice_is_a_parse_error() {
    let path = temp_file("twice");
    let model = xor_model();
    let mut adam = Adam::new(model.parameters(), 0.1).unwrap();
    model.save_with(&path, &adam).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let line = 1 + text.lines().position(|l| l == "lr 0.1").unwrap();
    for twice in ["lr 0.1\nlr 0.5\n", "lr 0.1\nsteps 7\n"] {
        std::fs::write(&path, text.replace("lr 0.1\n", twice)).unwrap();
        let (at, _, message) = parse_failure(model.load_with(&path, &mut adam));
        assert_eq!(at, line + 1, "{twice}");
        assert!(message.contains("twice"), "{message}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// An optimiser written outside the crate, whose state is whatever it was given.
struct Fixed(Vec<Value>, OptimizerState);

impl Optimizer for Fixed {
    fn params(&self) -> &[Value] {
        &self.0
    }
    fn step(&mut self) -> Result<(), Error> {
        Ok(())
    }
    fn learning_rate(&self) -> f64 {
        0.0
    }
    fn set_learning_rate(&mut self, _: f64) -> Result<(), Error> {
        Ok(())
    }
    fn state(&self) -> OptimizerState {
        self.1.clone()
    }
    fn set_state(&mut self, state: &OptimizerState) -> Result<(), Error> {
        self.1 = state.clone();
        Ok(())
    }
}

/// A change to an optimiser's state.
type Change = fn(&mut OptimizerState);

#[test]
fn an_optimizer_state_the_file_cannot_give_back_is_refused_at_save() {
    let path = temp_file("bad-state");
    let model = model(&[2, 1], 0);
    let adam = Adam::new(model.parameters(), 0.1).unwrap().state();
    let with = |change: Change| {
        let mut state = adam.clone();
        change(&mut state);
        Fixed(model.parameters(), state)
    };
    let refused: [(Change, &str); 10] = [
        (|s| s.slots[3][1] = f64::NAN, "parameter 3 holds NaN"),
        (|s| s.hyper_parameters[0].1 = f64::INFINITY, "`lr` is inf"),
        (|s| s.slots[4].push(0.0), "parameter 4 has 3 numbers"),
        (|s| s.slots = vec![vec![]; 9], "no numbers"),
        (
            |s| s.slots.truncate(8),
            "state of 8 parameters but the model has 9",
        ),
        (|s| s.slots = vec![vec![0.5; 2000]; 9], "4095 bytes"),
        (|s| s.hyper_parameters[0].0 = "l r".into(), "`l r`"),
        (|s| s.hyper_parameters[0].0 = "state".into(), "`state`"),
        (|s| s.hyper_parameters[1].0 = "lr".into(), "`lr` twice"),
        (|s| s.kind = "Adam\nlr 5".into(), r"`Adam\nlr 5`"),
    ];
    for (change, says) in refused {
        let err = model.save_with(&path, &with(change)).unwrap_err();
        assert!(matches!(err, Error::InvalidInput(_)), "{err:?}");
        assert!(err.to_string().contains(says), "{says}: {err}");
        assert!(!path.exists(), "nothing is written");
    }
    // What the file can hold comes back as it was.
    // (An optimiser may keep nothing per parameter: no slots at all.)
    let odd = with(|s| (s.kind, s.steps, s.slots) = ("My Adam".into(), u64::MAX, vec![]));
    model.save_with(&path, &odd).unwrap();
    let mut back = with(|_| {});
    model.load_with(&path, &mut back).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(back.1, odd.1);
}

// ----- a file cut short -----

/// A trained XOR model and its Adam after two steps (moments that are not 0), and the
/// bytes of the file `save_with` writes for them.
fn saved_with_adam(path: &std::path::Path) -> (MLP, Adam, Vec<u8>) {
    let model = xor_model();
    let mut adam = Adam::new(model.parameters(), 0.05).unwrap();
    (0..2).for_each(|_| train_step(&model, &mut adam));
    model.save_with(path, &adam).unwrap();
    let bytes = std::fs::read(path).unwrap();
    (model, adam, bytes)
}

/// Whether each way of loading refuses the file at `path` with a parse error, leaving
/// the model and the optimiser as they were.
fn every_load_refuses(path: &std::path::Path, model: &MLP, adam: &mut Adam) -> bool {
    let (before, state) = (data(model), adam.state());
    let refused = matches!(MLP::from_file(path), Err(Error::Parse { .. }))
        && matches!(model.load(path), Err(Error::Parse { .. }))
        && matches!(model.load_with(path, adam), Err(Error::Parse { .. }));
    refused && data(model) == before && adam.state() == state
}

#[test]
fn a_model_file_cut_anywhere_is_an_error() {
    // A disk that fills, a copy interrupted: the file ends early, at any byte. Every
    // cut must be refused (the parameters and the optimiser state alike), and the whole
    // file must load.
    let path = temp_file("cut");
    let (model, mut adam, whole) = saved_with_adam(&path);
    let cut_path = temp_file("cut-short");
    for with_state in [true, false] {
        if !with_state {
            model.save(&path).unwrap();
        }
        let whole = if with_state {
            whole.clone()
        } else {
            std::fs::read(&path).unwrap()
        };
        for len in 0..whole.len() {
            std::fs::write(&cut_path, &whole[..len]).unwrap();
            assert!(
                every_load_refuses(&cut_path, &model, &mut adam),
                "cut after {len} of {} bytes loads: {:?}",
                whole.len(),
                String::from_utf8_lossy(&whole[len.saturating_sub(20)..len])
            );
        }
    }
    let mut fresh = Adam::new(model.parameters(), 0.1).unwrap();
    std::fs::write(&cut_path, &whole).unwrap();
    MLP::from_file(&cut_path).unwrap();
    model.load_with(&cut_path, &mut fresh).unwrap();
    assert_eq!(fresh.state(), adam.state());
    for p in [path, cut_path] {
        std::fs::remove_file(p).unwrap();
    }
}

#[test]
fn a_file_cut_inside_a_number_says_where_and_what_to_do() {
    let nine = "0.25\n".repeat(8) + "0.0198";
    let (line, column, message) =
        parse_failure(load_text("cut-number", &format!("{HEADER_2_2_1}{nine}")));
    assert_eq!((line, column), (14, 7));
    assert!(
        message.contains("`0.0198`") && message.contains("cut short"),
        "{message}"
    );
    assert!(message.contains("save the model again"), "{message}");
}

#[test]
fn version_2_files_without_an_end_line_still_load_but_not_cut_inside_a_line() {
    // Version 2 had no `end` line: a whole file loads. Cut anywhere it is refused, but
    // for one place: between the parameters and the optimiser state, where the model
    // is whole (and load_with finds no state).
    let path = temp_file("v2");
    let (model, mut adam, v3) = saved_with_adam(&path);
    let v3 = String::from_utf8(v3).unwrap();
    let v2 = v3
        .replace("micrograd-mlp version 3", "micrograd-mlp version 2")
        .replace("\nend\n", "\n");
    std::fs::write(&path, &v2).unwrap();
    let (mut fresh, before) = (Adam::new(model.parameters(), 0.1).unwrap(), data(&model));
    model.load_with(&path, &mut fresh).unwrap();
    assert_eq!(
        (fresh.state(), data(&model)),
        (adam.state(), before.clone())
    );
    let model_only = v2.find("optimizer ").unwrap();
    for len in (0..v2.len()).filter(|&len| len != model_only) {
        std::fs::write(&path, &v2[..len]).unwrap();
        assert!(
            every_load_refuses(&path, &model, &mut adam),
            "cut after {len} bytes"
        );
    }
    std::fs::write(&path, &v2[..model_only]).unwrap();
    assert_eq!(data(&MLP::from_file(&path).unwrap()), before);
    let (_, _, message) = parse_failure(model.load_with(&path, &mut adam));
    assert!(message.contains("no optimizer state"), "{message}");
    std::fs::remove_file(&path).unwrap();
}

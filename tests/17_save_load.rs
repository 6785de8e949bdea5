//! Saving an MLP's parameters to a text file and loading them back (no Python counterpart).

use std::path::PathBuf;

use micrograd::prelude::*;
use rand::rngs::StdRng;
use rand::SeedableRng;

/// A fresh path in the temp directory, unique to this test and process.
fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("micrograd-14-{}-{name}", std::process::id()))
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
    assert!(
        text.starts_with("micrograd-mlp 2 16 16 1\n0.30000000000000004\n"),
        "{text}"
    );
    assert_eq!(text.lines().count(), 1 + 337);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn loading_into_another_shape_names_both_shapes() {
    let path = temp_file("shape");
    model(&[8, 1], 1).save(&path).unwrap();
    let err = model(&[16, 16, 1], 1).load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(err, Error::ShapeMismatch { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("MLP(2, [8, 1])"), "{message}");
    assert!(message.contains("MLP(2, [16, 16, 1])"), "{message}");
}

#[test]
fn a_malformed_line_is_reported_with_its_number_and_nothing_is_loaded() {
    let target = model(&[2, 1], 0);
    let before = data(&target);
    let path = temp_file("malformed");
    std::fs::write(&path, "micrograd-mlp 2 2 1\n0.5\n0.25\nzero\n").unwrap();
    let err = target.load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(err, Error::Parse { line: 4, .. }), "{err:?}");
    assert!(err.to_string().contains("\"zero\""), "{err}");
    assert_eq!(data(&target), before);
}

#[test]
fn a_bad_header_is_a_parse_error_on_line_1() {
    let err = load_text("header", "mlp 2 2 1\n").unwrap_err();
    assert!(
        matches!(
            err,
            Error::Parse {
                line: 1,
                column: 1,
                ..
            }
        ),
        "{err:?}"
    );
    let err = load_text("width", "micrograd-mlp 2 two 1\n").unwrap_err();
    assert!(
        matches!(
            err,
            Error::Parse {
                line: 1,
                column: 17,
                ..
            }
        ),
        "{err:?}"
    );
    let err = load_text("empty", "").unwrap_err();
    assert!(matches!(err, Error::Parse { line: 1, .. }), "{err:?}");
}

#[test]
fn too_few_or_too_many_parameters_is_a_parse_error() {
    // MLP(2, [2, 1]) has 9 parameters: the file's lines 2..=10
    let nine = "0\n".repeat(9);
    assert!(load_text("exact", &format!("micrograd-mlp 2 2 1\n{nine}")).is_ok());
    let short = load_text("short", "micrograd-mlp 2 2 1\n0\n0\n").unwrap_err();
    assert!(matches!(short, Error::Parse { line: 4, .. }), "{short:?}");
    let long = load_text("long", &format!("micrograd-mlp 2 2 1\n{nine}0\n")).unwrap_err();
    assert!(matches!(long, Error::Parse { line: 11, .. }), "{long:?}");
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

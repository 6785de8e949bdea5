//! Lesson 35: C for a microcontroller. Every file `micrograd::codegen` writes compiles
//! without a warning on every compiler a device developer meets (gcc and clang in strict
//! C99, g++ as C++, arm-none-eabi-gcc for a Cortex-M4), for any model, however
//! degenerate.
//!
//! Python has no counterpart: micrograd's graph lives only in Python.

use std::path::{Path, PathBuf};
use std::process::Command;

use micrograd::codegen::{CCode, CodeGen, Precision};
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;

/// The flags every compiler gets: strict C99 (or C++), every warning an error.
const STRICT: &[&str] = &["-O2", "-Wall", "-Wextra", "-Werror", "-pedantic"];

/// A Cortex-M4 with its single-precision FPU, no hosted C library.
const CORTEX_M4: &[&str] = &[
    "-mcpu=cortex-m4",
    "-mthumb",
    "-mfloat-abi=hard",
    "-mfpu=fpv4-sp-d16",
    "-ffreestanding",
];

/// `MICROGRAD_ALL_COMPILERS=1` (CI sets it): a compiler that is not installed fails the
/// test instead of being left out.
fn required() -> bool {
    std::env::var_os("MICROGRAD_ALL_COMPILERS").is_some_and(|v| v == "1")
}

/// The compilers to try, with their flags: those installed (all of them, or a failure,
/// when [`required`]).
fn compilers() -> Vec<(&'static str, Vec<&'static str>)> {
    let c99 = |extra: &[&'static str]| [&["-std=c99"], STRICT, extra].concat();
    let all = [
        ("gcc", c99(&[])),
        ("clang", c99(&[])),
        ("g++", [&["-x", "c++"], STRICT].concat()),
        ("arm-none-eabi-gcc", c99(CORTEX_M4)),
    ];
    let installed = |cc: &str| Command::new(cc).arg("--version").output().is_ok();
    let mut found = Vec::new();
    for (cc, flags) in all {
        if installed(cc) {
            found.push((cc, flags));
        } else {
            assert!(!required(), "{cc} is not installed (apt-get install {cc})");
            eprintln!("note: {cc} is not installed: the C is not compiled with it");
        }
    }
    found
}

/// A fresh folder for `what`.
fn folder(what: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("35_inference_c-{what}"));
    std::fs::remove_dir_all(&dir).ok();
    dir
}

/// Compiles `source` (without linking) with `cc` and `flags`; panics with the
/// compiler's messages if it warns or fails.
fn compile(cc: &str, flags: &[&str], source: &Path) {
    let object = source.with_extension(format!("{}.o", cc.replace('+', "x")));
    let out = Command::new(cc)
        .args(flags)
        .arg("-c")
        .arg(source)
        .arg("-o")
        .arg(&object)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cc}: {e}"));
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "{cc} {} on {}:\n{}",
        flags.join(" "),
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Writes `code` into a folder of its own and compiles it with every compiler.
fn compiles_everywhere(code: &CCode, what: &str) {
    let [_, source] = code.write_to(&folder(what)).unwrap();
    for (cc, flags) in compilers() {
        compile(cc, &flags, &source);
    }
}

/// Graphs at the edges of what the generator takes: no parameters, no inputs, an empty
/// input group, a leaf that needs no gradient, only constants, a capitalised name; and a
/// model of every helper (layers of 16, sigmoid, powi, abs).
fn odd_models() -> Vec<(
    &'static str,
    Tape,
    Vec<(&'static str, Vec<Value>)>,
    Option<Vec<Value>>,
)> {
    let x = Value::new(0.5);
    let w = Value::new(-0.25);
    let frozen = Value::new(3.0).no_grad();
    let model = MLP::new(3, &[16, 2], &mut PythonRandom::seed(3));
    let xs: Vec<Value> = (0..3).map(|_| Value::new(0.0)).collect();
    let logits = model.forward(&xs).unwrap();
    let helpers = (logits[0].sigmoid() + logits[1].powi(3) + logits[1].abs()) * &w;
    let compile = |v: &Value| Tape::compile(v).unwrap();
    vec![
        // x * 2.0: nothing to train
        (
            "no_params",
            compile(&(&x * 2.0)),
            vec![("x", vec![x.clone()])],
            None,
        ),
        // .parameters(&[])
        (
            "empty_params",
            compile(&(&w * &x)),
            vec![("x", vec![x.clone()])],
            Some(vec![]),
        ),
        // w * 3.0: no inputs
        ("no_inputs", compile(&(&w * 3.0)), vec![], None),
        // an input group of no leaves
        (
            "empty_group",
            compile(&(&w * &x)),
            vec![("x", vec![x.clone()]), ("none", vec![])],
            None,
        ),
        // a parameter marked no_grad is a constant
        (
            "no_grad",
            compile(&(&w * &x + &frozen * &w)),
            vec![("x", vec![x.clone()])],
            None,
        ),
        // only constants: no parameters, no inputs
        ("constants", compile(&(&frozen * 2.0)), vec![], None),
        (
            "MyNet",
            Tape::compile_with_outputs(&helpers, &logits).unwrap(),
            vec![("xs", xs)],
            Some([model.parameters(), vec![w.clone()]].concat()),
        ),
    ]
}

#[test]
fn every_generated_file_compiles_without_a_warning_on_every_compiler() {
    let mut written = 0;
    for (name, tape, inputs, params) in odd_models() {
        for precision in [Precision::F64, Precision::F32] {
            let mut gen = CodeGen::new(&tape, name).precision(precision);
            for (group, leaves) in &inputs {
                gen = gen.input(group, leaves);
            }
            if let Some(params) = &params {
                gen = gen.parameters(params);
            }
            let code = gen.generate().unwrap();
            compiles_everywhere(&code, &format!("{name}-{precision:?}-training"));
            written += 1;
        }
    }
    assert_eq!(written, 14);
}

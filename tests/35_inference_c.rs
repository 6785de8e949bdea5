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

#[path = "../examples/common/cortex_m4.rs"]
mod cortex_m4;
use cortex_m4::ImageSize;

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
        (
            "arm-none-eabi-gcc",
            [cortex_m4::CORTEX_M4, &c99(&[])].concat(),
        ),
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

/// The functions of math.h the C may call (docs/codegen.md lists them): `exp` and
/// `expf`, ...
const MATH: [&str; 10] = [
    "exp", "log", "log1p", "tanh", "sqrt", "sin", "cos", "pow", "fabs", "floor",
];

/// The symbols an object needs from outside (`nm -u`).
fn undefined(nm: &str, object: &Path) -> Vec<String> {
    let out = Command::new(nm).arg("-u").arg(object).output().unwrap();
    (String::from_utf8_lossy(&out.stdout).lines())
        .filter_map(|l| l.split_whitespace().last().map(str::to_owned))
        .collect()
}

/// Writes `code` into a folder of its own and compiles it with every compiler. For the
/// Cortex-M4, checks what the object needs from outside: math.h's functions in the
/// code's precision (`expf` for float), and for double the soft-double routines of
/// libgcc (`__aeabi_dadd`, ...: the M4's FPU is single precision); no `memcpy`, no
/// `memset`, nothing else of the C library.
fn compiles_everywhere(code: &CCode, what: &str, precision: Precision) {
    let [_, source] = code.write_to(&folder(what)).unwrap();
    for (cc, flags) in compilers() {
        compile(cc, &flags, &source);
        if cc == "arm-none-eabi-gcc" {
            let object = source.with_extension("arm-none-eabi-gcc.o");
            for symbol in undefined("arm-none-eabi-nm", &object) {
                let ok = match precision {
                    Precision::F32 => MATH.iter().any(|m| symbol == format!("{m}f")),
                    _ => MATH.contains(&symbol.as_str()) || symbol.starts_with("__aeabi_"),
                };
                assert!(ok, "{what}: the Cortex-M4 object needs {symbol}");
            }
        }
    }
}

/// A graph to write as C: its name, its tape, its input groups and, if named, its
/// parameters.
type Model = (
    &'static str,
    Tape,
    Vec<(&'static str, Vec<Value>)>,
    Option<Vec<Value>>,
);

/// Graphs at the edges of what the generator takes: no parameters, no inputs, an empty
/// input group, a leaf that needs no gradient, only constants, a capitalised name; and a
/// model of every static function of the C (layers of 16, sigmoid, powi, abs).
fn odd_models() -> Vec<Model> {
    let x = Value::new(0.5);
    let w = Value::new(-0.25);
    let frozen = Value::new(3.0).no_grad();
    let model = MLP::new(3, &[16, 2], &mut PythonRandom::seed(3));
    let xs: Vec<Value> = (0..3).map(|_| Value::new(0.0)).collect();
    let logits = model.forward(&xs).unwrap();
    let uses_each = (logits[0].sigmoid() + logits[1].powi(3) + logits[1].abs()) * &w;
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
            Tape::compile_with_outputs(&uses_each, &logits).unwrap(),
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
            let training = gen.clone().generate().unwrap();
            compiles_everywhere(
                &training,
                &format!("{name}-{precision:?}-training"),
                precision,
            );
            let inference = gen.inference().generate().unwrap();
            compiles_everywhere(
                &inference,
                &format!("{name}-{precision:?}-inference"),
                precision,
            );
            written += 2;
        }
    }
    assert_eq!(written, 28);
}

/// A host program that runs inference C: reads the inputs (the group `group`) as the
/// hex bits of doubles, one sample a line, and prints the outputs likewise.
fn driver(name: &str, group: &str) -> String {
    let up = name.to_uppercase();
    let g = group.to_uppercase();
    format!(
        r#"#include <stdio.h>
#include <string.h>
#include "{name}.h"
static {name}_real buf[{up}_BUFFER_LEN], in[{up}_{g}_LEN], out[{up}_OUTPUTS];
int main(void) {{
    unsigned long long u;
    double x;
    int k;
    for (;;) {{
        for (k = 0; k < {up}_{g}_LEN; k++) {{
            if (scanf("%llx", &u) != 1) return 0;
            memcpy(&x, &u, sizeof x);
            in[k] = ({name}_real)x;
        }}
        {name}_set_{group}(buf, in);
        {name}_forward(buf);
        {name}_outputs(buf, out);
        for (k = 0; k < {up}_OUTPUTS; k++) {{
            x = out[k];
            memcpy(&u, &x, sizeof u);
            printf(" %llx", u);
        }}
        printf("\n");
    }}
}}
"#
    )
}

/// Compiles `code` with its driver (the host's `cc`, `micrograd::codegen::C_FLAGS`),
/// runs it on `samples` and returns the outputs.
fn run_on_host(code: &CCode, group: &str, samples: &[Vec<f64>]) -> Vec<Vec<f64>> {
    use std::io::Write;
    let dir = folder(&format!("{}-host", code.name));
    let [_, source] = code.write_to(&dir).unwrap();
    let main = dir.join("main.c");
    std::fs::write(&main, driver(&code.name, group)).unwrap();
    let exe = dir.join(&code.name);
    let out = Command::new("cc")
        .args(micrograd::codegen::C_FLAGS)
        .arg(&source)
        .arg(&main)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let input: String = (samples.iter())
        .map(|s| {
            s.iter()
                .map(|x| format!("{:x} ", x.to_bits()))
                .collect::<String>()
                + "\n"
        })
        .collect();
    let mut child = Command::new(&exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (String::from_utf8(out.stdout).unwrap().lines())
        .map(|l| {
            (l.split_whitespace())
                .map(|h| f64::from_bits(u64::from_str_radix(h, 16).unwrap()))
                .collect()
        })
        .collect()
}

/// The index of the first largest number, as `loss::argmax`.
fn class(xs: &[f64]) -> usize {
    (0..xs.len()).fold(0, |best, i| if xs[i] > xs[best] { i } else { best })
}

#[path = "common/rng.rs"]
mod rng;

/// An iris-shaped network, MLP(4, [8, 3]) as micrograd makes it, on a tape whose outputs
/// are its three scores; and fifty random samples (four numbers in -2 .. 2).
fn iris() -> (Tape, Vec<Value>, Vec<Vec<f64>>) {
    let model = MLP::new(4, &[8, 3], &mut PythonRandom::seed(42));
    let x: Vec<Value> = (0..4).map(|_| Value::new(0.0)).collect();
    let scores = model.forward(&x).unwrap();
    let tape = Tape::compile_outputs(&scores).unwrap();
    let mut rng = rng::Rng(7);
    let samples = (0..50)
        .map(|_| (0..4).map(|_| 2.0 * rng.unit()).collect())
        .collect();
    (tape, x, samples)
}

/// The tape's outputs for each sample.
fn tape_outputs(tape: &mut Tape, x: &[Value], samples: &[Vec<f64>]) -> Vec<Vec<f64>> {
    (samples.iter())
        .map(|s| {
            for (leaf, &v) in x.iter().zip(s) {
                leaf.set_data(v);
            }
            tape.forward().unwrap();
            tape.outputs().collect()
        })
        .collect()
}

// Inference in double gives the tape's scores bit for bit; in float, the same class for
// every sample.
#[test]
fn inference_c_gives_the_tapes_outputs() {
    let (mut tape, x, samples) = iris();
    let want = tape_outputs(&mut tape, &x, &samples);
    let code = |precision| {
        let gen = CodeGen::new(&tape, "iris")
            .input("x", &x)
            .precision(precision);
        gen.inference().generate().unwrap()
    };
    let f64_c = run_on_host(&code(Precision::F64), "x", &samples);
    assert_eq!(f64_c.len(), samples.len());
    for ((c, t), s) in f64_c.iter().zip(&want).zip(&samples) {
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(c), bits(t), "sample {s:?}: {c:?} (C) vs {t:?} (tape)");
    }
    let f32_c = run_on_host(&code(Precision::F32), "x", &samples);
    assert_eq!(f32_c.len(), samples.len());
    for ((c, t), s) in f32_c.iter().zip(&want).zip(&samples) {
        assert_eq!(
            class(c),
            class(t),
            "sample {s:?}: {c:?} (float C) vs {t:?} (tape)"
        );
    }
}

/// Links `code` (inference C) into a Cortex-M4 image that runs it on `sample` (the input
/// group `group`) and measures it; `None` if arm-none-eabi-gcc is not installed (and not
/// [`required`]).
fn image(code: &CCode, group: &str, sample: &[f64]) -> Option<ImageSize> {
    if !cortex_m4::installed() {
        assert!(!required(), "arm-none-eabi-gcc is not installed");
        eprintln!("note: arm-none-eabi-gcc is not installed: no image linked");
        return None;
    }
    let dir = folder(&format!("{}-cortex-m4", code.name));
    code.write_to(&dir).unwrap();
    Some(cortex_m4::link(&dir, &code.name, group, sample).unwrap())
}

// Inference keeps the weights in flash and only the inputs and the activations of two
// layers in RAM: 4 + 8 + 3 floats for iris.
#[test]
fn iris_inference_needs_under_256_bytes_of_ram_on_a_cortex_m4() {
    let (tape, x, samples) = iris();
    let code = CodeGen::new(&tape, "iris")
        .input("x", &x)
        .precision(Precision::F32)
        .inference()
        .generate()
        .unwrap();
    assert!(
        code.header.contains("#define IRIS_BUFFER_LEN 15 "),
        "{}",
        code.header
    );
    let Some(size) = image(&code, "x", &samples[0]) else {
        return;
    };
    // the buffer (60 bytes) and the outputs (12)
    assert!(size.ram_bytes < 256, "{size:?}");
    assert!(size.flash_bytes > 67 * 4, "{size:?}");
}

// MNIST's 784-32-10 network: 784 inputs, 32 and 10 activations; as floats 3,304 bytes,
// which with the ten outputs the image keeps fit in 4 KB.
#[test]
fn mnist_shaped_inference_needs_at_most_4_kb_of_ram_on_a_cortex_m4() {
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(0));
    let x: Vec<Value> = (0..784).map(|_| Value::new(0.0)).collect();
    let logits = model.forward(&x).unwrap();
    let tape = Tape::compile_with_outputs(&logits.iter().sum(), &logits).unwrap();
    let code = CodeGen::new(&tape, "mnist")
        .input("image", &x)
        .precision(Precision::F32)
        .inference()
        .generate()
        .unwrap();
    assert!(
        code.header.contains("#define MNIST_BUFFER_LEN 826 "),
        "{}",
        code.header
    );
    let Some(size) = image(&code, "image", &[0.5; 784]) else {
        return;
    };
    assert!(size.ram_bytes <= 4096, "{size:?}");
    // the weights are in flash, once
    let weights = 4 * model.num_parameters();
    assert!(
        size.flash_bytes > weights && size.flash_bytes < weights + 8192,
        "{size:?}"
    );
}

// Training C keeps one copy of each weight: its buffer for SGD is the nodes' values and
// their gradients, for MNIST's 784-32-10 network at most 1.1 times the parameters and
// their gradients (it was 1.5 times with a second copy of the layers' weights).
#[test]
fn training_c_for_mnist_with_sgd_needs_at_most_1_1_times_the_weights_and_gradients() {
    let model = MLP::new(784, &[32, 10], &mut PythonRandom::seed(0));
    let leaves = |n: usize| (0..n).map(|_| Value::new(0.0)).collect::<Vec<_>>();
    let (x, y, scale) = (leaves(784), leaves(10), leaves(1));
    let logits = model.forward(&x).unwrap();
    // the softmax cross-entropy of 09_codegen: ln(sum exp(z)) - z[label], scaled
    let picked: Value = logits.iter().zip(&y).map(|(z, y)| y * z).sum();
    let loss = (logits.iter().map(Value::exp).sum::<Value>().ln() - picked) * &scale[0];
    let tape = Tape::compile_with_outputs(&loss, &logits).unwrap();
    let code = CodeGen::new(&tape, "mnist")
        .input("image", &x)
        .input("label", &y)
        .input("scale", &scale)
        .parameters(&model.parameters())
        .precision(Precision::F32)
        .generate()
        .unwrap();
    let define = |what: &str| -> usize {
        let line = (code.header.lines())
            .find(|l| l.starts_with(&format!("#define MNIST_{what} ")))
            .unwrap_or_else(|| panic!("no MNIST_{what} in the header"));
        line.split_whitespace().nth(2).unwrap().parse().unwrap()
    };
    let (params, sgd) = (define("PARAMS"), define("SGD_BUFFER_LEN"));
    assert_eq!(params, 25_450);
    assert!(
        10 * sgd <= 11 * 2 * params,
        "{sgd} numbers for SGD, {params} parameters"
    );
}

// The tables of where an input group's numbers go were named after the group
// (`input_spans_forward`, `spans_forward`): the model "input_spans" (or "spans") with a
// group "forward" defined its function NAME_forward twice. They are numbered now.
#[test]
fn a_name_and_group_that_spell_a_table_of_the_c_compile() {
    // tanh(x0 + w0) + tanh(x1 + w1) + ...: the inputs are every other leaf of the tape,
    // and named in reverse, six spans (a table) in the training C and in the inference C
    let x: Vec<Value> = (0..6).map(|_| Value::new(0.0)).collect();
    let w: Vec<Value> = (0..6).map(|i| Value::new(i as f64)).collect();
    let y: Value = x.iter().zip(&w).map(|(x, w)| (x + w).tanh()).sum();
    let tape = Tape::compile(&y).unwrap();
    let gcc = [&["-std=c99"], STRICT].concat();
    for (name, inference) in [("input_spans", false), ("spans", true)] {
        let reversed: Vec<Value> = x.iter().rev().cloned().collect();
        let gen = CodeGen::new(&tape, name).input("forward", &reversed);
        let code = match inference {
            true => gen.inference().generate().unwrap(),
            false => gen.generate().unwrap(),
        };
        assert!(code.source.contains("spans_0["), "{}", code.source);
        let [_, source] = code.write_to(&folder(name)).unwrap();
        compile("gcc", &gcc, &source);
    }
}

// Training C refuses a parameter that needs no gradient (it cannot train it); inference
// C trains nothing, so a model whose parameters were frozen with no_grad is written.
#[test]
fn inference_takes_frozen_parameters() {
    let model = MLP::new(2, &[3, 1], &mut PythonRandom::seed(5));
    let x: Vec<Value> = (0..2).map(|_| Value::new(0.0)).collect();
    let y = model.forward(&x).unwrap().remove(0);
    let params: Vec<Value> = model.parameters().into_iter().map(Value::no_grad).collect();
    let tape = Tape::compile(&y).unwrap();
    let gen = CodeGen::new(&tape, "frozen")
        .input("x", &x)
        .parameters(&params);
    assert!(gen.clone().generate().is_err());
    let code = gen.inference().generate().unwrap();
    assert!(
        code.header.contains("#define FROZEN_WEIGHTS 14 "),
        "{}",
        code.header
    );
}

// A math function of a weight alone (a learned scale's tanh, say): the weights are
// constants of the inference C, and a compiler that works such a call out itself, with
// its own rounding, would differ from libm's, the tape's, by an ulp. Compiled with
// C_FLAGS, which keep it a call, the C gives the tape's bits.
#[test]
fn inference_c_calls_libm_on_a_weight_as_the_tape_does() {
    // (Numbers where glibc's tanh and log1p are not correctly rounded.)
    let w = Value::new(0.3676740254321924);
    let x = Value::new(0.0);
    let y = &(&w.tanh() + &w.log1p()) + &(&w.exp() * &x);
    let mut tape = Tape::compile_outputs(std::slice::from_ref(&y)).unwrap();
    let samples = vec![vec![0.5], vec![-1.25]];
    let want = tape_outputs(&mut tape, std::slice::from_ref(&x), &samples);
    let gen = CodeGen::new(&tape, "scale").input("x", &[x]);
    let c = run_on_host(&gen.inference().generate().unwrap(), "x", &samples);
    let bits = |v: &[Vec<f64>]| v.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&c), bits(&want), "{c:?} (C) vs {want:?} (tape)");
}

//! Lesson 32: a compiled tape written out as C (`micrograd::codegen`) computes the tape's
//! numbers bit for bit: every op, random network-shaped graphs, and ten steps of
//! micrograd's demo, loss by loss. The C is compiled here with the system's `cc` (and
//! `g++`), run with a small driver, and its numbers read back as the bits of each
//! `double` in hex (`f64::to_bits`): exact comparisons, no tolerance.
//!
//! Python has no counterpart: micrograd's graph lives only in Python.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use micrograd::codegen::{CCode, CodeGen, Precision, C_FLAGS};
use micrograd::data::moons100;
use micrograd::loss::{l2, svm_hinge};
use micrograd::optim::Schedule;
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;

/// A driver for the generated C: reads commands on stdin and prints numbers as the hex
/// bits of `double`s. `i` then the inputs (every group in order): set them; `f`: forward,
/// print the root and the outputs; `b`: backward, print the parameters' gradients;
/// `z`: zero_grad; `s lr`: sgd; `a lr beta1 beta2 eps`: adam; `p`: print the parameters.
fn driver(name: &str, groups: &[&str]) -> String {
    let up = name.to_uppercase();
    let arrays: String = groups
        .iter()
        .map(|g| {
            format!(
                "static {name}_real in_{g}[{up}_{}_LEN + 1];\n",
                g.to_uppercase()
            )
        })
        .collect();
    let sets: String = groups
        .iter()
        .map(|g| {
            format!(
                "for (k = 0; k < {up}_{G}_LEN; k++) in_{g}[k] = ({name}_real)get(); {name}_set_{g}(buf, in_{g});\n",
                G = g.to_uppercase()
            )
        })
        .collect();
    format!(
        r#"#include <stdio.h>
#include <string.h>
#include "{name}.h"
static {name}_real buf[{up}_BUFFER_LEN];
static {name}_real params[{up}_PARAMS + 1], outs[{up}_OUTPUTS + 1];
{arrays}
static double get(void) {{
    unsigned long long u = 0; double x;
    if (scanf("%llx", &u) != 1) return 0.0;
    memcpy(&x, &u, sizeof x); return x;
}}
static void put(double x) {{ unsigned long long u; memcpy(&u, &x, sizeof u); printf(" %llx", u); }}
int main(void) {{
    char op; int k;
    {name}_init(buf);
    while (scanf(" %c", &op) == 1) {{
        switch (op) {{
        case 'i': {sets} break;
        case 'f': put({name}_forward(buf)); {name}_outputs(buf, outs);
            for (k = 0; k < {up}_OUTPUTS; k++) put(outs[k]);
            printf("\n"); break;
        case 'b': {name}_backward(buf); {name}_get_grads(buf, params);
            for (k = 0; k < {up}_PARAMS; k++) put(params[k]);
            printf("\n"); break;
        case 'z': {name}_zero_grad(buf); break;
        case 's': {{ double lr = get(); {name}_sgd(buf, ({name}_real)lr); }} break;
        case 'a': {{ double lr = get(), b1 = get(), b2 = get(), eps = get();
            {name}_adam(buf, ({name}_real)lr, ({name}_real)b1, ({name}_real)b2, ({name}_real)eps); }} break;
        case 'p': {name}_get_params(buf, params);
            for (k = 0; k < {up}_PARAMS; k++) put(params[k]);
            printf("\n"); break;
        default: return 1;
        }}
    }}
    return 0;
}}
"#
    )
}

/// Writes `code` and its driver into a fresh folder and compiles them with `compiler`
/// (and `flags`); returns the program. Panics with the compiler's messages if it fails.
fn build(code: &CCode, groups: &[&str], compiler: &str, flags: &[&str]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "32_generated_c_matches_the_tape-{}-{compiler}",
        code.name
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let [_, source] = code.write_to(&dir).unwrap();
    let main = dir.join("main.c");
    std::fs::write(&main, driver(&code.name, groups)).unwrap();
    let exe = dir.join(&code.name);
    let out = Command::new(compiler)
        .args(flags)
        .arg(&source)
        .arg(&main)
        .arg("-o")
        .arg(&exe)
        .arg("-lm")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {compiler}: {e}; install a C compiler (gcc)"));
    assert!(
        out.status.success(),
        "{compiler} failed on {}:\n{}",
        source.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// Runs the driver `exe` on `script`; returns the printed lines as numbers.
fn run(exe: &PathBuf, script: &str) -> Vec<Vec<f64>> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "the driver failed on {script:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            l.split_whitespace()
                .map(|h| f64::from_bits(u64::from_str_radix(h, 16).unwrap()))
                .collect()
        })
        .collect()
}

/// Numbers as the driver reads them.
fn hex(xs: &[f64]) -> String {
    xs.iter().map(|x| format!(" {:x}", x.to_bits())).collect()
}

/// Bits equal (any NaN equals any NaN: its payload is not part of the promise).
fn same(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
}

/// A graph written as C, with a script for the driver and what the tape computed for it.
struct Case {
    code: CCode,
    groups: Vec<String>,
    samples: Vec<Vec<f64>>,
    script: String,
    /// Per sample: the root and outputs, and the parameters' gradients where the tape's
    /// forward and backward succeed.
    want: Vec<(Vec<f64>, Option<Vec<f64>>)>,
}

/// Compiles `loss` (with `outputs`) on a tape, writes it as C with the input groups
/// `inputs`, and runs the tape on each sample (the inputs' numbers, groups in order):
/// the [`Case`] that [`c_equals_tape`] checks.
fn case(
    name: &str,
    loss: &Value,
    outputs: &[Value],
    inputs: &[(&str, &[Value])],
    params: &[Value],
    samples: &[Vec<f64>],
) -> Case {
    let mut tape = Tape::compile_with_outputs(loss, outputs).unwrap();
    let mut gen = CodeGen::new(&tape, name).parameters(params);
    for (g, leaves) in inputs {
        gen = gen.input(g, leaves);
    }
    let code = gen.generate().unwrap();
    let leaves: Vec<&Value> = inputs.iter().flat_map(|(_, l)| l.iter()).collect();
    let (mut script, mut want) = (String::new(), Vec::new());
    for sample in samples {
        script += &format!("i{}\nf\nb\nz\n", hex(sample));
        for (leaf, &x) in leaves.iter().zip(sample) {
            leaf.set_data(x);
        }
        let forward = tape.forward();
        let mut values = vec![tape.value()];
        values.extend(tape.outputs());
        for p in params {
            p.zero_grad();
        }
        let backward = forward.is_ok() && tape.backward().is_ok();
        let grads: Vec<f64> = params.iter().map(Value::grad).collect();
        want.push((values, backward.then_some(grads)));
    }
    let groups = inputs.iter().map(|(g, _)| g.to_string()).collect();
    Case {
        code,
        groups,
        samples: samples.to_vec(),
        script,
        want,
    }
}

/// Compiles each case's C, runs it, and compares its root, outputs and parameter
/// gradients with the tape's, bit for bit (two compilers at a time).
fn c_equals_tape(cases: Vec<Case>) {
    let check = |case: &Case| {
        let groups: Vec<&str> = case.groups.iter().map(String::as_str).collect();
        let got = run(&build(&case.code, &groups, "cc", C_FLAGS), &case.script);
        let name = &case.code.name;
        for (i, (values, grads)) in case.want.iter().enumerate() {
            let (c_values, c_grads, sample) = (&got[2 * i], &got[2 * i + 1], &case.samples[i]);
            assert!(
                same(values, c_values),
                "{name}, sample {sample:?}: values {values:?} (tape) vs {c_values:?} (C)"
            );
            if let Some(grads) = grads {
                assert!(
                    same(grads, c_grads),
                    "{name}, sample {sample:?}: gradients {grads:?} (tape) vs {c_grads:?} (C)"
                );
            }
        }
    };
    let (odd, even): (Vec<_>, Vec<_>) = cases.iter().enumerate().partition(|(i, _)| i % 2 == 1);
    std::thread::scope(|s| {
        let other = s.spawn(|| odd.iter().for_each(|(_, c)| check(c)));
        even.iter().for_each(|(_, c)| check(c));
        other.join().unwrap();
    });
}

/// Inputs at which to try every op: signs, zeros, the edges of the ops' domains.
const XS: [f64; 12] = [
    -2.5, -1.0, -0.0, 0.0, 1e-20, 0.3, 1.0, 2.0, 7.5, 40.0, 800.0, -800.0,
];

#[test]
fn every_op_computes_the_tapes_numbers_bit_for_bit() {
    type Unary = fn(&Value) -> Value;
    let unary: [(&str, Unary); 24] = [
        ("relu", Value::relu),
        ("leaky_relu", |v| v.leaky_relu(0.1)),
        ("tanh", Value::tanh),
        ("sigmoid", Value::sigmoid),
        ("exp", Value::exp),
        ("ln", Value::ln),
        ("log1p", Value::log1p),
        ("sqrt", Value::sqrt),
        ("abs", Value::abs),
        ("softplus", Value::softplus),
        ("sin", Value::sin),
        ("cos", Value::cos),
        ("atan", Value::atan),
        ("neg", |v| -v),
        ("powf3", |v| v.powf(3.0)),
        ("powf_half", |v| v.powf(0.5)),
        ("powf_m1", |v| v.powf(-1.0)),
        ("powf0", |v| v.powf(0.0)),
        ("powi3", |v| v.powi(3)),
        ("powi_m2", |v| v.powi(-2)),
        ("powi0", |v| v.powi(0)),
        ("powi_min", |v| v.powi(i32::MIN)),
        ("clamp", |v| v.clamp(-1.0, 1.5)),
        ("sum_of_one", |v| std::iter::once(v.clone()).sum()),
    ];
    type Binary = fn(&Value, &Value) -> Value;
    let binary: [(&str, Binary); 8] = [
        ("add", |a, b| a + b),
        ("sub", |a, b| a - b),
        ("mul", |a, b| a * b),
        ("div", |a, b| a / b),
        ("pow", Value::pow),
        ("pow0", |a, b| a.pow(&(b - b))),
        ("max", Value::max),
        ("min", Value::min),
    ];
    let samples: Vec<Vec<f64>> = XS.iter().map(|&x| vec![x]).collect();
    let mut cases = Vec::new();
    for (name, op) in unary {
        // op(p * x) * q: the op's value and both halves of its rule reach p and q.
        let (x, p, q) = (Value::new(0.0), Value::new(0.7), Value::new(-1.3));
        let y = op(&(&p * &x));
        let loss = &y * &q;
        cases.push(case(name, &loss, &[y], &[("x", &[x])], &[p, q], &samples));
    }
    for (name, op) in binary {
        let (x, p, q) = (Value::new(0.0), Value::new(0.7), Value::new(-1.3));
        let y = op(&(&p * &x), &(&q + &x));
        let loss = &y * &y;
        cases.push(case(name, &loss, &[y], &[("x", &[x])], &[p, q], &samples));
    }
    c_equals_tape(cases);
}

// a / b where b² is no double (1e-400, 1e400): d/db = -(a/b)/b is an ordinary number
// there, in the C as on the tape (not -a/(b*b), which gives -inf, NaN or -0).
#[test]
fn a_quotient_whose_divisor_squared_is_no_double_has_the_tapes_gradients() {
    let (xa, xb) = (Value::new(1.0), Value::new(1.0));
    let (p, q) = (Value::new(1.0), Value::new(1.0));
    let y = (&p * &xa) / (&q * &xb);
    let samples = [
        vec![1e-200, 1e-200],
        vec![0.0, 1e-200],
        vec![1e200, 1e200],
        vec![-3e-170, 2e-170],
    ];
    let div = case(
        "div_edges",
        &y,
        &[],
        &[("x", &[xa, xb])],
        &[p, q.clone()],
        &samples,
    );
    // (q's gradient is -(a/b)/b · x_b: -1 at the first sample, where -a/(b*b) gave -inf.)
    assert_eq!(div.want[0].1.as_ref().map(|g| g[1]), Some(-1.0));
    c_equals_tape(vec![div]);
}

#[test]
fn sums_and_their_fused_activations_add_up_as_the_tape_does() {
    // A neuron, `act(b + w0 x0 + w1 x1 + w2 x2)`: one sum of fused products.
    type Act = fn(&Value) -> Value;
    let acts: [(&str, Act); 5] = [
        ("linear", Value::clone),
        ("relu", Value::relu),
        ("tanh", Value::tanh),
        ("sigmoid", Value::sigmoid),
        ("exp", Value::exp),
    ];
    let mut cases = Vec::new();
    for (name, act) in acts {
        let x: Vec<Value> = (0..3).map(|_| Value::new(0.0)).collect();
        let w: Vec<Value> = [0.3, -0.6, 0.9].map(Value::new).to_vec();
        let b = Value::new(0.1);
        let sum: Value = std::iter::once(b.clone())
            .chain(w.iter().zip(&x).map(|(w, x)| w * x))
            .sum();
        let loss = act(&sum) * 2.0;
        let params: Vec<Value> = w.iter().cloned().chain([b]).collect();
        let samples: Vec<Vec<f64>> = XS.windows(3).map(|s| s.to_vec()).collect();
        cases.push(case(
            &format!("neuron_{name}"),
            &loss,
            &[],
            &[("x", &x)],
            &params,
            &samples,
        ));
    }
    c_equals_tape(cases);
}

#[path = "common/rng.rs"]
mod rng;
use rng::Rng;

/// A random op of `a` (and `b`): every op of the engine; `ln`, `sqrt`, `powf` and
/// `pow` on `1 + a²`, where they are defined.
fn random_op(rng: &mut Rng, a: &Value, b: &Value) -> Value {
    let positive = |v: &Value| v * v + 1.0;
    match rng.int(0, 24) {
        0 => a.relu(),
        1 => a.leaky_relu(0.05),
        2 => a.tanh(),
        3 => a.sigmoid(),
        4 => (a * 0.1).exp(),
        5 => positive(a).ln(),
        6 => positive(a).sqrt(),
        7 => a.abs(),
        8 => a.softplus(),
        9 => a.sin(),
        10 => a.cos(),
        11 => positive(a).powf(-0.5),
        12 => a.powi(3),
        13 => a.clamp(-0.5, 0.5),
        14 => a.log1p(),
        15 => -a,
        16 => a + b,
        17 => a - b,
        18 => a * b,
        19 => a / &positive(b),
        20 => positive(a).pow(&(b * 0.1)),
        21 => a.max(b),
        22 => a.min(b),
        _ => [a.clone(), b.clone(), a * b].into_iter().sum(),
    }
}

/// A random network-shaped graph: a batch of samples through layers of neurons (some
/// wide enough for the tape's layers of 16), random activations and mixing ops, each
/// sample's score an output, an L2 term now and then. Returns the loss, the outputs,
/// the inputs and the parameters.
fn random_graph(rng: &mut Rng) -> (Value, Vec<Value>, Vec<Value>, Vec<Value>) {
    let (batch, nin) = (rng.int(1, 4), rng.int(1, 3));
    let inputs: Vec<Value> = (0..batch * nin).map(|_| Value::new(0.0)).collect();
    let mut params = Vec::new();
    let mut rows: Vec<Vec<Value>> = inputs.chunks(nin).map(<[Value]>::to_vec).collect();
    for _ in 0..rng.int(1, 2) {
        // Half of the layers 16 wide or more: the tape computes those as layers.
        let width = if rng.int(0, 1) == 0 {
            rng.int(16, 20)
        } else {
            rng.int(1, 15)
        };
        let neurons: Vec<(Value, Vec<Value>)> = (0..width)
            .map(|_| {
                (
                    Value::new(rng.unit()),
                    (0..rows[0].len()).map(|_| Value::new(rng.unit())).collect(),
                )
            })
            .collect();
        params.extend(
            neurons
                .iter()
                .flat_map(|(b, w)| std::iter::once(b.clone()).chain(w.iter().cloned())),
        );
        let activation = rng.int(0, if width >= 16 { 2 } else { 3 });
        for row in &mut rows {
            let mut out: Vec<Value> = neurons
                .iter()
                .map(|(b, w)| {
                    let sum: Value = std::iter::once(b.clone())
                        .chain(w.iter().zip(row.iter()).map(|(w, x)| w * x))
                        .sum();
                    match activation {
                        0 => sum.relu(),
                        1 => sum.tanh(),
                        2 => sum,
                        _ => random_op(rng, &sum, &sum),
                    }
                })
                .collect();
            let (i, j) = (rng.int(0, out.len() - 1), rng.int(0, out.len() - 1));
            let mixed = random_op(rng, &out[i], &out[j]);
            out.push(mixed);
            *row = out;
        }
    }
    let scores: Vec<Value> = rows.into_iter().map(|row| row.into_iter().sum()).collect();
    let mut loss: Value = scores.iter().map(|s| random_op(rng, s, s)).sum();
    if rng.int(0, 1) == 1 {
        loss += params.iter().map(|p| p * p).sum::<Value>() * 1e-3;
    }
    (&loss * &loss, scores, inputs, params)
}

#[test]
fn random_graphs_compute_the_tapes_numbers_bit_for_bit() {
    let mut cases = Vec::new();
    for seed in 1..=12u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let (loss, outputs, inputs, params) = random_graph(&mut rng);
        let samples: Vec<Vec<f64>> = (0..4)
            .map(|_| inputs.iter().map(|_| 2.0 * rng.unit()).collect())
            .collect();
        cases.push(case(
            &format!("random{seed}"),
            &loss,
            &outputs,
            &[("x", &inputs)],
            &params,
            &samples,
        ));
    }
    // (Some of them with the tape's layers, which the C computes with `layer16`.)
    let layered = cases
        .iter()
        .filter(|c| c.code.source.contains("layer16(d"))
        .count();
    assert!(layered >= 2, "only {layered} random graphs have layers");
    c_equals_tape(cases);
}

/// The notebook's loss: `svm_hinge` of the scores plus `l2` with alpha = 1e-4.
fn notebook_loss(model: &MLP) -> Result<Value, Error> {
    let data = moons100();
    let mut scores = Vec::with_capacity(data.len());
    for x in &data.inputs {
        scores.push(model.forward_f64(x)?.remove(0));
    }
    Ok(svm_hinge(&scores, &data.labels)? + l2(&model.parameters(), 1e-4))
}

// Python (the notebook's training loop), ten steps, on the tape and in C:
//   for k in range(10):
//       total_loss, acc = loss()
//       model.zero_grad(); total_loss.backward()
//       learning_rate = 1.0 - 0.9*k/100
//       for p in model.parameters(): p.data -= learning_rate * p.grad
#[test]
fn ten_steps_of_the_demo_in_c_give_the_tapes_losses_bit_for_bit() -> Result<(), Error> {
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let mut tape = Tape::compile(&notebook_loss(&model)?)?;
    let code = CodeGen::new(&tape, "moons")
        .parameters(&model.parameters())
        .generate()?;
    let exe = build(&code, &[], "cc", C_FLAGS);
    let (mut opt, schedule) = (
        Sgd::new(model.parameters(), 1.0)?,
        Schedule::linear(1.0, 0.1, 100)?,
    );
    let (mut script, mut losses) = (String::new(), Vec::new());
    for k in 0..10 {
        losses.push(tape.forward()?);
        opt.zero_grad();
        tape.backward()?;
        schedule.apply(&mut opt, k)?;
        opt.step()?;
        script += &format!("f\nb\ns{}\n", hex(&[opt.learning_rate()]));
    }
    script += "p\n";
    let got = run(&exe, &script);
    for (k, loss) in losses.iter().enumerate() {
        assert_eq!(
            got[2 * k][0].to_bits(),
            loss.to_bits(),
            "step {k}: {} (C) vs {loss} (tape)",
            got[2 * k][0]
        );
    }
    let params: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert!(same(&got[20], &params), "the parameters after ten steps");
    Ok(())
}

// Python: model = MLP(2, [4, 1]); Adam (the Rust's), five steps on one sample.
#[test]
fn adam_in_c_takes_the_rust_optimisers_steps_bit_for_bit() -> Result<(), Error> {
    let model = MLP::new(2, &[4, 1], &mut PythonRandom::seed(7));
    let loss = (model.forward_f64(&[0.5, -1.5])?.remove(0) - 1.0).powi(2);
    let mut tape = Tape::compile(&loss)?;
    let code = CodeGen::new(&tape, "adam")
        .parameters(&model.parameters())
        .generate()?;
    let exe = build(&code, &[], "cc", C_FLAGS);
    let mut opt = Adam::new(model.parameters(), 0.05)?;
    let mut script = String::new();
    for _ in 0..5 {
        tape.forward()?;
        opt.zero_grad();
        tape.backward()?;
        opt.step()?;
        script += &format!("f\nb\na{}\n", hex(&[0.05, 0.9, 0.999, 1e-8]));
    }
    let got = run(&exe, &(script + "p\n"));
    let params: Vec<f64> = model.parameters().iter().map(Value::data).collect();
    assert!(
        same(&got[10], &params),
        "{:?} (C) vs {params:?} (Rust)",
        got[10]
    );
    Ok(())
}

#[test]
fn the_c_compiles_as_cpp_too() {
    let (x, w) = (Value::new(0.5), Value::new(-0.25));
    // (A label that would end or nest a C comment stays inside it.)
    let loss = ((&w * &x).sigmoid().with_label("a */ b /* c").powi(2) + w.abs()).with_label("loss");
    let tape = Tape::compile(&loss).unwrap();
    let code = CodeGen::new(&tape, "cpp")
        .input("x", &[x])
        .generate()
        .unwrap();
    // (C_FLAGS, as C++ instead of C99.)
    let c99 = |flag: &&&str| **flag != "-std=c99";
    let flags: Vec<&str> = ["-x", "c++"]
        .into_iter()
        .chain(C_FLAGS.iter().filter(c99).copied())
        .collect();
    let exe = build(&code, &["x"], "g++", &flags);
    let got = run(&exe, &format!("i{}\nf\n", hex(&[2.0])));
    assert_eq!(
        got[0][0],
        ((-0.25f64 * 2.0).sigmoid_for_test()).powi(2) + 0.25
    );
}

/// `sigmoid` as the engine computes it at x < 0: e^x / (1 + e^x).
trait SigmoidForTest {
    fn sigmoid_for_test(self) -> f64;
}

impl SigmoidForTest for f64 {
    fn sigmoid_for_test(self) -> f64 {
        let e = self.exp();
        e / (1.0 + e)
    }
}

#[test]
fn float_c_trains_the_demo_close_to_the_double_tape() -> Result<(), Error> {
    // What `Precision::F32` changes: every number rounded to 24 bits, not 53.
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let mut tape = Tape::compile(&notebook_loss(&model)?)?;
    let code = CodeGen::new(&tape, "moons32")
        .parameters(&model.parameters())
        .precision(Precision::F32)
        .generate()?;
    assert!(code.header.contains("typedef float moons32_real;"));
    let exe = build(&code, &[], "cc", C_FLAGS);
    let mut opt = Sgd::new(model.parameters(), 1.0)?;
    let (mut script, mut losses) = (String::new(), Vec::new());
    for _ in 0..10 {
        losses.push(tape.forward()?);
        opt.zero_grad();
        tape.backward()?;
        opt.step()?;
        script += "f\nb\ns 3ff0000000000000\n";
    }
    let got = run(&exe, &script);
    for (k, loss) in losses.iter().enumerate() {
        let c = got[2 * k][0];
        // float's rounding error (6e-8 relative) grown over ten steps
        assert!(
            (c - loss).abs() < 1e-4 * loss,
            "step {k}: {c} (float C) vs {loss} (tape)"
        );
    }
    Ok(())
}

// The slopes of sqrt and ln at -0.0 are +inf, in the C as in the engine (a gradient the
// tape reports as an error, so the comparisons above, which skip such samples, do not
// see it).
#[test]
fn the_slopes_of_sqrt_and_ln_at_minus_zero_are_plus_infinity_in_c_too() {
    type Op = fn(&Value) -> Value;
    let ops: [(&str, Op, f64); 2] = [
        ("sqrt_m0", Value::sqrt, -0.0), // sqrt(-0.0) is -0.0
        ("ln_m0", Value::ln, f64::NEG_INFINITY),
    ];
    for (name, op, value) in ops {
        let p = Value::new(-0.0);
        let y = op(&p);
        y.backward();
        assert_eq!(p.grad(), f64::INFINITY, "{name}");
        let tape = Tape::compile(&y).unwrap();
        let code = CodeGen::new(&tape, name)
            .parameters(std::slice::from_ref(&p))
            .generate()
            .unwrap();
        let got = run(&build(&code, &[], "cc", C_FLAGS), "f\nb\n");
        assert_eq!(
            (got[0][0].to_bits(), got[1][0]),
            (value.to_bits(), f64::INFINITY),
            "{name}"
        );
    }
}

// pow's d/db is NaN for every negative base, in the C as in the engine: also for one
// whose power underflows to 0, as (-1e-200)² does.
#[test]
fn the_exponents_gradient_at_a_tiny_negative_base_is_nan_in_c_too() {
    let (a, b) = (Value::new(-1e-200), Value::new(2.0));
    let y = a.pow(&b);
    y.backward();
    assert!(b.grad().is_nan());
    let tape = Tape::compile(&y).unwrap();
    let code = CodeGen::new(&tape, "pow_tiny")
        .parameters(&[a, b])
        .generate()
        .unwrap();
    let got = run(&build(&code, &[], "cc", C_FLAGS), "f\nb\n");
    assert_eq!((got[0][0], got[1][0]), (0.0, -2e-200));
    assert!(got[1][1].is_nan(), "d/db = {}", got[1][1]);
}

// A number beyond float's range (3.4e38) is infinite as a float: the float C must say
// HUGE_VALF, not `inff` (which is no C: the file did not compile), whether the number is
// a leaf's value when the C was written or a constant of the graph.
#[test]
fn float_c_compiles_with_numbers_beyond_floats_range() -> Result<(), Error> {
    let (x, w) = (Value::new(1e300), Value::new(0.5));
    let y = &x * &w - &w * 1e39;
    let tape = Tape::compile(&y)?;
    let code = CodeGen::new(&tape, "huge32")
        .input("x", std::slice::from_ref(&x))
        .parameters(std::slice::from_ref(&w))
        .precision(Precision::F32)
        .generate()?;
    assert!(!code.source.contains("inff"), "{}", code.source);
    let exe = build(&code, &["x"], "cc", C_FLAGS);
    let got = run(&exe, &format!("f\ni{}\nf\n", hex(&[2.0])));
    // As floats, x = 1e300 and 1e39 are inf: inf * 0.5 - inf is NaN; then at x = 2,
    // 1 - inf is -inf.
    assert!(got[0][0].is_nan(), "{:?}", got[0]);
    assert_eq!(got[1][0], f64::NEG_INFINITY);
    Ok(())
}

#[test]
fn a_custom_op_cannot_be_written_as_c_and_the_error_names_it() {
    let x = Value::new(1.0);
    let y = Value::custom(
        "softsign",
        &[&x],
        |p| p[0] / (1.0 + p[0].abs()),
        |p, _, d| d[0] = 1.0 / ((1.0 + p[0].abs()) * (1.0 + p[0].abs())),
    )
    .with_label("s");
    let tape = Tape::compile(&(y * 2.0)).unwrap();
    let err = CodeGen::new(&tape, "custom").generate().unwrap_err();
    assert!(
        matches!(err, Error::CannotEmit { ref op, .. } if op == "softsign"),
        "{err}"
    );
    assert!(err.to_string().contains("(label \"s\")"), "{err}");
}

#[test]
fn names_must_be_c_identifiers_and_leaves_named_once() {
    let (x, w) = (Value::new(0.5), Value::new(-0.25));
    let tape = Tape::compile(&(&w * &x)).unwrap();
    let bad_name = CodeGen::new(&tape, "my-model").generate().unwrap_err();
    assert!(
        bad_name.to_string().contains("not a C identifier"),
        "{bad_name}"
    );
    let twice = CodeGen::new(&tape, "m")
        .input("x", std::slice::from_ref(&x))
        .parameters(&[x.clone(), w.clone()])
        .generate()
        .unwrap_err();
    assert!(
        twice
            .to_string()
            .contains("both input x[0] and parameter 0"),
        "{twice}"
    );
    let frozen = Value::new(1.0).no_grad();
    let tape2 = Tape::compile(&(&w * &frozen)).unwrap();
    let err = CodeGen::new(&tape2, "m")
        .parameters(&[w.clone(), frozen])
        .generate()
        .unwrap_err();
    assert!(
        err.to_string().contains("parameter 1 needs no gradient"),
        "{err}"
    );
    let stranger = CodeGen::new(&tape, "m")
        .input("x", &[x.exp()])
        .generate()
        .unwrap_err();
    assert!(matches!(stranger, Error::NotOnTape { .. }), "{stranger}");
}

#[test]
fn the_code_grows_with_the_instructions_not_with_the_nodes() -> Result<(), Error> {
    // MLP(n, [16, 2]) for n = 10 and n = 1000: 100 times the nodes, the same instructions
    // (a layer of 16 sums, two sums, their runs), so the same code; only the table of
    // initial values grows.
    let code_lines = |n: usize| -> Result<usize, Error> {
        let model = MLP::new(n, &[16, 2], &mut PythonRandom::seed(1));
        let x: Vec<Value> = (0..n).map(|_| Value::new(0.0)).collect();
        let loss: Value = model.forward(&x)?.iter().map(|z| z * z).sum();
        let tape = Tape::compile(&loss)?;
        let code = CodeGen::new(&tape, "mlp").input("x", &x).generate()?;
        let source = &code.source;
        Ok(source[..source.find("static const real initial").unwrap()]
            .lines()
            .count())
    };
    assert_eq!(code_lines(10)?, code_lines(1000)?);
    assert!(code_lines(1000)? < 450);
    Ok(())
}

// The header and the source name the functions alike, whatever the case of the name:
// "MyNet" gives MyNet_forward in both (the source said mynet_forward: undefined at
// link time).
#[test]
fn a_name_with_capitals_links() {
    let (x, w) = (Value::new(0.5), Value::new(-0.25));
    let tape = Tape::compile(&(&w * &x)).unwrap();
    let code = CodeGen::new(&tape, "MyNet")
        .input("x", std::slice::from_ref(&x))
        .generate()
        .unwrap();
    let got = run(
        &build(&code, &["x"], "cc", C_FLAGS),
        &format!("i{}\nf\n", hex(&[2.0])),
    );
    assert_eq!(got[0][0], -0.5);
}

// Names the C cannot take are refused, the error saying which names work: "_" gave
// `typedef double __real;` (reserved), "dot" and "layer16" functions named as the C's
// own static functions, an input group "params" a second `NAME_set_params`.
#[test]
fn names_the_c_cannot_take_are_refused_with_the_names_that_work() {
    let (x, w) = (Value::new(0.5), Value::new(-0.25));
    let tape = Tape::compile(&(&w * &x)).unwrap();
    for name in [
        "_", "_x", "x_", "a__b", "dot", "layer16", "9lives", "my-net", "",
    ] {
        let err = CodeGen::new(&tape, name).generate().unwrap_err();
        assert!(matches!(err, Error::InvalidInput(_)), "{name:?}: {err}");
        assert!(err.to_string().contains("single `_`"), "{name:?}: {err}");
    }
    for name in ["dots", "layer", "layer16x", "MyNet", "iris_2", "x"] {
        assert!(CodeGen::new(&tape, name).generate().is_ok(), "{name:?}");
    }
    let err = CodeGen::new(&tape, "m")
        .input("params", std::slice::from_ref(&x))
        .generate()
        .unwrap_err();
    assert!(err.to_string().contains("NAME_set_params"), "{err}");
}

#[test]
fn write_to_creates_its_folder() {
    let x = Value::new(0.5);
    let code = CodeGen::new(&Tape::compile(&(&x * 2.0)).unwrap(), "twice")
        .generate()
        .unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("32_codegen-new/a/b");
    std::fs::remove_dir_all(dir.parent().unwrap().parent().unwrap()).ok();
    let [header, source] = code.write_to(&dir).unwrap();
    assert_eq!(std::fs::read_to_string(header).unwrap(), code.header);
    assert_eq!(std::fs::read_to_string(source).unwrap(), code.source);
}

#[test]
fn write_to_that_fails_on_the_source_leaves_the_old_header() {
    let x = Value::new(0.5);
    let code = CodeGen::new(&Tape::compile(&(&x * 2.0)).unwrap(), "twice")
        .generate()
        .unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("32_codegen-half");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(dir.join("twice.c")).unwrap();
    std::fs::write(dir.join("twice.h"), "the old header\n").unwrap();
    let err = code.write_to(&dir).unwrap_err();
    assert!(
        matches!(err, Error::Write { ref path, .. } if path.ends_with("twice.c")),
        "{err:?}"
    );
    let header = std::fs::read_to_string(dir.join("twice.h")).unwrap();
    assert_eq!(header, "the old header\n");
    let mut names: Vec<_> = (std::fs::read_dir(&dir).unwrap())
        .map(|e| e.unwrap().file_name())
        .collect();
    names.sort();
    assert_eq!(names, ["twice.c", "twice.h"]);
}

// x.atan(): the C library's `atan` in double C, `atanf` in float C (Rust's f64::atan
// calls the same libm `atan`, so the double C agrees bit for bit: see the test of every op)
#[test]
fn atan_is_the_c_librarys_atan_or_atanf() -> Result<(), Error> {
    let x = Value::new(0.5);
    let tape = Tape::compile(&x.atan())?;
    for (precision, call) in [(Precision::F64, "= atan("), (Precision::F32, "= atanf(")] {
        let c = CodeGen::new(&tape, "arc")
            .input("x", std::slice::from_ref(&x))
            .precision(precision);
        let source = c.generate()?.source;
        assert!(
            source.contains(call),
            "{precision:?}: no {call} in\n{source}"
        );
    }
    Ok(())
}

// two = the 2.0 of y = x * 2.0, read and built on: model = y * two. The parameters by
// default leave out the leaf of an f64 operand, also where another node reads it: x alone.
#[test]
fn the_default_parameters_leave_out_the_leaf_of_an_f64_operand() -> Result<(), Error> {
    let x = Value::new(3.0);
    let y = &x * 2.0;
    let two = y.parents()[1].clone();
    let tape = Tape::compile(&(&y * &two))?;
    let header = CodeGen::new(&tape, "m").generate()?.header;
    assert!(header.contains("#define M_PARAMS 1 "), "{header}");
    Ok(())
}

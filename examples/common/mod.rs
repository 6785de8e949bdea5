//! What every example shares: reading flags, and ending with a clear message instead of
//! a panic when something goes wrong (a bad path, a malformed file, a bad flag).
//!
//! Each example includes it with `mod common;`; not every example uses every function.
#![allow(dead_code)]

use std::error::Error;
use std::process::ExitCode;

pub mod c_output;
pub mod classify;
pub mod classify_tape;
pub mod cortex_m4;
pub mod mnist;

// Declared in `cortex_m4.rs`, which lesson 35 includes on its own, so that the file is
// loaded once. (Not every example writes files.)
#[allow(unused_imports)]
pub use cortex_m4::files;

/// The error type of an example's `run()`: any error, shown with its `Display` text.
pub type Result<T = ()> = std::result::Result<T, Box<dyn Error>>;

/// Runs `run`, printing `error: <message>: <its source>: ...` and exiting with status 1
/// if it fails.
pub fn main_with(run: impl FnOnce() -> Result) -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", with_sources(&*e));
            ExitCode::FAILURE
        }
    }
}

/// An error's message followed by those of its sources (e.g. `cannot read x.csv: No such
/// file or directory (os error 2)`), as `anyhow` prints a chain with `{:#}`.
pub fn with_sources(e: &dyn Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text = format!("{text}: {s}");
        source = s.source();
    }
    text
}

/// The command-line flags after the program name.
pub fn args() -> pico_args::Arguments {
    pico_args::Arguments::from_env()
}

/// Fails on any flag the example did not read, naming it and the example's usage.
pub fn finish(args: pico_args::Arguments, usage: &str) -> Result {
    let rest = args.finish();
    if rest.is_empty() {
        Ok(())
    } else {
        Err(format!("unexpected argument {:?}\nusage: {usage}", rest[0]).into())
    }
}

/// Prints one line of training progress as micrograd's `demo.ipynb` does:
/// `step 0 loss 0.8958441028683222, accuracy 50.0%`. `{:?}` prints an `f64` as Python's
/// `repr` does (`50.0`, not `50`), so the numbers compare with Python's text directly.
/// `accuracy` is a fraction (0.5 prints as `50.0%`), or `None` where it does not apply.
pub fn print_step(step: usize, loss: f64, accuracy: Option<f64>) {
    match accuracy {
        Some(a) => println!("step {step} loss {loss:?}, accuracy {:?}%", percent(a)),
        None => println!("step {step} loss {loss:?}"),
    }
}

/// Prints the one summary line every training example ends with:
/// `final step=99 loss=0.010978370135492717 accuracy=100.0%` (`step` is the last step's
/// index; the loss and accuracy are those that step printed).
pub fn print_final(step: usize, loss: f64, accuracy: Option<f64>) {
    match accuracy {
        Some(a) => println!("final step={step} loss={loss:?} accuracy={:?}%", percent(a)),
        None => println!("final step={step} loss={loss:?}"),
    }
}

/// A fraction as a percentage rounded to 0.01: 0.939 is `93.9`, not `93.89999999999999`
/// (`0.939 * 100.0`). A whole percentage, as every one of the demo's, is unchanged.
pub fn percent(fraction: f64) -> f64 {
    (fraction * 10_000.0).round() / 100.0
}

/// The value of `--steps` (or `default`), which must be at least 1 so that there is a
/// last step to report.
pub fn steps(args: &mut pico_args::Arguments, default: usize) -> Result<usize> {
    let steps = number(args, "--steps")?.unwrap_or(default);
    if steps == 0 {
        return Err("--steps must be at least 1".into());
    }
    Ok(steps)
}

/// How many threads this machine runs at once (`std::thread::available_parallelism`;
/// 1 if it cannot tell): the default of `--threads`.
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Which engine trains the model: the graph built anew each step (`Value`, as in
/// Python), or one graph compiled once into a [`micrograd::tape::Tape`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// `--engine dynamic`
    Dynamic,
    /// `--engine tape`
    Tape,
}

impl Engine {
    /// How many threads train with `--threads n`, in words: the tape runs a batch on
    /// `n`, the dynamic graph on one.
    pub fn threads(self, n: usize) -> String {
        match self {
            Engine::Tape => format!("{n} thread(s)"),
            Engine::Dynamic => "1 thread".to_owned(),
        }
    }
}

/// The value of `--engine dynamic|tape` (or `default`).
pub fn engine(args: &mut pico_args::Arguments, default: Engine) -> Result<Engine> {
    match args.opt_value_from_str::<_, String>("--engine")?.as_deref() {
        None => Ok(default),
        Some("dynamic") => Ok(Engine::Dynamic),
        Some("tape") => Ok(Engine::Tape),
        Some(other) => Err(format!("--engine {other:?}: expected dynamic or tape").into()),
    }
}

/// The command-line flags, or `None` after printing `usage` if `-h` or `--help` was given
/// (the example then has nothing more to do).
pub fn flags_or_help(usage: &str) -> Option<pico_args::Arguments> {
    let mut args = args();
    if args.contains(["-h", "--help"]) {
        println!("usage: {usage}");
        return None;
    }
    Some(args)
}

/// The model's outputs for each row of plain numbers: Python's `[model(x) for x in xs]`
/// for a model with one output.
pub fn predict<X: AsRef<[f64]>>(
    model: &micrograd::nn::MLP,
    xs: &[X],
) -> std::result::Result<Vec<micrograd::Value>, micrograd::Error> {
    let mut outputs = Vec::with_capacity(xs.len());
    for x in xs {
        outputs.push(model.forward_f64(x.as_ref())?[0].clone());
    }
    Ok(outputs)
}

/// The lecture's four training inputs (Zero to Hero, micrograd lecture):
/// `xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]`.
pub const LECTURE_XS: [[f64; 3]; 4] = [
    [2.0, 3.0, -1.0],
    [3.0, -1.0, 0.5],
    [0.5, 1.0, 1.0],
    [1.0, 1.0, -1.0],
];

/// The lecture's targets: `ys = [1.0, -1.0, -1.0, 1.0] # desired targets`.
pub const LECTURE_YS: [f64; 4] = [1.0, -1.0, -1.0, 1.0];

/// The value of the flag `name` as a number (`None` if the flag is absent); an error
/// names the flag when the value does not parse.
pub fn number<T>(args: &mut pico_args::Arguments, name: &'static str) -> Result<Option<T>>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let Some(text) = args.opt_value_from_str::<_, String>(name)? else {
        return Ok(None);
    };
    match text.parse() {
        Ok(value) => Ok(Some(value)),
        Err(e) => Err(format!("{name} {text:?}: not a valid number ({e})").into()),
    }
}

/// The value of the flag `name` as a path (`None` if the flag is absent). An empty
/// value, or one that starts with `-`, is an error naming it: that is the next flag,
/// taken as this one's value when this one was given none (`--html --out DIR`). A file
/// whose name starts with `-` is given as `./-NAME`.
pub fn path(
    args: &mut pico_args::Arguments,
    name: &'static str,
) -> Result<Option<std::path::PathBuf>> {
    let value = args.opt_value_from_os_str(name, |v| {
        Ok::<_, std::convert::Infallible>(std::path::PathBuf::from(v))
    })?;
    match value {
        Some(path) if path.as_os_str().is_empty() => {
            Err(format!("{name} needs a non-empty path: {name} PATH").into())
        }
        Some(path) if path.to_string_lossy().starts_with('-') => Err(format!(
            "{name} needs a path, not {:?}: {name} PATH (a file whose name starts with `-`: ./{})",
            path,
            path.display()
        )
        .into()),
        value => Ok(value),
    }
}

/// Fails unless `path` can be created: its directory exists. Checked before training,
/// so a mistyped output path does not cost a whole run.
pub fn check_output_path(path: &std::path::Path) -> Result {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() && !dir.is_dir() => Err(format!(
            "cannot write {}: the directory {} does not exist",
            path.display(),
            dir.display()
        )
        .into()),
        _ => Ok(()),
    }
}

/// The value of the number flag `name`, or `default` when it is absent; an error names
/// the flag and what it must be (`expected`) when the value does not parse or `ok`
/// rejects it: `--epochs 0: must be at least 1`.
pub fn checked_number<T>(
    args: &mut pico_args::Arguments,
    name: &'static str,
    default: T,
    expected: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T>
where
    T: std::str::FromStr + std::fmt::Display,
    T::Err: std::fmt::Display,
{
    Ok(opt_checked_number(args, name, expected, ok)?.unwrap_or(default))
}

/// As [`checked_number`], but `None` when the flag is absent.
pub fn opt_checked_number<T>(
    args: &mut pico_args::Arguments,
    name: &'static str,
    expected: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<Option<T>>
where
    T: std::str::FromStr + std::fmt::Display,
    T::Err: std::fmt::Display,
{
    match number::<T>(args, name)? {
        Some(value) if !ok(&value) => Err(format!("{name} {value}: must be {expected}").into()),
        value => Ok(value),
    }
}

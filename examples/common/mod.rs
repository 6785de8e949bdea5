//! What every example shares: reading flags, and ending with a clear message instead of
//! a panic when something goes wrong (a bad path, a malformed file, a bad flag).
//!
//! Each example includes it with `mod common;`; not every example uses every helper.
#![allow(dead_code)]

use std::error::Error;
use std::process::ExitCode;

/// The error type of an example's `run()`: any error, shown with its `Display` text.
pub type Result<T = ()> = std::result::Result<T, Box<dyn Error>>;

/// Runs `run`, printing `error: <message>` and exiting with status 1 if it fails.
pub fn main_with(run: impl FnOnce() -> Result) -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
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

pub mod classify;

/// The value of flag `name` (e.g. `"--epochs"`), or `default` when it is absent.
///
/// Fails with a message naming the flag and what it must be (`expected`) when the value
/// does not parse as a `T` or `ok` rejects it: `--epochs: "abc" is not a whole number >= 1`.
pub fn flag<T: std::str::FromStr>(
    args: &mut pico_args::Arguments,
    name: &'static str,
    default: T,
    expected: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<T> {
    Ok(opt_flag(args, name, expected, ok)?.unwrap_or(default))
}

/// As [`flag`], but `None` when the flag is absent.
pub fn opt_flag<T: std::str::FromStr>(
    args: &mut pico_args::Arguments,
    name: &'static str,
    expected: &str,
    ok: impl Fn(&T) -> bool,
) -> Result<Option<T>> {
    let Some(text) = args.opt_value_from_str::<_, String>(name)? else {
        return Ok(None);
    };
    match text.parse::<T>() {
        Ok(value) if ok(&value) => Ok(Some(value)),
        _ => Err(format!("{name}: {text:?} is not {expected}").into()),
    }
}

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

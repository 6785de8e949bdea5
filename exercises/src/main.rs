//! The exercises' runner: `cargo run -p micrograd-exercises` lists every exercise with
//! ✓ or ✗, in the order of the lecture, then shows the first unfinished one: its
//! instructions, its file, the moment of the lecture it follows, and what its test says.
//! `-- --hint` gives a hint for it (`-- --hint 07` for exercise 07).
//!
//! With `--features solutions` it checks the reference solutions instead of your files.

mod catalog;
mod run;

use std::path::Path;
use std::process::ExitCode;

use catalog::{Exercise, EXERCISES};
use run::Outcome;

const USAGE: &str = "cargo run -p micrograd-exercises [-- --hint [NN]]

  (nothing)     check every exercise, and show the first unfinished one
  --hint        a hint for the first unfinished exercise
  --hint NN     a hint for exercise NN (01, 02, ...)
  -h, --help    print this

One exercise alone: cargo test -p micrograd-exercises --test NN_name";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args.as_slice() {
        [] => check(false),
        ["--hint"] => check(true),
        ["--hint", which] => match find(which) {
            Some(exercise) => {
                print_hint(exercise);
                ExitCode::SUCCESS
            }
            None => {
                eprintln!(
                    "error: no exercise {which:?}; they are numbered 01 to {:02}",
                    EXERCISES.len()
                );
                ExitCode::FAILURE
            }
        },
        ["-h" | "--help"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("error: unexpected arguments {args:?}\n\nusage: {USAGE}");
            ExitCode::FAILURE
        }
    }
}

/// Where the exercises' files are: `yours/`, or `solutions/` with the feature.
fn folder() -> &'static str {
    if cfg!(feature = "solutions") {
        "solutions"
    } else {
        "yours"
    }
}

/// The exercise named `which`: its number (`7`, `07`) or its whole name.
fn find(which: &str) -> Option<&'static Exercise> {
    EXERCISES.iter().find(|e| {
        e.name == which
            || which
                .parse::<usize>()
                .is_ok_and(|n| e.name.split('_').next() == Some(&format!("{n:02}")))
    })
}

/// Checks every exercise, lists them, and shows the first unfinished one (or, with
/// `hint`, only its hint).
fn check(hint: bool) -> ExitCode {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    eprintln!("building the exercises' tests...");
    let build = match run::build(&dir.join("Cargo.toml"), cfg!(feature = "solutions")) {
        Ok(build) => build,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut first = None;
    let mut done = 0;
    if !hint {
        println!(
            "micrograd exercises, in the order of the lecture ({}):\n",
            folder()
        );
    }
    for exercise in EXERCISES {
        let outcome = build.run(exercise.name);
        let passed = matches!(outcome, Outcome::Passed);
        if !hint {
            println!(
                "  {} {:<22} {}",
                if passed { "✓" } else { "✗" },
                exercise.name,
                exercise.title
            );
        }
        match outcome {
            Outcome::Passed => done += 1,
            Outcome::Failed(why) => {
                if first.is_none() {
                    first = Some((exercise, why));
                }
            }
        }
    }
    match (first, hint) {
        (None, _) => {
            println!(
                "\nAll {} exercises pass. Next, the lecture's second half: \
                 cargo run --release --example 08_lecture",
                EXERCISES.len()
            );
        }
        (Some((exercise, _)), true) => print_hint(exercise),
        (Some((exercise, why)), false) => {
            println!(
                "\n{done} of {} done. Next: {} ({})\n",
                EXERCISES.len(),
                exercise.name,
                exercise.title
            );
            print_exercise(dir, exercise, &why);
        }
    }
    ExitCode::SUCCESS
}

/// The instructions, file, lecture moment and failure of one exercise.
fn print_exercise(dir: &Path, exercise: &Exercise, why: &str) {
    let file = format!("{}/{}.rs", folder(), exercise.name);
    println!("  file:     exercises/{file}");
    println!("  lecture:  {}\n", exercise.lecture);
    // The instructions are the file's opening `//!` lines.
    if let Ok(text) = std::fs::read_to_string(dir.join(&file)) {
        for line in text.lines().map_while(|l| l.strip_prefix("//!")) {
            println!("  {}", line.strip_prefix(' ').unwrap_or(line));
        }
    }
    println!("\n  what the test says:\n");
    for line in why.lines() {
        println!("    {line}");
    }
    println!(
        "\n  run it alone:  cargo test -p micrograd-exercises --test {}\n  a hint:        \
         cargo run -p micrograd-exercises -- --hint",
        exercise.name
    );
}

/// One exercise's hint.
fn print_hint(exercise: &Exercise) {
    println!("hint for {} ({}):\n", exercise.name, exercise.title);
    let mut line = String::from(" ");
    for word in exercise.hint.split_whitespace() {
        if line.len() + word.len() > 86 {
            println!("{line}");
            line = String::from(" ");
        }
        line.push(' ');
        line.push_str(word);
    }
    println!("{line}");
}

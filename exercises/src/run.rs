//! Building the exercises' test programs with cargo and running each one: what passed,
//! and what failed said, in the test's own words.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long one exercise's tests may take before the runner gives up on them (an
/// endless loop); the slowest reference solution takes a few seconds in a debug build.
const TIME_LIMIT: Duration = Duration::from_secs(120);

/// What became of one exercise.
pub enum Outcome {
    /// Every test passed.
    Passed,
    /// It did not compile, failed, or crashed: what to show the learner.
    Failed(String),
}

/// What building the test programs gave: for each exercise, its program or its
/// compiler errors.
pub struct Build {
    programs: HashMap<String, PathBuf>,
    errors: HashMap<String, Vec<String>>,
}

/// Builds every exercise's test program (`cargo build --tests --keep-going`, so that
/// one exercise that does not compile leaves the others to run).
pub fn build(manifest: &Path, solutions: bool) -> Result<Build, String> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut command = Command::new(cargo);
    command
        .args(["build", "--tests", "--keep-going", "--message-format=json"])
        .args(["-p", "micrograd-exercises", "--manifest-path"])
        .arg(manifest);
    if solutions {
        command.args(["--features", "solutions"]);
    }
    let output = command
        .stderr(Stdio::piped())
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let mut build = Build {
        programs: HashMap::new(),
        errors: HashMap::new(),
    };
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let target = message["target"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned();
        match message["reason"].as_str() {
            Some("compiler-artifact") => {
                if let Some(exe) = message["executable"].as_str() {
                    build.programs.insert(target, PathBuf::from(exe));
                }
            }
            Some("compiler-message") if message["message"]["level"] == "error" => {
                let rendered = message["message"]["rendered"].as_str().unwrap_or_default();
                // (The test reaches your file as `tests/../yours/NN.rs`.)
                let rendered = rendered.replace("tests/../", "");
                build.errors.entry(target).or_default().push(rendered);
            }
            _ => {}
        }
    }
    if build.programs.is_empty() && build.errors.is_empty() {
        return Err(format!(
            "cargo built no exercise:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(build)
}

impl Build {
    /// Runs the tests of the exercise `name` and says how they went.
    pub fn run(&self, name: &str) -> Outcome {
        if let Some(errors) = self.errors.get(name) {
            let shown: Vec<&str> = errors.iter().take(2).map(|e| e.trim_end()).collect();
            return Outcome::Failed(format!(
                "it does not compile yet (first {} of {} errors):\n\n{}",
                shown.len(),
                errors.len(),
                shown.join("\n\n")
            ));
        }
        let Some(program) = self.programs.get(name) else {
            return Outcome::Failed(format!(
                "cargo built no test program for {name} (is exercises/tests/{name}.rs there?)"
            ));
        };
        match run_program(program) {
            Ok(None) => Outcome::Passed,
            Ok(Some(failure)) => Outcome::Failed(failure),
            Err(e) => Outcome::Failed(e),
        }
    }
}

/// Runs one test program: `None` if every test passed, else the first failure.
fn run_program(program: &Path) -> Result<Option<String>, String> {
    let mut child = Command::new(program)
        .args(["--test-threads=1", "--color=never"])
        .env("RUST_BACKTRACE", "0")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", program.display()))?;
    let read = |pipe: Option<Box<dyn Read + Send>>| {
        thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    };
    let stdout = read(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = read(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Some(format!(
                "the tests did not finish in {} s: is there a loop that never ends?",
                TIME_LIMIT.as_secs()
            )));
        }
        thread::sleep(Duration::from_millis(20));
    };
    let stdout = stdout.join().unwrap_or_default();
    let stderr = stderr.join().unwrap_or_default();
    if status.success() {
        return Ok(None);
    }
    Ok(Some(failure(&stdout, &stderr)))
}

/// The first failing test's message, without the test harness's noise; or what
/// crashed the program.
fn failure(stdout: &str, stderr: &str) -> String {
    if stderr.contains("has overflowed its stack") {
        return "the program ran out of stack: a function that calls itself once per node \
                cannot walk a graph 100,000 nodes deep. Use a loop, with a Vec as your stack."
            .into();
    }
    let mut lines = stdout.lines();
    let Some(test) = lines.find_map(|l| l.strip_prefix("---- ")?.strip_suffix(" stdout ----"))
    else {
        let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        return format!("the test program stopped:\n{}", tail.join("\n"));
    };
    let message: Vec<&str> = lines
        .take_while(|l| !l.starts_with("---- ") && *l != "failures:")
        .filter(|l| !(l.starts_with("thread '") && l.contains(" panicked at ")))
        .filter(|l| !l.starts_with("note: run with `RUST_BACKTRACE"))
        .collect();
    let message = message.join("\n").trim().to_owned();
    let message = if message.contains("not yet implemented") {
        "this part is not written yet (a todo!() is still in it)".to_owned()
    } else {
        message
    };
    format!("{}:\n{message}", test.replace('_', " "))
}

#[cfg(test)]
mod tests {
    use super::failure;

    // libtest's report of a failed assertion, as `cargo test` prints it
    #[test]
    fn failure_keeps_the_first_message_and_drops_the_harness_lines() {
        let stdout = "running 2 tests\ntest a ... FAILED\n\nfailures:\n\n---- a_b stdout ----\n\n\
                      thread 'a_b' (7) panicked at tests/x.rs:3:5:\nd(a*b)/da should be 3\n\
                      note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\
                      ---- c stdout ----\nother\n\nfailures:\n    a_b\n";
        assert_eq!(failure(stdout, ""), "a b:\nd(a*b)/da should be 3");
    }

    #[test]
    fn a_stack_overflow_is_told_in_the_learners_terms() {
        let stderr =
            "\nthread 'deep' has overflowed its stack\nfatal runtime error: stack overflow";
        assert!(failure("", stderr).contains("Use a loop"));
    }
}

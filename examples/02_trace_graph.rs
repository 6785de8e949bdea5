//! Teaches: drawing the expression graph, as micrograd's `trace_graph.ipynb` does:
//! `Value::to_dot()` gives Graphviz DOT (one record `{ data | grad }` per value, one small
//! node per op), and Graphviz's `dot` turns it into an SVG picture.
//!
//! Run: `cargo run --example 02_trace_graph [-- --out DIR]`. It writes `simple.dot` and
//! `neuron.dot` into DIR (default: `micrograd_trace_graph` in the system's temp dir), and
//! `simple.svg` / `neuron.svg` next to them when Graphviz is installed.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use micrograd::Value;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), String> {
    let out_dir = parse_out_dir(std::env::args().skip(1))?;
    std::fs::create_dir_all(&out_dir).map_err(|e| {
        format!(
            "cannot create the output directory {}: {e}; pass a writable directory with --out DIR",
            out_dir.display()
        )
    })?;

    // # a very simple example
    // x = Value(1.0)
    let x = Value::new(1.0).with_label("x");
    // y = (x * 2 + 1).relu()
    let y = (&x * 2.0 + 1.0).relu().with_label("y");
    // y.backward()
    y.backward();
    // draw_dot(y)
    let simple = y.to_dot();
    print!("{simple}");
    let mut svgs = vec![write_dot(&out_dir, "simple", &simple)?];

    // # a simple 2D neuron
    // random.seed(1337)
    // n = nn.Neuron(2)
    // The two weights are what Python's `random.seed(1337)` then `random.uniform(-1, 1)`
    // twice gives (printed by `[w.data for w in n.w]` after `nn.Neuron(2)` in micrograd
    // 0.1.0); the bias starts at 0, as in `Neuron.__init__`.
    let w = [
        Value::new(0.23550571390294128).with_label("w1"),
        Value::new(0.06653114721000164).with_label("w2"),
    ];
    let b = Value::new(0.0).with_label("b");
    // x = [Value(1.0), Value(-2.0)]
    let x = [
        Value::new(1.0).with_label("x1"),
        Value::new(-2.0).with_label("x2"),
    ];
    // y = n(x), where Neuron.__call__ is
    //   act = sum((wi*xi for wi,xi in zip(self.w, x)), self.b); return act.relu()
    let act = (&b + &w[0] * &x[0] + &w[1] * &x[1]).with_label("act");
    let y = act.relu().with_label("y");
    // y.backward()
    y.backward();
    // dot = draw_dot(y); dot.render('gout')
    svgs.push(write_dot(&out_dir, "neuron", &y.to_dot())?);

    render_svgs(&svgs)
}

/// The directory given by `--out DIR` (or `--out=DIR`), else the default.
fn parse_out_dir(mut args: impl Iterator<Item = String>) -> Result<PathBuf, String> {
    let mut out = std::env::temp_dir().join("micrograd_trace_graph");
    while let Some(arg) = args.next() {
        if arg == "--out" {
            out = args
                .next()
                .ok_or("--out needs a directory: --out DIR")?
                .into();
        } else if let Some(dir) = arg.strip_prefix("--out=") {
            out = dir.into();
        } else {
            return Err(format!(
                "unknown argument `{arg}`; usage: 02_trace_graph [--out DIR]"
            ));
        }
    }
    if out.as_os_str().is_empty() {
        return Err("--out needs a non-empty directory".into());
    }
    Ok(out)
}

/// Writes `DIR/NAME.dot` and returns the `(dot, svg)` paths for rendering.
fn write_dot(dir: &Path, name: &str, dot: &str) -> Result<(PathBuf, PathBuf), String> {
    let dot_path = dir.join(format!("{name}.dot"));
    std::fs::write(&dot_path, dot)
        .map_err(|e| format!("cannot write {}: {e}", dot_path.display()))?;
    println!("wrote {}", dot_path.display());
    Ok((dot_path, dir.join(format!("{name}.svg"))))
}

/// Runs `dot -Tsvg IN -o OUT` on each file; without Graphviz, says how to get it.
fn render_svgs(files: &[(PathBuf, PathBuf)]) -> Result<(), String> {
    for (dot_path, svg_path) in files {
        let status = Command::new("dot")
            .arg("-Tsvg")
            .arg(dot_path)
            .arg("-o")
            .arg(svg_path)
            .status();
        match status {
            Ok(s) if s.success() => println!("wrote {}", svg_path.display()),
            Ok(s) => return Err(format!("`dot -Tsvg {}` failed ({s})", dot_path.display())),
            Err(e) if e.kind() == ErrorKind::NotFound => {
                println!(
                    "Graphviz `dot` is not installed, so no .svg was made; install it \
                     (`apt-get install graphviz`, `brew install graphviz`) and run again, \
                     or paste a .dot file into an online Graphviz viewer"
                );
                return Ok(());
            }
            Err(e) => return Err(format!("cannot run Graphviz `dot`: {e}")),
        }
    }
    Ok(())
}

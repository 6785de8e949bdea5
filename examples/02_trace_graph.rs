//! Teaches: drawing the expression graph, as micrograd's `trace_graph.ipynb` does:
//! `Value::to_dot()` gives Graphviz DOT (one record `{ data | grad }` per value, one small
//! node per op), and Graphviz's `dot` turns it into an SVG picture.
//!
//! With `--html PATH` it also writes a web page that steps through the backward pass of
//! the lecture's neuron, `o = tanh(x1*w1 + x2*w2 + b)`, node by node (`Value::to_html`),
//! and prints each labelled value's data and grad after `o.backward()`.
//!
//! Run: `cargo run --example 02_trace_graph [-- --out DIR] [--html PATH]`. It writes
//! `simple.dot` and `neuron.dot` into DIR (default: a new directory
//! `micrograd-02_trace_graph-...` in the system's temp dir; the paths are printed), and
//! `simple.svg` / `neuron.svg` next to them when Graphviz is installed (or when built
//! with `--features layout`, which draws without Graphviz).

mod common;

use std::path::Path;
use std::process::ExitCode;

use common::files;
use micrograd::Value;

fn main() -> ExitCode {
    common::main_with(run)
}

const USAGE: &str = "02_trace_graph [FLAGS]   (defaults in brackets)
  --out DIR      where to write simple.dot, neuron.dot (and their SVGs)
                 [a new directory micrograd-02_trace_graph-... in the system's temp dir]
  --html PATH    also write a page that steps through the neuron's backward pass
                 [none]
  -h, --help     print this and exit";

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    let out = common::path(&mut args, "--out")?;
    let html = common::path(&mut args, "--html")?;
    common::finish(args, USAGE)?;
    if let Some(path) = &html {
        common::check_output_path(path)?;
    }
    let out_dir = match out {
        Some(dir) => {
            std::fs::create_dir_all(&dir).map_err(|e| {
                format!(
                    "cannot create the output directory {}: {e}; pass a writable directory with --out DIR",
                    dir.display()
                )
            })?;
            dir
        }
        None => files::new_temp_dir("02_trace_graph")?,
    };

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
    write_drawing(&out_dir, "simple", &y, &simple)?;

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
    write_drawing(&out_dir, "neuron", &y, &y.to_dot())?;

    if let Some(path) = html {
        write_lecture_stepper(&path)?;
    }
    Ok(())
}

/// The lecture's neuron (micrograd's Zero-to-Hero, part 1), its backward pass written
/// as a page to step through; prints each labelled value as Python's `repr` does.
#[allow(clippy::excessive_precision)] // the lecture's literal, digit for digit
fn write_lecture_stepper(path: &Path) -> common::Result {
    // x1 = Value(2.0, label='x1'); x2 = Value(0.0, label='x2')
    let x1 = Value::new(2.0).with_label("x1");
    let x2 = Value::new(0.0).with_label("x2");
    // w1 = Value(-3.0, label='w1'); w2 = Value(1.0, label='w2')
    let w1 = Value::new(-3.0).with_label("w1");
    let w2 = Value::new(1.0).with_label("w2");
    // b = Value(6.8813735870195432, label='b')
    let b = Value::new(6.8813735870195432).with_label("b");
    // x1w1 = x1*w1; x2w2 = x2*w2; x1w1x2w2 = x1w1 + x2w2; n = x1w1x2w2 + b
    let x1w1 = (&x1 * &w1).with_label("x1*w1");
    let x2w2 = (&x2 * &w2).with_label("x2*w2");
    let x1w1x2w2 = (&x1w1 + &x2w2).with_label("x1*w1 + x2*w2");
    let n = (&x1w1x2w2 + &b).with_label("n");
    // o = n.tanh(); o.label = 'o'
    let o = n.tanh().with_label("o");
    files::write(path, o.to_html())
        .map_err(|e| format!("{e}; pass a writable file with --html PATH"))?;
    println!(
        "wrote {} (open it in a browser and press \"step\")",
        path.display()
    );
    // o.backward()
    o.backward();
    for v in [&o, &n, &x1w1x2w2, &x2w2, &x1w1, &b, &w2, &x2, &w1, &x1] {
        println!("{} {v:?}", v.label().unwrap_or_default());
    }
    Ok(())
}

/// Writes `DIR/NAME.dot`, and `DIR/NAME.svg` when a renderer is there
/// (`Value::to_svg`: Graphviz, or the `layout` feature); else says how to get one.
fn write_drawing(dir: &Path, name: &str, root: &Value, dot: &str) -> common::Result {
    let write = |ext: &str, text: &str| {
        let path = dir.join(format!("{name}.{ext}"));
        files::write(&path, text)?;
        println!("wrote {}", path.display());
        Ok::<(), Box<dyn std::error::Error>>(())
    };
    write("dot", dot)?;
    match root.to_svg() {
        Ok(svg) => write("svg", &svg),
        Err(e) => {
            println!(
                "no .svg was made: {e}; or paste the .dot file into an online Graphviz viewer"
            );
            Ok(())
        }
    }
}

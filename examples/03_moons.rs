//! Teaches: training a neural net end to end, as micrograd's `demo.ipynb` does: an
//! `MLP(2, [16, 16, 1])` learns to separate the two moons with the SVM max-margin loss
//! plus L2 regularisation and 100 steps of SGD, then the decision boundary is drawn.
//!
//! Run: `cargo run --release --example 03_moons [-- --steps N --data FILE.csv --svg PATH
//! --engine dynamic|tape]`.
//! With the defaults it prints, step for step, the losses and accuracies Python micrograd
//! prints for the notebook (the last digit of a loss may differ: gradients are summed in
//! another order), ends at 100% accuracy, and writes the picture of the decision boundary
//! to `moons.svg` in a new directory `micrograd-03_moons-...` in the system's temp dir
//! (the path is printed).
//!
//! - `--steps N`: train N steps instead of 100. The learning rate follows the notebook's
//!   `1.0 - 0.9*k/100` and stays at 0.1 after step 100, so the first N lines always match
//!   the notebook's.
//! - `--data FILE.csv`: train on a CSV file (plain or gzip) of rows `x0,x1,label`, labels
//!   -1 or +1, instead of the notebook's 100 points (`micrograd::data::moons100()`).
//! - `--svg PATH`: where to write the picture.
//! - `--engine dynamic|tape` [dynamic]: build the loss's graph anew every step, as
//!   Python does, or build it once and run it as a compiled [`Tape`] (the same
//!   accuracies, losses equal to the last digit or two, 25-55x faster a step; see
//!   `docs/tape.md`). The median time of a step (of the first 100,000) is printed
//!   before the last line.

mod common;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use common::Engine;
use micrograd::data::{self, Dataset};
use micrograd::loss;
use micrograd::optim::{check_loss, Schedule};
use micrograd::prelude::*;
use micrograd::random::PythonRandom;
use micrograd::tape::Tape;
use plotters::prelude::*;

const USAGE: &str = "03_moons [FLAGS]   (defaults in brackets)
  --steps N               training steps [100]
  --data FILE.csv         rows x0,x1,label (label -1 or +1), plain or gzip
                          [the notebook's 100 moons, built in]
  --svg PATH              where to draw the decision boundary
                          [moons.svg in a new micrograd-03_moons-... temp dir]
  --engine dynamic|tape   build the graph every step, or run a compiled tape [dynamic]
  -h, --help              print this and exit";

/// The most steps whose times are kept for the median step time: plenty for a steady
/// median, and memory that does not grow with `--steps`.
const TIMED_STEPS: usize = 100_000;

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    let steps = common::steps(&mut args, 100)?;
    let engine = common::engine(&mut args, Engine::Dynamic)?;
    let data_path: Option<PathBuf> = args.opt_value_from_str("--data")?;
    let svg_path = common::path(&mut args, "--svg")?;
    common::finish(args, USAGE)?;
    if let Some(path) = &svg_path {
        common::check_output_path(path)?;
    }

    // X, y = make_moons(n_samples=100, noise=0.1); y = y*2 - 1
    let data = match &data_path {
        Some(path) => load_two_class_points(path)?,
        None => data::moons100(),
    };

    // random.seed(1337); model = MLP(2, [16, 16, 1])
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    println!("{model}");
    println!("number of parameters {}", model.num_parameters());

    let mut step_times = Vec::with_capacity(steps.min(TIMED_STEPS));
    let (last_loss, last_accuracy) = match engine {
        Engine::Dynamic => train(&model, &data, steps, &mut step_times)?,
        Engine::Tape => train_on_tape(&model, &data, steps, &mut step_times)?,
    };
    step_times.sort_by(f64::total_cmp);
    let what = match engine {
        Engine::Dynamic => "graph built, backward, update, graph freed",
        Engine::Tape => "forward, backward, update",
    };
    println!(
        "{engine:?} engine: median {:.1} µs per step ({what})",
        1e6 * step_times[step_times.len() / 2]
    );
    // The last step printed the accuracy *before* its update; the picture shows the
    // model after it, so the caption gives that model's own accuracy.
    let (_, drawn_accuracy) = demo_loss(&model, &data)?;
    let caption = format!(
        "{} after {steps} steps: {:?}% accuracy",
        model.shape(),
        common::percent(drawn_accuracy)
    );
    let svg_path = match svg_path {
        Some(path) => path,
        None => common::files::new_temp_dir("03_moons")?.join("moons.svg"),
    };
    draw_decision_boundary(&model, &data, &caption, &svg_path)?;
    println!("wrote {}", svg_path.display());
    common::print_final(steps - 1, last_loss, Some(last_accuracy));
    Ok(())
}

/// The notebook's training loop; returns the loss and accuracy of the last step.
///
/// ```python
/// for k in range(100):
///     total_loss, acc = loss()
///     model.zero_grad()
///     total_loss.backward()
///     learning_rate = 1.0 - 0.9*k/100
///     for p in model.parameters():
///         p.data -= learning_rate * p.grad
///     if k % 1 == 0:
///         print(f"step {k} loss {total_loss.data}, accuracy {acc*100}%")
/// ```
///
/// Each step's time (building the graph, forward, backward, update) goes into `times`,
/// up to [`TIMED_STEPS`] of them.
fn train(
    model: &MLP,
    data: &Dataset,
    steps: usize,
    times: &mut Vec<f64>,
) -> Result<(f64, f64), Error> {
    let mut sgd = Sgd::new(model.parameters(), 1.0)?;
    let schedule = Schedule::linear(1.0, 0.1, 100)?; // 1.0 - 0.9*k/100
    let mut last = (f64::NAN, f64::NAN);
    for k in 0..steps {
        let start = Instant::now();
        let (total, accuracy) = demo_loss(model, data)?;
        check_loss(k, total.data())?;
        sgd.zero_grad();
        total.backward();
        schedule.apply(&mut sgd, k)?;
        sgd.step()?;
        let loss = total.data();
        // Freeing the graph is part of the step (Python's garbage collector does it).
        drop(total);
        if times.len() < TIMED_STEPS {
            times.push(start.elapsed().as_secs_f64());
        }
        common::print_step(k, loss, Some(accuracy));
        last = (loss, accuracy);
    }
    Ok(last)
}

/// [`train`] through a [`Tape`]: the graph of [`demo_loss`] is built once (its inputs
/// never change, and the parameters are its leaves) and compiled; each step then runs
/// it forward and backward, reading the scores back for the accuracy. The optimiser is
/// the same, and so are the printed numbers. Before the first step and after the last,
/// `Tape::check` builds the graph again and compares it with the tape, bit for bit.
fn train_on_tape(
    model: &MLP,
    data: &Dataset,
    steps: usize,
    times: &mut Vec<f64>,
) -> Result<(f64, f64), Error> {
    let build = || -> Result<(Value, Vec<Value>), Error> {
        let scores = common::predict(model, &data.inputs)?;
        let total = loss::svm_hinge(&scores, &data.labels)? + loss::l2(&model.parameters(), 1e-4);
        Ok((total, scores))
    };
    let (total, scores) = build()?;
    let mut tape = Tape::compile_with_outputs(&total, &scores)?;
    tape.check(|| Ok(build()?.0))?;
    let mut sgd = Sgd::new(model.parameters(), 1.0)?;
    let schedule = Schedule::linear(1.0, 0.1, 100)?; // 1.0 - 0.9*k/100
    let mut last = (f64::NAN, f64::NAN);
    for k in 0..steps {
        let start = Instant::now();
        let total = tape.forward()?;
        let correct = tape
            .outputs()
            .zip(&data.labels)
            .filter(|&(s, &y)| (y > 0.0) == (s > 0.0))
            .count();
        let accuracy = correct as f64 / data.len() as f64;
        sgd.zero_grad();
        tape.backward()?;
        schedule.apply(&mut sgd, k)?;
        sgd.step()?;
        if times.len() < TIMED_STEPS {
            times.push(start.elapsed().as_secs_f64());
        }
        common::print_step(k, total, Some(accuracy));
        last = (total, accuracy);
    }
    tape.check(|| Ok(build()?.0))?;
    Ok(last)
}

/// The notebook's `loss()`: builds the graph of the whole-data-set loss for `model` (the
/// SVM max-margin loss plus 1e-4 L2) and measures the accuracy.
///
/// This is the one place the graph is built, so another engine (e.g. a compiled tape)
/// only has to replace this function and the `backward` call in [`train`].
///
/// ```python
/// inputs = [list(map(Value, xrow)) for xrow in X]
/// scores = list(map(model, inputs))
/// losses = [(1 + -yi*scorei).relu() for yi, scorei in zip(y, scores)]
/// data_loss = sum(losses) * (1.0 / len(losses))
/// reg_loss = 1e-4 * sum((p*p for p in model.parameters()))
/// total_loss = data_loss + reg_loss
/// accuracy = [(yi > 0) == (scorei.data > 0) for yi, scorei in zip(y, scores)]
/// return total_loss, sum(accuracy) / len(accuracy)
/// ```
fn demo_loss(model: &MLP, data: &Dataset) -> Result<(Value, f64), Error> {
    let scores = common::predict(model, &data.inputs)?;
    let data_loss = loss::svm_hinge(&scores, &data.labels)?;
    let reg_loss = loss::l2(&model.parameters(), 1e-4);
    let accuracy = loss::binary_accuracy(&scores, &data.labels)?;
    Ok((data_loss + reg_loss, accuracy))
}

/// Reads a CSV file of `x0,x1,label` rows and checks that it is a two-class, 2-D data
/// set (the model has 2 inputs and the SVM loss wants labels -1 and +1).
fn load_two_class_points(path: &Path) -> common::Result<Dataset> {
    let data = data::load_csv(path)?;
    let width = data.width();
    if width != 2 {
        return Err(format!(
            "{}: rows have {width} feature columns, but this example needs 2 \
             (x0,x1,label): the model's input is a point in the plane",
            path.display()
        )
        .into());
    }
    if let Some(i) = data.labels.iter().position(|&y| y != -1.0 && y != 1.0) {
        return Err(format!(
            "{}: data row {} (not counting a header) has label {}, but the labels \
             must be -1 or +1 (for 0/1 labels, write 2*y - 1)",
            path.display(),
            i + 1,
            data.labels[i]
        )
        .into());
    }
    Ok(data)
}

/// The notebook's last cell: the model's decision (the sign of its score) over a grid
/// around the data, with the points on top, coloured by label, written as an SVG.
///
/// ```python
/// h = 0.25
/// x_min, x_max = X[:, 0].min() - 1, X[:, 0].max() + 1
/// y_min, y_max = X[:, 1].min() - 1, X[:, 1].max() + 1
/// xx, yy = np.meshgrid(np.arange(x_min, x_max, h), np.arange(y_min, y_max, h))
/// Xmesh = np.c_[xx.ravel(), yy.ravel()]
/// scores = list(map(model, [list(map(Value, xrow)) for xrow in Xmesh]))
/// Z = np.array([s.data > 0 for s in scores]).reshape(xx.shape)
/// plt.contourf(xx, yy, Z, cmap=plt.cm.Spectral, alpha=0.8)
/// plt.scatter(X[:, 0], X[:, 1], c=y, s=40, cmap=plt.cm.Spectral)
/// ```
///
/// Python's `contourf` interpolates between the grid points; here each grid point
/// colours a cell of its own (the decision at the cell's centre), so the grid is finer
/// than the notebook's (`h = 0.025`).
fn draw_decision_boundary(
    model: &MLP,
    data: &Dataset,
    caption: &str,
    path: &Path,
) -> common::Result {
    let h = 0.025;
    let bounds = |i: usize| {
        let column = data.inputs.iter().map(|row| row[i]);
        let lo = column.clone().fold(f64::INFINITY, f64::min) - 1.0;
        let hi = column.fold(f64::NEG_INFINITY, f64::max) + 1.0;
        (lo, hi)
    };
    let ((x_min, x_max), (y_min, y_max)) = (bounds(0), bounds(1));
    let (nx, ny) = (
        ((x_max - x_min) / h).ceil() as usize,
        ((y_max - y_min) / h).ceil() as usize,
    );
    let x_at = |i: usize| (x_min + i as f64 * h).min(x_max);
    let y_at = |j: usize| (y_min + j as f64 * h).min(y_max);

    // Grid cell (i, j) takes the model's decision at its centre; each run of equal
    // decisions along a row becomes one rectangle.
    let mut cells = Vec::new();
    for j in 0..ny {
        let y = (y_at(j) + y_at(j + 1)) / 2.0;
        let mut row = Vec::with_capacity(nx);
        for i in 0..nx {
            let x = (x_at(i) + x_at(i + 1)) / 2.0;
            row.push(model.forward_f64(&[x, y])?[0].data() > 0.0);
        }
        let mut start = 0;
        for i in 1..=nx {
            if i == nx || row[i] != row[start] {
                cells.push(([(x_at(start), y_at(j)), (x_at(i), y_at(j + 1))], row[start]));
                start = i;
            }
        }
    }

    // The two ends of matplotlib's Spectral colour map, as `c=y` picks them for -1 and
    // +1; the background is the same colours, lightened (the notebook's `alpha=0.8`).
    let (negative, positive) = ((0x9e, 0x01, 0x42), (0x5e, 0x4f, 0xa2));
    let colour = |label: bool, strength: f64| {
        let (r, g, b) = if label { positive } else { negative };
        let mix = |c: u8| (f64::from(c) * strength + 255.0 * (1.0 - strength)).round() as u8;
        RGBColor(mix(r), mix(g), mix(b))
    };

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(44)
            .build_cartesian_2d(x_min..x_max, y_min..y_max)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x0")
            .y_desc("x1")
            .draw()?;
        chart.draw_series(
            cells
                .iter()
                .map(|&(corners, d)| Rectangle::new(corners, colour(d, 0.35).filled())),
        )?;
        let points = || data.inputs.iter().zip(&data.labels);
        chart.draw_series(
            points().map(|(x, &y)| Circle::new((x[0], x[1]), 4, colour(y > 0.0, 1.0).filled())),
        )?;
        chart.draw_series(points().map(|(x, _)| Circle::new((x[0], x[1]), 4, BLACK)))?;
        root.present()?;
    }
    Ok(common::files::write(path, svg)?)
}

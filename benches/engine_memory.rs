//! Engine memory: heap bytes per node of the 3,000,001-node chain graph, at the peak of
//! building it and at the peak of `backward`, and a check that dropping it frees all;
//! then the heap bytes of a network's graph: 100 samples through micrograd's
//! 2-16-16-1 MLP, each with its hinge loss, summed (the demo's step).
//!
//! Run: `cargo bench --bench engine_memory` (or `-- --nodes N` for another size).
//! A counting global allocator wraps the system one and tracks the bytes currently
//! requested and their peak; these are the bytes the program asks for, without the
//! allocator's own bookkeeping, which the `VmHWM` line (peak resident memory of the
//! whole process, from `/proc/self/status`) includes. Results are in
//! `docs/benchmarks.md`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use micrograd::nn::MLP;
use micrograd::random::PythonRandom;
use micrograd::Value;

/// The system allocator, counting the bytes currently allocated and their peak.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

impl Counting {
    fn grew(by: usize) {
        let now = CURRENT.fetch_add(by, Relaxed) + by;
        PEAK.fetch_max(now, Relaxed);
    }
    fn shrank(by: usize) {
        CURRENT.fetch_sub(by, Relaxed);
    }
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counters only observe the sizes.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Counting::grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) };
        Counting::shrank(layout.size());
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            Counting::grew(layout.size());
        }
        p
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: same contract as our caller's.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            Counting::grew(new_size);
            Counting::shrank(layout.size());
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Starts a new peak measurement from the current bytes.
fn reset_peak() -> usize {
    let now = CURRENT.load(Relaxed);
    PEAK.store(now, Relaxed);
    now
}

/// The process's peak resident memory (`VmHWM`) in bytes, if `/proc` has it.
fn peak_rss() -> Option<usize> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// `--nodes N` from the command line (cargo bench also passes `--bench`), rounded to
/// whole steps of 4 nodes plus the input.
fn steps_from_args() -> Result<usize, String> {
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|a| a == "--nodes") {
        None => Ok(750_000),
        Some(i) => {
            let n = args.get(i + 1).ok_or("--nodes needs a number")?;
            let n: usize = n.parse().map_err(|e| format!("--nodes {n}: {e}"))?;
            Ok(n.saturating_sub(1) / 4)
        }
    }
}

fn main() -> ExitCode {
    let steps = match steps_from_args() {
        Ok(steps) => steps,
        Err(e) => {
            eprintln!("engine_memory: {e}");
            return ExitCode::FAILURE;
        }
    };
    let nodes = 4 * steps + 1;
    let per_node = |bytes: usize| bytes as f64 / nodes as f64;

    let baseline = reset_peak();
    // The graph of benches/engine.rs and scripts/compare/engine_python.py.
    let mut y = Value::new(1.0);
    for _ in 0..steps {
        y = y * 1.0000001 + 0.5;
    }
    let build_peak = PEAK.load(Relaxed) - baseline;
    let built = reset_peak() - baseline;
    y.backward();
    let backward_peak = PEAK.load(Relaxed) - baseline;
    drop(y);
    let after_drop = CURRENT.load(Relaxed);

    println!("nodes:                    {nodes}");
    println!(
        "heap after build:         {built} B = {:.1} B/node",
        per_node(built)
    );
    println!(
        "peak heap during build:   {build_peak} B = {:.1} B/node",
        per_node(build_peak)
    );
    println!(
        "peak heap in backward:    {backward_peak} B = {:.1} B/node (backward added {} B)",
        per_node(backward_peak),
        backward_peak - built
    );
    if let Some(rss) = peak_rss() {
        println!(
            "peak RSS of the process:  {rss} B = {:.1} B/node (includes malloc overhead)",
            per_node(rss)
        );
    }
    if after_drop != baseline {
        println!("after drop:               LEAK: {after_drop} B allocated, baseline {baseline} B");
        return ExitCode::FAILURE;
    }
    println!("after drop:               all freed (heap back to {baseline} B)");
    let (bytes, samples) = network_graph();
    println!(
        "network graph:            {bytes} B = {} B/sample",
        bytes / samples
    );
    ExitCode::SUCCESS
}

/// The heap bytes of the loss graph of 100 samples through micrograd's 2-16-16-1 MLP
/// (the model's own parameters not counted), and the number of samples.
fn network_graph() -> (usize, usize) {
    let model = MLP::new(2, &[16, 16, 1], &mut PythonRandom::seed(1337));
    let samples = 100;
    let baseline = CURRENT.load(Relaxed);
    let losses: Vec<Value> = (0..samples)
        .map(|i| {
            let x = [Value::new(0.02 * i as f64 - 1.0), Value::new(0.5)];
            let y = if i % 2 == 0 { 1.0 } else { -1.0 };
            let score = model.forward(&x).expect("two inputs").remove(0);
            (1.0 - y * score).relu()
        })
        .collect();
    let loss: Value = losses.iter().sum();
    drop(losses);
    let bytes = CURRENT.load(Relaxed) - baseline;
    drop(loss);
    (bytes, samples)
}

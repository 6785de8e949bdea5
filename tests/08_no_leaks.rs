//! Lesson 8: when the last handle goes, the whole graph is freed.
//!
//! Python's garbage collector frees graphs, cycles included. With `Rc`, a cycle would
//! never be freed, so no node holds an `Rc` to itself: backward closures receive their
//! node instead of capturing it. This test counts the bytes this thread has allocated
//! and checks they all come back.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use micrograd::nn::{Activation, MLP};
use micrograd::Value;
use rand::{rngs::StdRng, SeedableRng};

/// The system allocator, counting the bytes live on each thread.
struct Counting;

thread_local! {
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn add_live(delta: isize) {
    // `try_with` fails only while the thread is being torn down; nothing to count then.
    let _ = LIVE.try_with(|live| {
        live.set(live.get() + delta);
        let _ = PEAK.try_with(|peak| peak.set(peak.get().max(live.get())));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        add_live(layout.size() as isize);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        add_live(-(layout.size() as isize));
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live_bytes() -> isize {
    LIVE.with(Cell::get)
}

/// The most bytes live on this thread while `f` ran, above those live before.
fn peak_bytes_of(f: impl FnOnce()) -> isize {
    let before = live_bytes();
    PEAK.with(|peak| peak.set(before));
    f();
    PEAK.with(Cell::get) - before
}

/// Every expression shape the engine has: each op, reuse, labels, sums, neurons (a
/// layer's sharing its inputs), a deep chain.
fn build_and_run() {
    let a = Value::new(-4.0).with_label("a");
    let b = Value::new(2.0);
    let mut c = &a + &b;
    c += &c * &a - 1.0;
    let d = (&c / &b).tanh() + c.sigmoid() * a.exp() + b.ln() - b.sqrt();
    let e = d.powf(2.0) + a.pow(&b) + a.abs().leaky_relu(0.1) + (-&a).relu();
    let f: Value = [&e, &e, &d].into_iter().sum::<Value>().with_label("f");
    // Neurons, freed as they are built (the views below list their parents and show the
    // leaves of f64 operands, which go with their nodes).
    let n = Value::neuron(
        &a,
        &[b.clone(), e.clone()],
        &[d.clone(), c],
        Activation::Tanh,
    );
    let model = MLP::new(2, &[3, 1], &mut StdRng::seed_from_u64(1));
    let m = model.forward_f64(&[1.0, -2.0]).expect("2 inputs").remove(0);
    (n.expect("2 weights") * &m).backward();
    let mut chain = f.clone();
    for _ in 0..10_000 {
        chain = &chain * 1.0;
    }
    chain.backward();
    let _ = chain.try_backward();
    let _ = chain.to_dot();
    chain.zero_grad_graph();
}

// del x  (Python frees the graph when its last name goes; so do we)
#[test]
fn dropping_the_last_handle_frees_every_node() {
    build_and_run(); // warm up anything allocated once
    let before = live_bytes();
    build_and_run();
    assert_eq!(live_bytes(), before, "bytes leaked by one graph");
}

#[test]
fn a_graph_is_freed_even_when_leaves_outlive_it() {
    let x = Value::new(2.0);
    let before = live_bytes();
    {
        let y = (&x * &x).exp() + 1.0;
        y.backward();
        assert!(live_bytes() > before);
    }
    assert_eq!(live_bytes(), before);
    assert!(x.grad() > 0.0, "the leaf keeps its gradient");
}

// y = x * 2.0   -- Python makes two objects, Value(2.0) and the product; here the number
// is kept in the product's node, and its leaf is made only when someone looks at it,
// kept beside the graph until the node is freed
#[test]
fn an_f64_operand_costs_no_allocation_of_its_own() {
    let x = Value::new(3.0);
    // (The first leaf shown on a thread registers, once, the freeing of the thread's
    // table of shown leaves when the thread ends: done before counting.)
    let _ = (&x * 2.0).parents();
    let before = live_bytes();
    let one = Value::new(1.0);
    let node = live_bytes() - before; // every node is the same size
    let y = &x * 2.0;
    assert_eq!(live_bytes() - before, 2 * node, "one node for `x * 2.0`");
    let z = 2.0 * &y + 1.0;
    assert_eq!(live_bytes() - before, 4 * node, "one node per op");
    let parents = z.parents(); // shows Python's leaf Value(1.0): made now
    assert!(live_bytes() - before >= 5 * node);
    drop((one, y, z, parents));
    assert_eq!(live_bytes(), before);
}

// The table of shown leaves gives its room back once its last leaf goes.
#[test]
fn the_shown_leaves_table_is_freed_with_its_last_leaf() {
    let x = Value::new(3.0);
    let many: Vec<Value> = (0..4).map(|i| &x * f64::from(i)).collect();
    many.iter().for_each(|y| drop(y.parents()));
    drop(many);
    let before = live_bytes();
    let y = &x * 2.0;
    drop(y.parents());
    drop(y);
    assert_eq!(live_bytes(), before);
}

// out = Value(..., (self, other), op); out._backward = _backward   -- Python makes a new
// function object for every node; here each op's backward closure captures nothing, so
// its Box allocates nothing: a node is one allocation, the same size as a leaf's
#[test]
fn every_ops_node_is_one_allocation_closure_included() {
    let (a, b) = (Value::new(0.5), Value::new(2.0));
    let before = live_bytes();
    let leaf = Value::new(1.0);
    let node = live_bytes() - before;
    drop(leaf);
    let ops: [fn(&Value, &Value) -> Value; 25] = [
        |a, b| a + b,
        |a, b| a - b,
        |a, b| a * b,
        |a, b| a / b,
        |a, _| -a,
        |a, _| a.relu(),
        |a, _| a.tanh(),
        |a, _| a.sigmoid(),
        |a, _| a.softplus(),
        |a, _| a.exp(),
        |a, _| a.ln(),
        |a, _| a.log1p(),
        |a, _| a.sqrt(),
        |a, _| a.sin(),
        |a, _| a.cos(),
        |a, _| a.atan(),
        |a, _| a.abs(),
        |a, b| a.pow(b),
        |a, b| a.max(b),
        |a, b| a.min(b),
        |a, _| a.powf(0.0),
        // (one constant is kept in the node beside its parent, as Python's closure
        // captures `other`; only `clamp`, with two, boxes them)
        |a, _| a.powf(2.0),
        |a, _| a.powi(3),
        |a, _| a.leaky_relu(0.1),
        |a, _| a.clamp(-1.0, 0.0),
    ];
    for (i, op) in ops.iter().enumerate() {
        let y = op(&a, &b);
        assert_eq!(live_bytes() - before, node, "op {i} ({})", y.op());
        y.backward();
        drop(y);
        assert_eq!(live_bytes(), before, "op {i}");
    }
}

// try_backward reads `y * 1.0` as Python's node and its leaf Value(1.0), a leaf made for
// that read and freed at once: checking costs no more memory than backward() does.
#[test]
fn try_backward_holds_no_more_memory_than_backward() {
    let x = Value::new(1.0);
    let mut y = x.clone();
    for _ in 0..1000 {
        y = &y * 1.0;
    }
    let plain = peak_bytes_of(|| y.backward());
    let checked = peak_bytes_of(|| y.try_backward().unwrap());
    assert!(
        checked <= plain + 4096,
        "try_backward {checked} B, backward {plain} B"
    );
}

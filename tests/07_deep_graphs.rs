//! Lesson 7: graphs of any depth, with no recursion anywhere.
//!
//! Python micrograd's `build_topo` is recursive: under the default recursion limit,
//! `y = y * 1.0 + 0.0` repeated 500 times (1,000 ops deep) raises `RecursionError`, and
//! C ports that recurse segfault at about 100,000 nodes. Here `backward` and `Drop` use explicit
//! stacks, so the depth of a graph never touches the thread's stack.

use micrograd::Value;

/// Runs `f` on a thread with a 256 KiB stack: any recursion per node would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .expect("spawn a thread")
        .join()
        .expect("the deep graph must not overflow a 256 KiB stack");
}

// x = Value(1.0); y = x
// for _ in range(500_000): y = y * 1.0 + 0.0   (RecursionError from 500 steps on)
#[test]
fn a_chain_of_two_million_nodes_builds_runs_backward_and_drops() {
    on_small_stack(|| {
        let x = Value::new(1.0);
        let mut y = x.clone();
        // Each step adds 4 nodes: two constant leaves, a `*` and a `+`.
        for _ in 0..500_000 {
            y = &y * 1.0 + 0.0;
        }
        y.backward();
        assert_eq!((y.data(), x.grad()), (1.0, 1.0));
        drop(y);
    });
}

#[test]
fn a_chain_of_unary_ops_two_million_deep() {
    on_small_stack(|| {
        let x = Value::new(0.5);
        let mut y = x.clone();
        for _ in 0..2_000_000 {
            y = y.relu();
        }
        y.backward();
        assert_eq!(x.grad(), 1.0);
    });
}

// Each node uses the previous one twice: freeing must not recurse through either edge.
#[test]
fn a_deep_chain_with_shared_parents_drops_without_recursion() {
    on_small_stack(|| {
        let x = Value::new(1.0);
        let mut y = x.clone();
        for _ in 0..1_000_000 {
            y = (&y + &y) * 0.5;
        }
        y.backward();
        assert_eq!((y.data(), x.grad()), (1.0, 1.0));
    });
}

#[test]
fn a_sum_of_two_million_terms_is_one_node() {
    on_small_stack(|| {
        let xs: Vec<Value> = (0..2_000_000).map(|_| Value::new(1.0)).collect();
        let s: Value = xs.iter().sum();
        s.backward();
        assert_eq!(s.data(), 2_000_000.0);
        assert!(xs.iter().all(|x| x.grad() == 1.0));
    });
}

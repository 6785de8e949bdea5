"""The engine benchmark of benches/engine.rs, in Python micrograd 0.1.0.

Builds the chain graph `x = Value(1.0); y = x; y = y * 1.0000001 + 0.5` (repeated; each
step makes 4 nodes: two constant leaves, a `*` and a `+`), runs `y.backward()`, frees
it, and reports time per node (median of --repeat runs) and bytes per node:
- under tracemalloc, the bytes of the built graph (N nodes) and the peak during
  backward. tracemalloc makes micrograd's deeply recursive backward quadratic in the
  depth (25,000 nodes: 2.6 s, 100,000 nodes: 40 s), so the backward peak is traced on a
  smaller graph of --trace-nodes nodes (default 20,000); bytes per node hardly depend on N;
- the peak resident memory of the whole process (ru_maxrss), which also counts what
  tracemalloc does not see (the interpreter's frame stack of the recursion, allocator
  slack, the interpreter itself).

Run: pip install micrograd==0.1.0 && python3 scripts/compare/engine_python.py [--nodes N]
     [--repeat R] [--gc on|off] [--trace-nodes M] [--json]

micrograd's backward() builds its topological order by recursion, one Python call per
level: the recursion limit is raised and everything runs in a thread with a big stack.
Every micrograd node is in a reference cycle (`out._backward` is a closure over `out`),
so "free" is `del y` plus `gc.collect()`. By default the garbage collector stays on,
with Python's default settings, as in any micrograd program; it then runs again and
again while the graph grows, which makes the build of a big graph much slower per node.
`--gc off` disables it during build and backward (Python's best case; freeing still
needs one `gc.collect()`).
"""
import argparse
import gc
import json
import resource
import statistics
import sys
import threading
import time
import tracemalloc

from micrograd.engine import Value


def chain(steps):
    y = Value(1.0)
    for _ in range(steps):
        y = y * 1.0000001 + 0.5
    return y


def timed_run(steps, gc_on):
    """Seconds for build, backward and free of one graph."""
    gc.collect()
    if not gc_on:
        gc.disable()
    t0 = time.perf_counter()
    y = chain(steps)
    t1 = time.perf_counter()
    y.backward()
    t2 = time.perf_counter()
    gc.enable()
    del y
    gc.collect()
    t3 = time.perf_counter()
    return t1 - t0, t2 - t1, t3 - t2


def memory_run(steps, backward=True):
    """Traced bytes after building, at the peak of backward (if run), and left after
    freeing."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    y = chain(steps)
    built = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.reset_peak()
    if backward:
        y.backward()
    backward_peak = tracemalloc.get_traced_memory()[1] - base
    del y
    gc.collect()
    left = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    return built, backward_peak, left


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--nodes", type=int, default=3_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--gc", choices=["on", "off"], default="on")
    ap.add_argument("--trace-nodes", type=int, default=20_000)
    ap.add_argument("--json", action="store_true", help="print one JSON line")
    args = ap.parse_args()
    if min(args.nodes, args.trace_nodes) < 5 or args.repeat < 1:
        ap.error("--nodes and --trace-nodes must be at least 5, --repeat at least 1")
    steps = (args.nodes - 1) // 4
    nodes = 4 * steps + 1
    trace_steps = (min(args.trace_nodes, nodes) - 1) // 4
    trace_nodes = 4 * trace_steps + 1

    runs = [timed_run(steps, args.gc == "on") for _ in range(args.repeat)]
    build, backward, free = (statistics.median(r[i] for r in runs) for i in range(3))
    total = statistics.median(sum(r) for r in runs)
    # ru_maxrss is in KiB on Linux: the process's peak resident memory, here the peak
    # of the timed runs (build + backward of N nodes).
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    built, _, left = memory_run(steps, backward=False)
    small_built, small_peak, small_left = memory_run(trace_steps)

    ns = lambda s: s * 1e9 / nodes
    result = {
        "nodes": nodes,
        "repeat": args.repeat,
        "gc": args.gc,
        "ns_per_node": ns(total),
        "build_ns_per_node": ns(build),
        "backward_ns_per_node": ns(backward),
        "free_ns_per_node": ns(free),
        "bytes_per_node_built": built / nodes,
        "bytes_left_after_free": left,
        "trace_nodes": trace_nodes,
        "trace_bytes_per_node_built": small_built / trace_nodes,
        "trace_bytes_per_node_backward_peak": small_peak / trace_nodes,
        "trace_bytes_left_after_free": small_left,
        "peak_rss_bytes_per_node": rss / nodes,
    }
    if args.json:
        print(json.dumps(result))
        return
    print(f"Python {sys.version.split()[0]}, micrograd 0.1.0, {nodes} nodes, "
          f"median of {args.repeat} runs")
    for key, value in result.items():
        print(f"{key:34} {value:.1f}" if isinstance(value, float) else f"{key:34} {value}")


if __name__ == "__main__":
    # One recursive build_topo call per level of the graph: about 2 per step.
    sys.setrecursionlimit(30_000_000)
    threading.stack_size(1 << 30)
    worker = threading.Thread(target=main)
    worker.start()
    worker.join()

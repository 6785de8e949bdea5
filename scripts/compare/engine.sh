#!/usr/bin/env bash
# The engine against Python micrograd 0.1.0, side by side in one run, on the same
# 3,000,001-node chain graph (`y = y * 1.0000001 + 0.5`, 4 nodes per step):
#   - Rust: `cargo bench --bench engine -- chain/` (criterion median of build + backward
#     + drop) and `cargo bench --bench engine_memory` (heap bytes per node);
#   - Python: scripts/compare/engine_python.py (median of 3 runs, tracemalloc, ru_maxrss), once
#     with the garbage collector on (as micrograd programs run) and once with it off
#     during build and backward (Python's best case).
# Prints ns/node for both, the speed ratios, and bytes/node for both.
# Usage: scripts/compare/engine.sh            (results go into docs/benchmarks.md)
set -euo pipefail
cd "$(dirname "$0")/../.."

NODES=3000001

if ! python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("micrograd") != "0.1.0")' 2>/dev/null; then
    echo "installing micrograd==0.1.0"
    python3 -m pip install --quiet micrograd==0.1.0
fi

echo "== building (release, bench profile)"
cargo bench --bench engine --bench engine_memory --no-run 2>&1 | grep -v '^ *Executable' || true

echo "== Rust: time (criterion, chain/*)"
cargo bench --bench engine -- --noplot chain/ 2>&1 | grep -E '^chain/|time:|thrpt:'
echo "== Rust: memory"
rust_memory=$(cargo bench --bench engine_memory 2>/dev/null)
echo "$rust_memory"

echo "== Python: micrograd 0.1.0 (this takes a few minutes)"
python_json=$(python3 scripts/compare/engine_python.py --nodes "$NODES" --json)
echo "$python_json"
python_nogc_json=$(python3 scripts/compare/engine_python.py --nodes "$NODES" --gc off --json)
echo "$python_nogc_json"

echo "== side by side"
RUST_MEMORY="$rust_memory" PYTHON_JSON="$python_json" PYTHON_NOGC_JSON="$python_nogc_json" NODES="$NODES" python3 - <<'EOF'
import json, os, re

nodes = int(os.environ["NODES"])
py = json.loads(os.environ["PYTHON_JSON"])
nogc = json.loads(os.environ["PYTHON_NOGC_JSON"])
assert py["nodes"] == nogc["nodes"] == nodes, (py["nodes"], nogc["nodes"], nodes)

def rust_ns(phase):
    with open(f"target/criterion/chain/{phase}/new/estimates.json") as f:
        return json.load(f)["median"]["point_estimate"] / nodes

mem = os.environ["RUST_MEMORY"]
def rust_bytes(label):
    return float(re.search(label + r":\s+\d+ B = ([\d.]+) B/node", mem).group(1))

rows = [
    ("build + backward + drop", "total", "ns_per_node"),
    ("  build", "build", "build_ns_per_node"),
    ("  backward", "backward", "backward_ns_per_node"),
    ("  drop / free", "drop", "free_ns_per_node"),
]
print(f"{'ns per node (median)':26} {'Rust':>9} {'Python':>9} {'ratio':>7} "
      f"{'Py gc off':>10} {'ratio':>7}")
for name, phase, key in rows:
    r, p, q = rust_ns(phase), py[key], nogc[key]
    print(f"{name:26} {r:9.1f} {p:9.1f} {p / r:6.1f}x {q:10.1f} {q / r:6.1f}x")
print()
print(f"{'bytes per node':26} {'Rust':>9} {'Python':>9}")
print(f"{'after build':26} {rust_bytes('heap after build'):9.1f} {py['bytes_per_node_built']:9.1f}")
print(f"{'peak of backward':26} {rust_bytes('peak heap in backward'):9.1f} "
      f"{py['trace_bytes_per_node_backward_peak']:9.1f}  (Python: traced on {py['trace_nodes']} nodes)")
print(f"{'peak RSS of the process':26} {rust_bytes('peak RSS of the process'):9.1f} "
      f"{py['peak_rss_bytes_per_node']:9.1f}")
ratio = py["ns_per_node"] / rust_ns("total")
best = nogc["ns_per_node"] / rust_ns("total")
peak = rust_bytes("peak heap in backward")
print()
print(f"per node, Rust is {ratio:.1f}x faster than Python with gc on, {best:.1f}x with gc off; "
      f"{peak:.1f} heap bytes per node at the peak of backward")
EOF

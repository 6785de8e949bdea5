#!/usr/bin/env bash
# micrograd's demo step (moons100, MLP(2, [16, 16, 1]), SVM hinge + 1e-4 L2, SGD) in
# Python micrograd 0.1.0 and in examples/03_moons.rs with both engines, on the same data
# and the same steps, in one run. Prints each one's median time per step (building the
# graph where there is one to build, forward, backward, update) and the ratios, after
# checking that the three printed the same losses (to 1e-9 relative).
# Usage: scripts/compare/moons_python.sh [STEPS]     (default 10; Python takes ~4 s a step)
set -euo pipefail
cd "$(dirname "$0")/../.."
STEPS="${1:-10}"

if ! python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("micrograd") != "0.1.0")' 2>/dev/null; then
    echo "installing micrograd==0.1.0"
    python3 -m pip install --quiet micrograd==0.1.0
fi

echo "== building examples/03_moons (release)"
cargo build --quiet --release --example 03_moons
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
svg="$tmp/moons.svg"
run_rust() { target/release/examples/03_moons --steps "$STEPS" --svg "$svg" --engine "$1"; }

echo "== Rust, dynamic graph"
dynamic=$(run_rust dynamic)
echo "$dynamic" | tail -3
echo "== Rust, tape"
tape=$(run_rust tape)
echo "$tape" | tail -3
echo "== Python micrograd 0.1.0 ($STEPS steps)"
python=$(python3 scripts/compare/moons_step_python.py "$STEPS")
echo "$python" | tail -2

DYNAMIC="$dynamic" TAPE="$tape" PYTHON="$python" python3 - <<'PY'
import os, re

def losses(text):
    return [float(m) for m in re.findall(r"^step \d+ loss ([^,\s]+)", text, re.M)]

def median_us(text, pattern):
    return float(re.search(pattern, text, re.M).group(1))

py, dyn, tape = (os.environ[k] for k in ("PYTHON", "DYNAMIC", "TAPE"))
for name, text in (("dynamic", dyn), ("tape", tape)):
    for k, (a, b) in enumerate(zip(losses(text), losses(py))):
        assert abs(a - b) <= 1e-9 * abs(b), f"step {k}: {name} loss {a}, Python {b}"
assert len(losses(py)) == len(losses(dyn)) == len(losses(tape))
t_py = median_us(py, r"^python median_step_us ([\d.]+)")
t_dyn = median_us(dyn, r"^Dynamic engine: median ([\d.]+) µs")
t_tape = median_us(tape, r"^Tape engine: median ([\d.]+) µs")
print(f"== {len(losses(py))} steps, the same losses (1e-9) in all three")
print(f"{'median per step':24} {'µs':>12} {'vs Python':>10}")
for name, t in (("Python micrograd 0.1.0", t_py), ("Rust dynamic graph", t_dyn), ("Rust tape", t_tape)):
    print(f"{name:24} {t:12.1f} {t_py / t:9.0f}x")
print(f"tape vs dynamic: {t_dyn / t_tape:.1f}x faster")
PY

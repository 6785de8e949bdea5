#!/usr/bin/env bash
# 07_mnist's job (MLP 784-32-10, ReLU, softmax cross-entropy, Adam lr 0.002, batch 32,
# 5 epochs on 8,000 images, tested on 2,000) run by everything in the MNIST column of
# docs/benchmarks.md, taking turns: the tape on 1 and 2 threads (07_mnist), the dynamic
# graph (07_mnist --engine dynamic, on the first 2,000 images for one epoch), the
# generated C in f64 and f32 (09_codegen), JAX in f64 and f32 (mnist_jax.py) and candle
# in f64 (candle_mnist). Each run prints its time per sample-step; after ROUNDS rounds
# of all of them in turn, the script prints each one's median and its ratio to the
# tape on one thread (taking turns, all meet the same moments of a busy machine).
#
# Usage: scripts/compare/mnist.sh [MNIST_DIR (../shared/data/mnist)] [ROUNDS (3)]
#        NO_CANDLE=1 scripts/compare/mnist.sh ...   leaves candle out (its first build
#                                                   takes several minutes)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:-../shared/data/mnist}"
rounds="${2:-3}"
times="$(mktemp)"
trap 'rm -f "$times"' EXIT

if ! python3 -c "import jax" >/dev/null 2>&1; then
    echo "installing jax (CPU)"
    python3 -m pip install --quiet jax
fi
echo "== building the examples (release)"
cargo build --quiet --release --examples
candle_target="${CANDLE_TARGET_DIR:-target/candle_mnist}"
if [ -z "${NO_CANDLE:-}" ]; then
    echo "== building scripts/compare/candle_mnist (release)"
    CARGO_TARGET_DIR="$candle_target" cargo build --quiet --release \
        --manifest-path scripts/compare/candle_mnist/Cargo.toml
fi
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== commit $(git rev-parse --short HEAD), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

ex=target/release/examples
run() {
    local name="$1"
    shift
    local out
    out="$("$@" 2>&1)"
    local us
    us="$(grep -Eo '[0-9.]+ µs per sample-step' <<<"$out" | tail -1 | cut -d' ' -f1)"
    printf '%-26s %8s µs   %s\n' "$name" "$us" "$(grep -E '^final' <<<"$out" || true)"
    printf '%s\t%s\n' "$name" "$us" >>"$times"
}
for round in $(seq 1 "$rounds"); do
    echo "== round $round of $rounds"
    run "tape, 1 thread" "$ex/07_mnist" --data "$dir" --holdout 2000 --threads 1
    run "tape, 2 threads" "$ex/07_mnist" --data "$dir" --holdout 2000 --threads 2
    run "dynamic graph (2,000 x 1)" "$ex/07_mnist" --data "$dir" --holdout 2000 \
        --engine dynamic --limit 2000 --epochs 1
    run "generated C, f64" "$ex/09_codegen" --data "$dir" --holdout 2000
    run "generated C, f32" "$ex/09_codegen" --data "$dir" --holdout 2000 \
        --precision f32 --out target/09_codegen_f32
    run "JAX, f64" python3 scripts/compare/mnist_jax.py "$dir" f64
    run "JAX, f32" python3 scripts/compare/mnist_jax.py "$dir" f32
    if [ -z "${NO_CANDLE:-}" ]; then
        run "candle, f64" "$candle_target/release/candle_mnist" "$dir"
    fi
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== medians over $rounds rounds, µs per sample-step (and / the tape on 1 thread)"
python3 - "$times" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    name, us = line.rstrip("\n").split("\t")
    rows.setdefault(name, []).append(float(us))
tape = statistics.median(rows["tape, 1 thread"])
for name, values in rows.items():
    m = statistics.median(values)
    print(f"{name:26} {m:8.2f}   {m / tape:5.2f}x   ({', '.join(f'{v:.2f}' for v in values)})")
PY

#!/usr/bin/env bash
# 07_mnist's job (MLP 784-32-10, ReLU, softmax cross-entropy, Adam lr 0.002, batch 32,
# 5 epochs on 8,000 images, tested on 2,000) run by everything in the MNIST column of
# docs/benchmarks.md, one after the other: the tape on 1 and 2 threads (07_mnist), the
# dynamic graph (07_mnist --engine dynamic, on the first 2,000 images for one epoch),
# the generated C in f64 and f32 (09_codegen), JAX in f64 and f32 (mnist_jax.sh) and
# candle in f64 (candle_mnist.sh). Each prints its time per sample-step; the summary at
# the end lists them.
#
# Usage: scripts/compare/mnist.sh [MNIST_DIR (../shared/data/mnist)]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:-../shared/data/mnist}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT

if ! python3 -c "import jax" >/dev/null 2>&1; then
    echo "installing jax (CPU)"
    python3 -m pip install --quiet jax
fi
echo "== building the examples and the candle program (release)"
cargo build --quiet --release --examples
CARGO_TARGET_DIR=target/candle_mnist cargo build --quiet --release \
    --manifest-path scripts/compare/candle_mnist/Cargo.toml
echo "== machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
echo "== commit $(git rev-parse --short HEAD), load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

run() {
    local name="$1"
    shift
    echo "== $name"
    "$@" 2>&1 | tee -a "$log" | grep -E "per sample-step|^final|accuracy [0-9.]+%$" || true
    printf '%-28s %s\n' "$name" "$(grep -Eo '[0-9.]+ µs per sample-step' "$log" | tail -1)" >>"$log.summary"
}
: >"$log.summary"
ex=target/release/examples
run "tape, 1 thread" "$ex/07_mnist" --data "$dir" --holdout 2000 --threads 1
run "tape, 2 threads" "$ex/07_mnist" --data "$dir" --holdout 2000 --threads 2
run "dynamic graph (2,000 x 1)" "$ex/07_mnist" --data "$dir" --holdout 2000 --engine dynamic \
    --limit 2000 --epochs 1
run "generated C, f64" "$ex/09_codegen" --data "$dir" --holdout 2000
run "generated C, f32" "$ex/09_codegen" --data "$dir" --holdout 2000 --precision f32 \
    --out target/09_codegen_f32
run "JAX, f64" python3 scripts/compare/mnist_jax.py "$dir" f64
run "JAX, f32" python3 scripts/compare/mnist_jax.py "$dir" f32
run "candle, f64" target/candle_mnist/release/candle_mnist "$dir"
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== per sample-step"
cat "$log.summary"
rm -f "$log.summary"

#!/usr/bin/env bash
# 07_mnist's job in JAX (jax.jit of the whole step, CPU), in f64 and f32: installs JAX
# with pip if it is missing, then runs scripts/compare/mnist_jax.py twice. The numbers
# go in docs/benchmarks.md beside 07_mnist's.
#
# Usage: scripts/compare/mnist_jax.sh [MNIST_DIR (../shared/data/mnist)] [EPOCHS (5)]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:-../shared/data/mnist}"
epochs="${2:-5}"
if ! python3 -c "import jax" >/dev/null 2>&1; then
    echo "installing jax (CPU)"
    python3 -m pip install --quiet jax
fi
echo "== load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
for precision in f64 f32; do
    echo "== JAX, $precision"
    python3 scripts/compare/mnist_jax.py "$dir" "$precision" "$epochs"
done
echo "== load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"

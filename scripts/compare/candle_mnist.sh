#!/usr/bin/env bash
# 07_mnist's job in candle (candle-nn, CPU, f64): builds scripts/compare/candle_mnist, a
# small cargo project outside the crate's workspace (candle comes from crates.io; its
# first build takes several minutes), and runs it.
#
# Usage: scripts/compare/candle_mnist.sh [MNIST_DIR (../shared/data/mnist)] [EPOCHS (5)]
set -euo pipefail
cd "$(dirname "$0")/../.."
dir="${1:-../shared/data/mnist}"
epochs="${2:-5}"
manifest=scripts/compare/candle_mnist/Cargo.toml
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/candle_mnist}"
echo "== building scripts/compare/candle_mnist (release)"
cargo build --quiet --release --manifest-path "$manifest"
echo "== load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
"$CARGO_TARGET_DIR/release/candle_mnist" "$dir" "$epochs"
echo "== load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"

#!/usr/bin/env bash
# micrograd side by side with the fastest Rust peer, mickvangelderen/micrograd-rs (an
# index-arena tape), in one run, interleaved: micrograd's demo step (graph rebuilt every
# step including its drop, and built once) and the chain `y = y * 1.0` of 1,000,000
# links (build + backward + drop, per link). Optionally Python micrograd 0.1.0 as well.
#
# Usage: scripts/compare/peer.sh PEER_CHECKOUT [STEPS (100)] [LINKS (1000000)] [ROUNDS (5)]
#        PYTHON_STEPS=3 scripts/compare/peer.sh ...   also time Python micrograd's step
#                                                     (~1.5-4 s each) and try its chain
#
# PEER_CHECKOUT is a checkout of https://github.com/mickvangelderen/micrograd-rs. The
# script writes a throwaway cargo project in a temporary directory that depends on the
# peer and on this crate by path and builds scripts/compare/peer_bench/main.rs (our program,
# written with each crate's public API; none of the peer's code is copied) in release
# mode. Needs crates.io for the peer's dependencies (rand 0.9, split-spare).
set -euo pipefail
if [ $# -lt 1 ] || [ ! -f "$1/Cargo.toml" ]; then
    echo "usage: $0 PEER_CHECKOUT [STEPS] [LINKS] [ROUNDS]  (a checkout of github.com/mickvangelderen/micrograd-rs)" >&2
    exit 2
fi
peer="$(cd "$1" && pwd)"
shift
repo="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cat > "$tmp/Cargo.toml" <<TOML
[package]
name = "peer_bench"
version = "0.0.0"
edition = "2021"
publish = false

[[bin]]
name = "peer_bench"
path = "$repo/scripts/compare/peer_bench/main.rs"

[dependencies]
micrograd = { path = "$repo" }
micrograd-rs = { path = "$peer" }

[profile.release]
debug = false

[workspace]
TOML

echo "== building scripts/compare/peer_bench (release) against $peer"
echo "   peer at $(git -C "$peer" rev-parse --short HEAD 2>/dev/null || echo '(not a git checkout)'), micrograd at $(git -C "$repo" rev-parse --short HEAD)"
CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$tmp/target}" cargo build --quiet --release --manifest-path "$tmp/Cargo.toml"
echo "== load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
"${CARGO_TARGET_DIR:-$tmp/target}/release/peer_bench" "$@"
echo "== load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"

if [ -n "${PYTHON_STEPS:-}" ]; then
    if ! python3 -c 'import importlib.metadata as m, sys; sys.exit(m.version("micrograd") != "0.1.0")' 2>/dev/null; then
        python3 -m pip install --quiet micrograd==0.1.0
    fi
    echo "== Python micrograd 0.1.0, the demo step ($PYTHON_STEPS steps; graph freed by Python when the next step rebinds it)"
    python3 "$repo/scripts/compare/moons_step_python.py" "$PYTHON_STEPS" | tail -1
    echo "== Python micrograd 0.1.0, the chain y = y * 1.0 (backward's build_topo recurses)"
    python3 - <<'PY'
from micrograd.engine import Value
for n in (500, 1000, 2000, 1_000_000):
    x = Value(1.0); y = x
    for _ in range(n):
        y = y * 1.0
    try:
        y.backward()
        print(f"{n} links: backward ok")
    except RecursionError:
        print(f"{n} links: RecursionError (Python's default recursion limit is 1000)")
        break
PY
fi

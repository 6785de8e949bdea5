#!/usr/bin/env bash
# The engine before and after a change, in turn: builds scripts/compare/engine_ab/main.rs (as it
# is in the working tree) against two revisions of this crate, release mode, and runs
# each workload as a whole process, A then B, PAIRS times. Prints each run's CPU seconds
# (user + system, from /usr/bin/time), then per workload the medians and the median of
# the pairs' ratios A/B (pairing keeps the ratio meaningful when the machine's speed
# drifts during the run).
#
# With `instructions` in place of PAIRS, runs each workload once per side, smaller, under
# `valgrind --tool=cachegrind --cache-sim=no` and prints the instructions each took and
# their ratio A/B: a count that the machine's noise does not move. Both sides are then
# built as one codegen unit (CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 unless it is set):
# with the default sixteen, how the crate is split can inline a function on one side
# and not the other, which moved a count by 2% with no change to the code it ran.
#
# Usage: scripts/compare/engine_ab.sh REV_A REV_B [PAIRS (7) | instructions]
#   e.g. scripts/compare/engine_ab.sh main HEAD
set -euo pipefail
if [ $# -lt 2 ]; then
    echo "usage: $0 REV_A REV_B [PAIRS]" >&2
    exit 2
fi
repo="$(cd "$(dirname "$0")/../.." && pwd)"
pairs="${3:-7}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if [ "$pairs" = instructions ]; then
    export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-1}"
fi

for side in A B; do
    rev=$([ "$side" = A ] && echo "$1" || echo "$2")
    mkdir -p "$tmp/$side" "$tmp/crate-$side"
    git -C "$repo" archive "$rev" | tar -x -C "$tmp/crate-$side"
    cat > "$tmp/$side/Cargo.toml" <<TOML
[package]
name = "engine_ab"
version = "0.0.0"
edition = "2021"
publish = false

[[bin]]
name = "engine_ab"
path = "$repo/scripts/compare/engine_ab/main.rs"

[dependencies]
micrograd = { path = "../crate-$side", default-features = false }

[workspace]
TOML
    echo "== building $side = $rev ($(git -C "$repo" rev-parse --short "$rev"))"
    cargo build --quiet --release --manifest-path "$tmp/$side/Cargo.toml" \
        --target-dir "$tmp/target-$side"
done

if [ "$pairs" = instructions ]; then
    count() { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 \
        | awk '/I *refs/ { gsub(",", "", $NF); print $NF }'; }
    for work in "moons 200" "tape 3000" "chain 1" "deep 1"; do
        # shellcheck disable=SC2086
        a=$(count "$tmp/target-A/release/engine_ab" $work)
        # shellcheck disable=SC2086
        b=$(count "$tmp/target-B/release/engine_ab" $work)
        awk -v w="$work" -v a="$a" -v b="$b" \
            'BEGIN { printf "%s: A %.1fM, B %.1fM instructions, A/B %.3f\n", w, a / 1e6, b / 1e6, a / b }'
    done
    exit 0
fi

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
cpu() { /usr/bin/time -f "%U %S" "$@" 2>&1 >/dev/null | tail -1 | awk '{ print $1 + $2 }'; }

echo "== load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for work in "moons 2000" "tape 30000" "chain 10" "deep 2"; do
    : > "$tmp/a"; : > "$tmp/b"; : > "$tmp/r"
    for _ in $(seq "$pairs"); do
        # shellcheck disable=SC2086
        a=$(cpu "$tmp/target-A/release/engine_ab" $work)
        # shellcheck disable=SC2086
        b=$(cpu "$tmp/target-B/release/engine_ab" $work)
        echo "$a" >> "$tmp/a"; echo "$b" >> "$tmp/b"
        awk -v a="$a" -v b="$b" 'BEGIN { print a / b }' >> "$tmp/r"
    done
    echo "$work: A $(tr '\n' ' ' < "$tmp/a")| B $(tr '\n' ' ' < "$tmp/b")"
    echo "$work: median A $(median < "$tmp/a") s, B $(median < "$tmp/b") s, A/B $(median < "$tmp/r")"
done
echo "== load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

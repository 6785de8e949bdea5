#!/usr/bin/env bash
# Proves the exercises (exercises/) both ways, as .ci/run runs it:
# - every test file has its exercise (yours/), its solution (solutions/) and its entry in
#   the runner's list, and there are at least 14;
# - with the reference solutions (`--features solutions`) every exercise passes;
# - as shipped, the stubs compile and every exercise fails, each one run on its own
#   (`--test NN_name`), by a failing test (not a crash, not a compiler error);
# - the runner says so: all done with the solutions, none as shipped.
# Usage: scripts/ci/check_exercises.sh   (from anywhere)
set -euo pipefail
cd "$(dirname "$0")/../.."
export RUST_BACKTRACE=0

fail() { printf 'FAIL %s\n' "$*"; exit 1; }

names=$(cd exercises/tests && ls -- *.rs | sed 's/\.rs$//')
count=$(printf '%s\n' "$names" | wc -l)
[ "$count" -ge 14 ] || fail "only $count exercises (at least 14)"
for n in $names; do
  [ -f "exercises/yours/$n.rs" ] || fail "$n: no exercises/yours/$n.rs"
  [ -f "exercises/solutions/$n.rs" ] || fail "$n: no exercises/solutions/$n.rs"
  grep -q "name: \"$n\"" exercises/src/catalog.rs || fail "$n: not in exercises/src/catalog.rs"
done
listed=$(grep -c 'name: "' exercises/src/catalog.rs)
[ "$listed" -eq "$count" ] || fail "the runner lists $listed exercises, exercises/tests/ has $count"
echo "ok   $count exercises, each with its file, its solution and its place in the runner"

cargo test -q -p micrograd-exercises --features solutions
echo "ok   with the solutions, every exercise passes"

cargo build -q -p micrograd-exercises --tests
for n in $names; do
  if out=$(cargo test -q -p micrograd-exercises --test "$n" 2>&1); then
    fail "$n passes as shipped: its stub must fail"
  fi
  grep -q '^test result: FAILED' <<<"$out" || fail "$n fails as shipped, but not by a test: $out"
done
echo "ok   as shipped, every exercise compiles and fails, each on its own"

out=$(cargo run -q -p micrograd-exercises --features solutions 2>/dev/null)
grep -q "^All $count exercises pass" <<<"$out" || fail "the runner with the solutions: $out"
out=$(cargo run -q -p micrograd-exercises 2>/dev/null)
grep -q "^0 of $count done. Next: 01_" <<<"$out" || fail "the runner as shipped: $out"
[ "$(grep -c '✗' <<<"$out")" -eq "$count" ] || fail "the runner as shipped does not mark all ✗: $out"
echo "ok   the runner lists all $count: every one done with the solutions, none as shipped"

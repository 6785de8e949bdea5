"""The per-op results of `cargo bench --bench engine -- op/` as a Markdown table.

Reads criterion's medians (target/criterion/op_<name>/<phase>/new/estimates.json) and
prints ns per node of build, backward and drop for each op, as in docs/benchmarks.md.
Run: python3 scripts/compare/engine_ops_table.py   (after the bench, from the crate root)
"""
import json
import os

OP_NODES = 100_000  # benches/engine.rs: OP_NODES
OPS = ["add", "sub", "mul", "div", "relu", "leaky_relu", "tanh", "sigmoid", "exp_ln",
       "powf", "pow", "sqrt", "abs", "sum"]
PHASES = ["build", "backward", "drop"]


def ns_per_node(op, phase):
    path = f"target/criterion/op_{op}/{phase}/new/estimates.json"
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)["median"]["point_estimate"] / OP_NODES


print("| op | build | backward | drop | total |")
print("|----|------:|---------:|-----:|------:|")
for op in OPS:
    ns = [ns_per_node(op, phase) for phase in PHASES]
    cells = ["-" if n is None else f"{n:.1f}" for n in ns]
    total = "-" if None in ns else f"{sum(ns):.1f}"
    print(f"| {op} | " + " | ".join(cells) + f" | {total} |")

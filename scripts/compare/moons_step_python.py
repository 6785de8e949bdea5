"""Times micrograd's demo.ipynb training step with Python micrograd 0.1.0.

The same computation as `examples/03_moons.rs`: moons100 (read from the crate's
src/data/moons100.csv, so numpy and sklearn are not needed), random.seed(1337),
MLP(2, [16, 16, 1]), SVM max-margin loss + 1e-4 L2, SGD with lr = 1.0 - 0.9*k/100.
A step is: build the loss graph, zero_grad, backward, update.

Usage: python3 scripts/compare/moons_step_python.py [STEPS]
Prints each step's loss, then `python median_step_us <median>` (microseconds).
"""
import csv, os, random, statistics, sys, time
from micrograd.engine import Value
from micrograd.nn import MLP

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "..", "..", "src", "data", "moons100.csv")) as f:
    rows = list(csv.DictReader(f))
X = [[float(r["x0"]), float(r["x1"])] for r in rows]
y = [float(r["y"]) for r in rows]

random.seed(1337)
model = MLP(2, [16, 16, 1])

def loss():
    inputs = [list(map(Value, xrow)) for xrow in X]
    scores = list(map(model, inputs))
    losses = [(1 + -yi * si).relu() for yi, si in zip(y, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = 1e-4 * sum((p * p for p in model.parameters()))
    return data_loss + reg_loss

times = []
for k in range(steps):
    start = time.perf_counter()
    total = loss()
    model.zero_grad()
    total.backward()
    lr = 1.0 - 0.9 * k / 100
    for p in model.parameters():
        p.data -= lr * p.grad
    times.append(time.perf_counter() - start)
    print(f"step {k} loss {total.data!r}", flush=True)
print(f"python median_step_us {statistics.median(times) * 1e6:.1f}")

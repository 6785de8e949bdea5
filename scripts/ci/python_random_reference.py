"""Numbers that CPython's `random` module draws, for tests/15_python_random.rs.

Run: python3 scripts/ci/python_random_reference.py  (output kept in python_random_reference.out;
.ci/run checks that it still matches)
For each seed: the first five `random.random()` values, then (after re-seeding) the first
three `random.uniform(-1, 1)` values, then (after re-seeding) the first three
`getrandbits(32)` words (the raw MT19937 outputs), all as repr() so they round-trip.
"""
import random

for seed in [0, 1, 1337, 2**40 + 5, -1337]:
    random.seed(seed)
    rs = [random.random() for _ in range(5)]
    random.seed(seed)
    us = [random.uniform(-1, 1) for _ in range(3)]
    random.seed(seed)
    ws = [random.getrandbits(32) for _ in range(3)]
    print(f"seed {seed}")
    print("  random: " + ", ".join(repr(v) for v in rs))
    print("  uniform(-1, 1): " + ", ".join(repr(v) for v in us))
    print("  u32: " + ", ".join(repr(v) for v in ws))

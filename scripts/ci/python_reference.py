"""Numbers that Python micrograd 0.1.0 prints, for tests/05_python_crosscheck.rs.

Run: pip install micrograd==0.1.0 && python3 scripts/ci/python_reference.py
Its output is committed as scripts/ci/python_reference.out; .ci/run checks they agree.
Each line is `name: value, value, ...` with repr() floats; the Rust test quotes them.
"""
import math

from micrograd.engine import Value


def show(name, *vals):
    print(f"{name}: " + ", ".join(repr(v) for v in vals))


# every op micrograd has, at one point: forward value and gradients
a, b = Value(1.5), Value(-2.25)
for name, f in [
    ("add", lambda: a + b), ("sub", lambda: a - b), ("mul", lambda: a * b),
    ("div", lambda: a / b), ("neg", lambda: -a), ("radd", lambda: 3.0 + a),
    ("rsub", lambda: 3.0 - a), ("rmul", lambda: 3.0 * a), ("rdiv", lambda: 3.0 / a),
    ("pow", lambda: a ** 3), ("pow_neg", lambda: a ** -0.5), ("relu_pos", lambda: a.relu()),
    ("relu_neg", lambda: b.relu()),
]:
    a.grad = b.grad = 0
    y = f()
    y.backward()
    show(name, y.data, a.grad, b.grad)

# backward() twice on the same graph, without zero_grad
x = Value(3.0)
y = (x * 2) * 5
y.backward()
first = x.grad
y.backward()
show("twice", first, x.grad)

# reuse: a*a, b = a + a; c = b + b, a diamond
a = Value(-3.0); y = a * a; y.backward(); show("square", y.data, a.grad)
a = Value(-3.0); b = a + a; c = b + b; c.backward(); show("double_double", c.data, a.grad)
a = Value(2.0); l = a * 3; r = a ** 2; d = l * r; d.backward(); show("diamond", d.data, a.grad)

# backward() twice through - and / (a = 3, b = 2): Python builds a - b as a + (b * -1)
# and a / b as a * b**-1, and those hidden nodes keep their grads from the first call
for name, f in [("twice_sub", lambda a, b: a - b), ("twice_div", lambda a, b: a / b)]:
    a, b = Value(3.0), Value(2.0)
    y = f(a, b)
    y.backward()
    first = (a.grad, b.grad)
    y.backward()
    show(name, *first, a.grad, b.grad)

# backward() twice through sum() and math.prod: Python's sum() is a chain of + nodes
# from 0, math.prod one of * nodes from 1, and those hidden nodes keep their grads too
a, b, c = Value(1.0), Value(2.0), Value(3.0)
y = sum([a, b, c])
y.backward()
y.backward()
show("twice_sum", a.grad, b.grad, c.grad)
a, b, c = Value(2.0), Value(3.0), Value(4.0)
y = math.prod([a, b, c])
y.backward()
y.backward()
show("twice_prod", a.grad, b.grad, c.grad)

# the lecture's neuron, o = tanh(x1*w1 + x2*w2 + b), with the lecture's tanh method
# (micrograd 0.1.0 has no tanh; this is the lecture's, with math.tanh)

def tanh(self):
    t = math.tanh(self.data)
    out = Value(t, (self,), 'tanh')

    def _backward():
        self.grad += (1 - t**2) * out.grad
    out._backward = _backward
    return out


x1, x2, w1, w2 = Value(2.0), Value(0.0), Value(-3.0), Value(1.0)
b = Value(6.8813735870195432)
n = x1 * w1 + x2 * w2 + b
o = tanh(n)
o.backward()
show("lecture_neuron", o.data, n.grad, x1.grad, w1.grad, x2.grad, w2.grad)

# repr() on exact ties, for Value's Debug (src/repr.rs; tests/05_python_crosscheck.rs).
# Each float below lies exactly halfway between the two shortest decimals that read back
# as it; repr picks the even one (David Gay's dtoa), where the shortest-digits algorithm
# of Rust's `{:e}` picks the upper one. The first was met in a test; the others are every tie
# found by drawing up to 20,000 floats with 20 random mantissa bits (random.seed(9)) at
# each binary exponent from -60 to 59, keeping the first at each (one is negated to cover
# the sign). Printed: the float's exact decimal value, then repr.
from decimal import Decimal

for h in ["0x1.3107cc8737205p+50", "0x1.2000000000000p-20", "0x1.6800000000000p-17",
          "0x1.b400000000000p-16", "0x1.5a00000000000p-14", "0x1.3100000000000p-13",
          "0x1.5c80000000000p-11", "0x1.0840000000000p-10", "0x1.f620000000000p-9",
          "0x1.ad50000000000p-7", "0x1.a308000000000p-6", "0x1.7e94000000000p-4",
          "0x1.a262000000000p-3", "0x1.6ca5000000000p-1", "0x1.d0c6800000000p+0",
          "0x1.8c54400000000p+1", "0x1.7a97a00000000p+3"]:
    x = -float.fromhex(h) if h == "0x1.5a00000000000p-14" else float.fromhex(h)
    print(f"tie: {Decimal(x)} {x!r}")

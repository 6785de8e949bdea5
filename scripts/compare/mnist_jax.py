"""The job of examples/07_mnist.rs in JAX: MLP 784-32-10 (ReLU), softmax cross-entropy,
Adam (lr 0.002, betas 0.9 and 0.999, eps 1e-8), batch 32, 5 epochs on the first 8,000
images of MNIST's 10k test set, tested on its last 2,000. The whole training step
(forward, backward, Adam's update) is one jax.jit function, run on the CPU.

Prints the time per sample-step (training time / (epochs x training images), as 07_mnist
does; the first step, which compiles, is timed apart) and the held-out accuracy.

Usage: python3 mnist_jax.py MNIST_DIR [f64|f32] [EPOCHS (5)]
Run by scripts/compare/mnist_jax.sh, which installs JAX if it is missing.
"""

import gzip
import sys
import time

import numpy as np

DIR = sys.argv[1]
PRECISION = sys.argv[2] if len(sys.argv) > 2 else "f64"
EPOCHS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
TRAIN, BATCH, LR = 8000, 32, 0.002

import jax  # noqa: E402  (x64 must be set before any array is made)

jax.config.update("jax_enable_x64", PRECISION == "f64")
jax.config.update("jax_platforms", "cpu")
import jax.numpy as jnp  # noqa: E402

DTYPE = jnp.float64 if PRECISION == "f64" else jnp.float32


def idx(name, offset):
    with gzip.open(f"{DIR}/{name}", "rb") as f:
        return np.frombuffer(f.read(), dtype=np.uint8, offset=offset)


images = idx("t10k-images-idx3-ubyte.gz", 16).reshape(-1, 784).astype(np.float64) / 255.0
labels = idx("t10k-labels-idx1-ubyte.gz", 8).astype(np.int32)
train_x, test_x = jnp.asarray(images[:TRAIN], DTYPE), jnp.asarray(images[TRAIN:], DTYPE)
train_y, test_y = jnp.asarray(labels[:TRAIN]), jnp.asarray(labels[TRAIN:])

# micrograd's neurons: weights uniform in [-1, 1] (scaled by 1/sqrt(inputs), as
# 07_mnist scales them), biases 0.
rng = np.random.default_rng(0)
params = [
    jnp.asarray(rng.uniform(-1, 1, (784, 32)) / np.sqrt(784), DTYPE),
    jnp.zeros(32, DTYPE),
    jnp.asarray(rng.uniform(-1, 1, (32, 10)) / np.sqrt(32), DTYPE),
    jnp.zeros(10, DTYPE),
]


def forward(params, x):
    w1, b1, w2, b2 = params
    return jnp.maximum(x @ w1 + b1, 0.0) @ w2 + b2


def loss_fn(params, x, y):
    logp = jax.nn.log_softmax(forward(params, x))
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


@jax.jit
def step(params, m, v, t, idx):
    x, y = train_x[idx], train_y[idx]
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    t = t + 1
    b1, b2, eps = 0.9, 0.999, 1e-8
    m = [b1 * mi + (1 - b1) * g for mi, g in zip(m, grads)]
    v = [b2 * vi + (1 - b2) * g * g for vi, g in zip(v, grads)]
    mhat = [mi / (1 - b1**t) for mi in m]
    vhat = [vi / (1 - b2**t) for vi in v]
    params = [p - LR * mh / (jnp.sqrt(vh) + eps) for p, mh, vh in zip(params, mhat, vhat)]
    return params, m, v, t, loss


m = [jnp.zeros_like(p) for p in params]
v = [jnp.zeros_like(p) for p in params]
t = jnp.asarray(0, DTYPE)
order = np.arange(TRAIN)
batches = [order[i : i + BATCH] for i in range(0, TRAIN, BATCH)]

start = time.perf_counter()
jax.block_until_ready(step(params, m, v, t, jnp.asarray(batches[0])))
print(f"compiling the step: {time.perf_counter() - start:.2f} s")

training = 0.0
for epoch in range(1, EPOCHS + 1):
    rng.shuffle(order)
    batches = [jnp.asarray(order[i : i + BATCH]) for i in range(0, TRAIN, BATCH)]
    start = time.perf_counter()
    losses = []
    for idx_batch in batches:
        params, m, v, t, loss = step(params, m, v, t, idx_batch)
        losses.append(loss)
    jax.block_until_ready(params)
    training += time.perf_counter() - start
    right = jnp.sum(jnp.argmax(forward(params, test_x), axis=1) == test_y)
    mean = float(jnp.mean(jnp.stack(losses)))
    print(f"epoch {epoch} loss {mean:.6f}, accuracy {100 * int(right) / len(test_y):.2f}%")

per_sample = 1e6 * training / (EPOCHS * TRAIN)
print(f"jax {jax.__version__} {PRECISION}: training {training:.1f} s, {per_sample:.2f} µs per sample-step")

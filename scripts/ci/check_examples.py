"""Runs the examples as a user would and checks what they promise (run by .ci/run).

- 03_moons prints, step for step, the losses (to 2e-14 relative) and accuracies of
  Python micrograd's demo trace (the table in tests/common/demo_trace.rs, or
  ../shared/reference/micrograd_demo_trace.txt when it is there) and reaches 100%, with
  either engine (`--engine dynamic`, the default, and `--engine tape`).
- Every training example ends with one `final step=<k> loss=<loss> accuracy=<pct>%` line.
- 05_adam_toy ends below a loss of 1e-3.
- Bad flags, bad paths and bad files end with `error: ...` and exit status 1, no panic;
  a file that cannot be read is named with the operating system's reason, once.
- Every example answers `--help` with exit status 0 and its flags, each with its default
  in brackets.
- With ../shared/data present: 10_iris reaches 95% held-out accuracy through the tape
  and prints the same held-out numbers through the dynamic graph; 06_digits reaches 95%
  held-out accuracy, and 07_mnist
  (through the tape, its default) 92% on the last 2,000 images of MNIST's test set;
  both print the same `final` line with `--threads 1` and `--threads 2` (a short run),
  and the time `.. µs per sample-step`.
- With ../shared/data present, 11_microcontroller (a short run) trains MNIST, runs its
  inference C on every held-out image (same classes as the tape, or it fails) and, when
  arm-none-eabi-gcc is installed, prints the Cortex-M4 image's `ram_bytes` (at most
  4,096) and `flash_bytes`.

- No example writes through a symbolic link planted where it writes (its default
  output in the temp dir, a path given to it, a file in its --out folder), and none
  preallocates from a flag (03_moons --steps 1000000000000 trains; it does not abort).

Usage: python3 scripts/ci/check_examples.py [--debug] [CHECK ...]
(after `cargo build --release --examples`, or `cargo build --examples` with --debug;
CHECK names one of the functions below, e.g. bad_inputs; all of them by default)
"""
import gzip
import os
import re
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARGS = sys.argv[1:]
PROFILE = "debug" if "--debug" in ARGS else "release"
BIN = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), PROFILE,
                   "examples")
SHARED = os.path.join(os.path.dirname(ROOT), "shared")
FINAL = re.compile(r"^final step=(\d+) loss=(\S+)( accuracy=(\S+)%)?$")
STEP = re.compile(r"^step (\d+) loss (\S+), accuracy (\S+)%$")
failures = []


def run(name, *args, env=None):
    proc = subprocess.run([os.path.join(BIN, name), *args], capture_output=True, text=True,
                          timeout=1800, env=None if env is None else {**os.environ, **env})
    return proc.returncode, proc.stdout, proc.stderr


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def final_line(name, out):
    last = out.strip().splitlines()[-1] if out.strip() else ""
    m = FINAL.match(last)
    check(m is not None, f"{name}: last line is `final step=.. loss=.. ...` (got {last!r})")
    return m


def reference_trace():
    """(loss, accuracy) per step of Python micrograd's demo."""
    path = os.path.join(SHARED, "reference", "micrograd_demo_trace.txt")
    if os.path.exists(path):
        text = open(path).read()
    else:  # the same numbers, as quoted in the test
        test = open(os.path.join(ROOT, "tests", "common", "demo_trace.rs")).read()
        text = "\n".join(f"step {k} loss {l}, accuracy {a}%" for k, (l, a) in
                         enumerate(re.findall(r"\(\s*([0-9.e-]+),\s*([0-9.]+)\s*\)", test)))
    return [(float(m.group(2)), float(m.group(3)))
            for m in map(STEP.match, text.splitlines()) if m]


def moons():
    for engine in ["dynamic", "tape"]:
        name = f"03_moons --engine {engine}"
        svg = os.path.join(tempfile.gettempdir(), "m.svg")
        code, out, err = run("03_moons", "--svg", svg, "--engine", engine)
        check(code == 0, f"{name} exits 0 ({err.strip()[-200:]})")
        steps = [m for m in map(STEP.match, out.splitlines()) if m]
        ref = reference_trace()
        check(len(ref) == 100 and len(steps) == 100, f"{name} prints 100 steps like Python")
        worst = max(abs(float(m.group(2)) - l) / abs(l) for m, (l, _) in zip(steps, ref))
        # README: "the same losses to 2e-14" (1.5e-14 measured, either engine)
        check(worst <= 2e-14, f"{name} losses match Python to 2e-14 relative (worst {worst:.1e})")
        check(all(float(m.group(3)) == a for m, (_, a) in zip(steps, ref)),
              f"{name} accuracies match Python exactly")
        m = final_line(name, out)
        check(m is not None and m.group(4) == "100.0", f"{name} reaches 100% accuracy")


def small_examples():
    for name in ["08_lecture", "05_adam_toy"]:
        code, out, _ = run(name)
        check(code == 0, f"{name} exits 0")
        m = final_line(name, out)
        if name == "05_adam_toy" and m:
            check(float(m.group(2)) < 1e-3, f"05_adam_toy final loss {m.group(2)} < 1e-3")


def lecture_backprop():
    """04_lecture_backprop prints the lecture's gradients, the same three ways."""
    dot = os.path.join(tempfile.mkdtemp(), "neuron.dot")
    code, out, _ = run("04_lecture_backprop", "--dot", dot)
    check(code == 0, "04_lecture_backprop exits 0")
    # Python micrograd with the lecture's tanh: scripts/ci/python_reference.out, lecture_neuron
    want = "x1.grad = -1.4999999999999993, w1.grad = 0.9999999999999996"
    check(out.count(want) == 3, "04_lecture_backprop: x1, w1 grads by hand, in topo order, by backward()")
    # Python: the lecture's lol() with h = 0.001, (L2 - L1)/h for a (scripts/ci/python_reference.out
    # has no such line; it is plain float arithmetic: ((2.001*-3 + 10) * -2 - -8) / 0.001)
    check("lol(), a nudged: (L2 - L1)/h = 6.000000000000227" in out,
          "04_lecture_backprop: lol() prints Python's (L2 - L1)/h for a at h = 0.001")
    check("L = -7.286496" in out, "04_lecture_backprop: one nudge gives the lecture's L = -7.286496")
    check(os.path.exists(dot) and open(dot).read().startswith("digraph"), "04_lecture_backprop --dot writes DOT")


def bad_inputs():
    tmp = tempfile.mkdtemp()
    bad_csv = os.path.join(tmp, "bad.csv")
    with open(bad_csv, "w") as f:
        f.write("x0,x1,y\n0.5,0.25,1\n0.5,oops,-1\n")
    empty_dir = os.path.join(tmp, "empty")
    os.mkdir(empty_dir)
    # One blank 28x28 image labelled 10: not an MNIST digit.
    letters = os.path.join(tmp, "letters")
    os.mkdir(letters)
    with open(os.path.join(letters, "t10k-images-idx3-ubyte"), "wb") as f:
        f.write(bytes([0, 0, 8, 3, 0, 0, 0, 1, 0, 0, 0, 28, 0, 0, 0, 28]) + bytes(784))
    with open(os.path.join(letters, "t10k-labels-idx1-ubyte"), "wb") as f:
        f.write(bytes([0, 0, 8, 1, 0, 0, 0, 1, 10]))
    # Four flowers, the last one's class each of these labels in turn (only 1 is a class).
    flowers = "5.1,3.5,1.4,0.2,0\n4.9,3.0,1.4,0.2,1\n4.7,3.2,1.3,0.2,2\n4.6,3.1,1.5,0.2,"
    iris = {}
    for label in ["1", "2.5", "3", "-1"]:
        iris[label] = os.path.join(tmp, f"iris{label}.csv")
        with open(iris[label], "w") as f:
            f.write(flowers + label + "\n")
    cases = [
        ("03_moons", ["--data", os.path.join(tmp, "missing.csv")],
         "missing.csv: No such file or directory"),
        ("03_moons", ["--data", bad_csv], "bad.csv:3:2"),
        ("03_moons", ["--steps", "0"], "--steps"),
        ("03_moons", ["--no-such-flag"], "usage"),
        ("06_digits", ["--data", os.path.join(tmp, "missing.csv")], "missing.csv"),
        ("07_mnist", ["--data", empty_dir], "empty"),
        ("07_mnist", ["--data", empty_dir, "--holdout", "x"], "--holdout"),
        ("07_mnist", ["--data", letters, "--holdout", "1"], "label 10 of sample 0"),
        ("11_microcontroller", ["--data", empty_dir], "empty"),
        ("11_microcontroller", ["--precision", "f16"], "--precision"),
        ("03_moons", ["--engine", "fast"], "--engine"),
        ("04_lecture_backprop", ["--h", "0"], "--h"),
        ("04_lecture_backprop", ["--dot", os.path.join(tmp, "no", "such", "dir.dot")], "does not exist"),
        ("10_iris", ["--data", iris["2.5"], "--holdout", "1", "--epochs", "1"], "sample 3 (counting from 0) has the label 2.5"),
        ("10_iris", ["--data", iris["3"], "--holdout", "1", "--epochs", "1"], "sample 3 (counting from 0) has the label 3"),
        ("10_iris", ["--data", iris["-1"], "--holdout", "1", "--epochs", "1"], "sample 3 (counting from 0) has the label -1"),
        ("10_iris", ["--data", iris["1"], "--holdout", "4"], "--holdout 4 leaves nothing to train on"),
        ("10_iris", ["--data", iris["1"], "--holdout", "0"], "--holdout 0"),
        ("02_trace_graph", ["--out", tmp, "--out", empty_dir], "unexpected argument \"--out\""),
        ("02_trace_graph", ["--out", "--html", os.path.join(tmp, "p.html")], "--out needs a path"),
    ]
    _, _, err = run("03_moons", "--data", os.path.join(tmp, "missing.csv"))
    check(err.count("No such file") == 1, f"the OS reason is printed once ({err.strip()!r})")
    for name, args, needle in cases:
        code, _, err = run(name, *args)
        ok = code == 1 and err.startswith("error:") and needle in err and "panicked" not in err
        check(ok, f"{name} {' '.join(args)}: exit 1 with a clear message ({err.strip()[:160]!r})")


EXAMPLES = ["01_value", "02_trace_graph", "03_moons", "05_adam_toy", "06_digits",
            "07_mnist", "08_lecture", "09_codegen", "10_iris", "11_microcontroller"]


def help_texts():
    for name in EXAMPLES:
        code, out, err = run(name, "--help")
        flags = [line for line in out.splitlines() if line.strip().startswith("--")]
        ok = (code == 0 and out.startswith(f"usage: {name}") and "--help" in out
              and not err)
        check(ok, f"{name} --help: exit 0 and a usage line ({out[:60]!r}, {err[:60]!r})")
        # each flag's line, or the line after it, ends with its default in brackets
        lines = out.splitlines()
        without = [l.split()[0] for l in flags
                   if not (l.rstrip().endswith("]")
                           or lines[lines.index(l) + 1].rstrip().endswith("]"))]
        check(not without, f"{name} --help gives every flag's default (missing: {without})")


def digits():
    data = os.path.join(SHARED, "data", "digits.csv.gz")
    if not os.path.exists(data):
        print("skip 06_digits: no ../shared/data/digits.csv.gz")
        return
    code, out, _ = run("06_digits", "--data", data)
    check(code == 0, "06_digits exits 0")
    m = final_line("06_digits", out)
    check(m is not None and float(m.group(4)) >= 95.0, "06_digits held-out accuracy >= 95%")


def mnist():
    data = os.path.join(SHARED, "data", "mnist")
    if not os.path.isdir(data):
        print("skip 07_mnist: no ../shared/data/mnist")
        return
    code, out, _ = run("07_mnist", "--data", data, "--holdout", "2000")
    check(code == 0, "07_mnist exits 0")
    m = final_line("07_mnist", out)
    check(m is not None and float(m.group(4)) >= 92.0, "07_mnist held-out accuracy >= 92%")


def iris():
    """10_iris trains through the tape with the crate's loss, reaches 95% on its held-out
    flowers, and gives the same held-out numbers through the dynamic graph."""
    data = os.path.join(SHARED, "data", "iris.csv")
    if not os.path.exists(data):
        print("skip 10_iris: no ../shared/data/iris.csv")
        return
    code, out, err = run("10_iris", "--data", data)
    check(code == 0, f"10_iris exits 0 ({err.strip()[-200:]})")
    m = final_line("10_iris", out)
    check(m is not None and float(m.group(4)) >= 95.0, "10_iris held-out accuracy >= 95%")
    held = re.findall(r"^held-out, (?:tape|dynamic graph): +(.*)$", out, re.M)
    check(len(held) == 2 and held[0] == held[1], f"10_iris: the tape's held-out numbers are the graph's ({held})")


def same_on_any_threads():
    """06_digits and 07_mnist add up a batch's gradients in a fixed order: every printed
    number is the same for --threads 1 and 2."""
    runs = [("06_digits", ["--data", os.path.join(SHARED, "data", "digits.csv.gz"), "--epochs", "2"]),
            ("10_iris", ["--data", os.path.join(SHARED, "data", "iris.csv"), "--epochs", "20"]),
            ("07_mnist", ["--data", os.path.join(SHARED, "data", "mnist"), "--holdout", "2000",
                          "--limit", "640", "--epochs", "1"])]
    for name, args in runs:
        if not os.path.exists(args[1]):
            print(f"skip {name} --threads: no {args[1]}")
            continue
        outs = [run(name, *args, "--threads", n) for n in ["1", "2"]]
        check(all(code == 0 for code, _, _ in outs), f"{name} --threads 1 and 2 exit 0")
        finals = [final_line(f"{name} --threads {n}", out) for n, (_, out, _) in zip("12", outs)]
        check(all(finals) and finals[0].group(0) == finals[1].group(0),
              f"{name}: the same final line on 1 and 2 threads ({[f and f.group(0) for f in finals]})")
        check(all(re.search(r"[0-9.]+ µs per sample-step", out) for _, out, _ in outs),
              f"{name} prints its time per sample-step in µs")


def codegen():
    """09_codegen writes MNIST's network as C, compiles it with cc and trains it (a quick
    run: one epoch on 2,000 images, which 07_mnist's docs put at 79%)."""
    data = os.path.join(SHARED, "data", "mnist")
    if not os.path.isdir(data):
        print("skip 09_codegen: no ../shared/data/mnist")
        return
    out = tempfile.mkdtemp()
    code, out_text, err = run("09_codegen", "--data", data, "--holdout", "2000", "--limit", "2000",
                              "--epochs", "1", "--out", out)
    check(code == 0, f"09_codegen exits 0 ({err.strip()[-300:]})")
    check(re.search(r"[0-9.]+ \u00b5s per sample-step", out_text) is not None,
          "09_codegen prints the C's time per sample-step")
    m = final_line("09_codegen", out_text)
    check(m is not None and float(m.group(4)) >= 75.0, "09_codegen: the C learns (>= 75% after one short epoch)")
    check(os.path.exists(os.path.join(out, "mnist_train.h")), "09_codegen writes mnist_train.h into --out")
    code, _, err = run("09_codegen", "--data", data, "--precision", "f16", "--out", out)
    check(code == 1 and err.startswith("error:") and "--precision" in err,
          f"09_codegen --precision f16: exit 1 with a clear message ({err.strip()[:160]!r})")


def microcontroller():
    """11_microcontroller trains MNIST's 784-32-10 network (a quick run: one epoch on
    1,000 images), writes its inference C, runs it on the host against the tape (the
    example fails if they disagree) and links a Cortex-M4 image within 4 KB of RAM."""
    data = os.path.join(SHARED, "data", "mnist")
    if not os.path.isdir(data):
        print("skip 11_microcontroller: no ../shared/data/mnist")
        return
    out = tempfile.mkdtemp()
    for precision in ["f32", "f64"]:
        name = f"11_microcontroller --precision {precision}"
        code, text, err = run("11_microcontroller", "--data", data, "--holdout", "500",
                              "--limit", "1000", "--epochs", "1", "--precision", precision,
                              "--out", out)
        check(code == 0, f"{name} exits 0 ({err.strip()[-300:]})")
        m = final_line(name, text)
        check(m is not None and float(m.group(4)) >= 50.0, f"{name}: the C classifies (>= 50%)")
        size = re.search(r"^cortex-m4 ram_bytes=(\d+) flash_bytes=(\d+)$", text, re.M)
        if subprocess.run(["sh", "-c", "command -v arm-none-eabi-gcc"],
                          capture_output=True).returncode == 0:
            limit = 4096 if precision == "f32" else 8192
            check(size is not None and int(size.group(1)) <= limit,
                  f"{name}: a Cortex-M4 image in {limit} bytes of RAM ({size and size.group(0)})")
        else:
            print(f"skip the Cortex-M4 image of {name}: no arm-none-eabi-gcc")
    check(os.path.exists(os.path.join(out, "mnist_infer.h")), "11_microcontroller writes mnist_infer.h")


def batch_above_the_training_set():
    """A --batch-size above the number of training images makes each batch the whole
    training set: the summary line names the batch each step had, not the flag's number
    (06_digits, 07_mnist and 09_codegen's C alike)."""
    digits_csv = os.path.join(SHARED, "data", "digits.csv.gz")
    mnist_dir = os.path.join(SHARED, "data", "mnist")
    runs = [("06_digits", digits_csv, ["--data", digits_csv, "--epochs", "1"]),
            ("07_mnist", mnist_dir, ["--data", mnist_dir, "--holdout", "2000", "--limit", "300",
                                     "--epochs", "1"]),
            ("09_codegen", mnist_dir, ["--data", mnist_dir, "--holdout", "2000", "--limit", "300",
                                       "--epochs", "1", "--out", tempfile.mkdtemp()])]
    for name, data, args in runs:
        if not os.path.exists(data):
            print(f"skip {name} --batch-size 100000: no {data}")
            continue
        code, out, err = run(name, *args, "--batch-size", "100000")
        m = re.search(r"batch (\d+) \(the whole training set; --batch-size 100000\)", out)
        check(code == 0 and m is not None and int(m.group(1)) < 100000
              and "batch 100000" not in out,
              f"{name} --batch-size 100000 names the batch it took ({err.strip()[-200:]!r})")
        if name != "06_digits":
            check(m is not None and m.group(1) == "300", f"{name} --limit 300: batch 300")


def tiny_mnist(dir, gzipped=False):
    """Three blank 28x28 images labelled 1, 2, 3 as train-* IDX files in `dir`; with
    `gzipped`, each file as two gzip members (as `cat a.gz b.gz` makes), named .gz."""
    os.makedirs(dir, exist_ok=True)
    images = struct.pack(">IIII", 0x803, 3, 28, 28) + bytes(3 * 784)
    labels = struct.pack(">II", 0x801, 3) + bytes([1, 2, 3])
    for name, data in [("train-images-idx3-ubyte", images), ("train-labels-idx1-ubyte", labels)]:
        if gzipped:
            half = len(data) // 2
            name, data = name + ".gz", gzip.compress(data[:half]) + gzip.compress(data[half:])
        with open(os.path.join(dir, name), "wb") as f:
            f.write(data)
    return images, labels


def no_planted_links():
    """A link planted where an example writes is never followed into the file it points
    to: not at the old fixed names in the temp dir (TMPDIR), not at a path given to it
    (the link is replaced by the file), not in its --out folder."""
    tmp = tempfile.mkdtemp()
    victim = os.path.join(tmp, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")

    def plant(*parts):
        path = os.path.join(tmp, *parts)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        os.symlink(victim, path)
        return path

    def intact(what):
        check(open(victim).read() == "precious\n", f"{what}: the file a planted link points to is untouched")

    # The defaults: 02_trace_graph's and 03_moons's old fixed names in the temp dir.
    plant("micrograd_trace_graph", "simple.dot")
    plant("micrograd_moons.svg")
    for name in ["02_trace_graph", "03_moons"]:
        code, out, err = run(name, env={"TMPDIR": tmp})
        wrote = re.findall(r"^wrote (.*)$", out, re.M)
        fresh = [p for p in wrote if os.path.basename(os.path.dirname(p)).startswith(f"micrograd-{name}-")]
        check(code == 0 and wrote and fresh == wrote,
              f"{name} writes its default output into a new directory of its own ({wrote}, {err.strip()[-200:]!r})")
        intact(f"{name} with its defaults")
    # Paths given to the examples.
    out_dir = os.path.join(tmp, "out")
    plant("out", "simple.dot")
    given = [("02_trace_graph", ["--out", out_dir], os.path.join(out_dir, "simple.dot")),
             ("02_trace_graph", ["--out", out_dir, "--html", plant("page.html")], os.path.join(tmp, "page.html")),
             ("03_moons", ["--steps", "1", "--svg", plant("m.svg")], os.path.join(tmp, "m.svg")),
             ("04_lecture_backprop", ["--dot", plant("n.dot")], os.path.join(tmp, "n.dot"))]
    for name, args, path in given:
        code, _, err = run(name, *args)
        check(code == 0 and os.path.isfile(path) and not os.path.islink(path),
              f"{name} {' '.join(args)}: the link is replaced by the file ({err.strip()[-200:]!r})")
        intact(f"{name} {' '.join(args)}")
    # 09_codegen and 11_microcontroller write their C, its main and the data into --out;
    # a C compiler that is not there stops them after that.
    data = os.path.join(tmp, "mnist")
    tiny_mnist(data)
    for name, planted in [("09_codegen", ["main.c", "train-images-idx3-ubyte"]),
                          ("11_microcontroller", ["main.c", "images.bin"])]:
        out = os.path.join(tmp, name)
        for file in planted:
            plant(name, file)
        code, _, err = run(name, "--data", data, "--holdout", "1", "--epochs", "1", "--out", out,
                           "--cc", "no-such-cc")
        check(code == 1 and "no-such-cc" in err,
              f"{name}: writes its files, then fails at --cc ({err.strip()[-200:]!r})")
        intact(f"{name} with links in --out")


def data_files_read_by_the_library():
    """09_codegen reads MNIST's files as the library does: a file of two gzip members
    whole, and a gzip bomb refused at the library's bound."""
    tmp = tempfile.mkdtemp()
    data, out = os.path.join(tmp, "mnist"), os.path.join(tmp, "out")
    images, labels = tiny_mnist(data, gzipped=True)
    code, _, err = run("09_codegen", "--data", data, "--holdout", "1", "--out", out, "--cc", "no-such-cc")
    plain = [open(os.path.join(out, f"train-{kind}"), "rb").read() if os.path.exists(os.path.join(out, f"train-{kind}"))
             else None for kind in ["images-idx3-ubyte", "labels-idx1-ubyte"]]
    check(code == 1 and "no-such-cc" in err and plain == [images, labels],
          f"09_codegen unpacks every gzip member ({err.strip()[-200:]!r})")
    bomb = os.path.join(tmp, "bomb")
    os.makedirs(bomb)
    with open(os.path.join(bomb, "train-images-idx3-ubyte.gz"), "wb") as f:
        f.write(gzip.compress(struct.pack(">IIII", 0x803, 90000, 28, 28) + bytes(90000 * 784), 1))
    with open(os.path.join(bomb, "train-labels-idx1-ubyte"), "wb") as f:
        f.write(labels)
    code, _, err = run("09_codegen", "--data", bomb, "--out", out, "--cc", "no-such-cc")
    check(code == 1 and "decompresses to more than" in err,
          f"09_codegen refuses a gzip file that inflates past the library's bound ({err.strip()[-200:]!r})")


def no_allocation_from_a_flag():
    """03_moons --steps 1000000000000 starts training (it is stopped after 3 s) instead of
    asking for memory for a trillion steps up front."""
    try:
        proc = subprocess.run([os.path.join(BIN, "03_moons"), "--steps", "1000000000000"],
                              capture_output=True, text=True, timeout=3)
        check(False, f"03_moons --steps 1000000000000 ended within 3 s (exit {proc.returncode}: "
                     f"{proc.stderr.strip()[-200:]!r})")
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        check("step 0 loss" in out, "03_moons --steps 1000000000000 is still training after 3 s")


CHECKS = [help_texts, moons, small_examples, lecture_backprop, bad_inputs, no_planted_links,
          data_files_read_by_the_library, no_allocation_from_a_flag, digits, mnist, iris,
          same_on_any_threads, codegen, microcontroller, batch_above_the_training_set]
chosen = [a for a in ARGS if a != "--debug"]
unknown = [a for a in chosen if a not in [c.__name__ for c in CHECKS]]
if unknown:
    sys.exit(f"no such check: {unknown}; the checks: {[c.__name__ for c in CHECKS]}")
for c in CHECKS:
    if not chosen or c.__name__ in chosen:
        c()
print(f"{len(failures)} failed" if failures else "every example check passed")
sys.exit(1 if failures else 0)

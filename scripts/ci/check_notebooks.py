"""Runs every notebook in docs/notebooks/ in the real evcxr kernel and checks that the
outputs saved in it are the ones this run produces (run by .ci/run).

A cell that fails (compile error, panic, `?` error) fails the check: nbconvert stops at
it. "The same output" means, cell by cell and in order:
- printed text (stdout/stderr) and `text/plain` / `text/html` results: exactly equal;
- `image/svg+xml` pictures: the same texts, as a sorted list (every record's label,
  `data` and `grad`, every op, every axis label), with the layout's coordinates ignored:
  Graphviz's versions and the pure-Rust `layout-rs` place nodes differently, but a
  changed number or a missing node is a different picture.
Nothing a run prints may depend on the machine (no timings, temp paths or addresses):
such output would differ between runs and fails this check.

Usage:
  python3 scripts/ci/check_notebooks.py            # check (CI)
  python3 scripts/ci/check_notebooks.py --update   # run and save the outputs in place
  (either one followed by notebook paths: only those)
Needs: jupyter nbconvert (pip) and the evcxr kernel; when either is missing the script
says how to install it and stops (exit status 2) before running anything.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NOTEBOOKS = sorted(glob.glob(os.path.join(ROOT, "docs", "notebooks", "*.ipynb")))
TIMEOUT = 1800  # seconds per cell: the first cell compiles the crate

INSTALL_KERNEL = """The Rust kernel for Jupyter (evcxr) is not installed. Install it once:
  - a prebuilt binary: download the archive for your platform from
    https://github.com/evcxr/evcxr/releases, extract evcxr_jupyter and put it on your PATH,
    or `cargo binstall evcxr_jupyter` (https://github.com/cargo-bins/cargo-binstall);
  - or build it from source (about 20 minutes on 2 cores; it needs --locked):
    cargo install evcxr_jupyter --locked
then register it with Jupyter and give it the standard library's source:
  evcxr_jupyter --install
  rustup component add rust-src"""

INSTALL_JUPYTER = """Jupyter's nbconvert is not installed. Install it with:
  python3 -m pip install nbconvert nbclient jupyter_client"""


def missing_tools():
    """What to install before the notebooks can run, or None when all is there."""
    try:
        from jupyter_client.kernelspec import KernelSpecManager
    except ImportError:
        return INSTALL_JUPYTER
    try:
        import nbconvert  # noqa: F401
    except ImportError:
        return INSTALL_JUPYTER
    if "rust" not in KernelSpecManager().find_kernel_specs():
        return INSTALL_KERNEL
    return None


def svg_texts(svg):
    texts = []
    for element in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, flags=re.S):
        plain = re.sub(r"<[^>]*>", "", element).replace("&#45;", "-").replace("&#160;", " ")
        plain = " ".join(plain.split())
        if plain:
            texts.append(plain)
    return sorted(texts)


def normal(output):
    """An output as compared: its kind and its content, normalised as described above."""
    kind = output["output_type"]
    if kind == "stream":
        return (kind, output["name"], "".join(output["text"]))
    if kind == "error":
        return (kind, output.get("ename"), output.get("evalue"))
    data = {}
    for mime, value in output.get("data", {}).items():
        text = "".join(value) if isinstance(value, list) else value
        data[mime] = svg_texts(text) if mime == "image/svg+xml" else text
    return ("result", json.dumps(data, sort_keys=True))


def outputs(path):
    """Each code cell's outputs, normalised; consecutive printed chunks of one stream are
    joined (how the kernel splits them into messages depends on timing)."""
    cells = json.load(open(path))["cells"]
    result = []
    for cell in (c for c in cells if c["cell_type"] == "code"):
        merged = []
        for out in map(normal, cell.get("outputs", [])):
            if out[0] == "stream" and merged and merged[-1][:2] == out[:2]:
                merged[-1] = (out[0], out[1], merged[-1][2] + out[2])
            else:
                merged.append(out)
        result.append(merged)
    return result


def execute(path, out_dir):
    cmd = ["jupyter", "nbconvert", "--execute", "--to", "notebook",
           f"--ExecutePreprocessor.timeout={TIMEOUT}", "--ExecutePreprocessor.kernel_name=rust",
           "--ExecutePreprocessor.record_timing=False"]
    cmd += ["--inplace", path] if out_dir is None else ["--output-dir", out_dir, path]
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        print(proc.stderr[-4000:], file=sys.stderr)
    return proc.returncode == 0, seconds


def tidy(path):
    """Keeps what a run leaves in a notebook from depending on the run: cell ids are
    `cell-N`, and no cell keeps execution timestamps."""
    nb = json.load(open(path))
    for i, cell in enumerate(nb["cells"]):
        cell["id"] = f"cell-{i}"
        cell["metadata"].pop("execution", None)
    with open(path, "w") as fh:
        json.dump(nb, fh, indent=1, ensure_ascii=False)
        fh.write("\n")


def main():
    missing = missing_tools()
    if missing:
        print(missing, file=sys.stderr)
        sys.exit(2)
    update = "--update" in sys.argv[1:]
    only = [os.path.abspath(a) for a in sys.argv[1:] if a != "--update"]
    failures = []
    total = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for path in only or NOTEBOOKS:
            name = os.path.basename(path)
            ok, seconds = execute(path, None if update else tmp)
            total += seconds
            if not ok:
                failures.append(f"{name}: a cell failed (see above)")
                print(f"FAIL {name}: a cell failed ({seconds:.0f} s)")
                continue
            if update:
                tidy(path)
            fresh = outputs(path if update else os.path.join(tmp, name))
            saved = fresh if update else outputs(path)
            errors = [i for i, cell in enumerate(fresh) if any(o[0] == "error" for o in cell)]
            if errors:
                failures.append(f"{name}: code cells {errors} show an error")
            if len(fresh) != len(saved):
                failures.append(f"{name}: {len(saved)} code cells saved, {len(fresh)} run")
            for i, (want, got) in enumerate(zip(saved, fresh)):
                if want != got:
                    failures.append(f"{name}: code cell {i}: saved output {str(want)[:300]} "
                                    f"but the run gave {str(got)[:300]}")
            print(f"{'ran ' if update else 'ok  '} {name} ({seconds:.0f} s)")
    print(f"notebooks executed in {total:.0f} s")
    for f in failures:
        print("FAIL " + f, file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Check that src/engine/ stays micrograd's engine.py in Rust: small, and below the rest.

- The learner's path, the files listed in the first table of src/engine/mod.rs's docs
  ("The learner's path"), is at most 600 lines, doc comments included.
- src/engine/ as a whole is at most 2,200 lines.
- The engine's code names no module of the crate but its own, the op rules below it
  (`crate::rules`), the crate's error type (`crate::error`), the maps keyed by node
  addresses (`crate::address`) and the tape's one hook (`crate::watch`). Doc comments
  may link to any module.

Prints what is over or out of place and exits 1 if anything is.
Run from anywhere: `python3 scripts/ci/check_engine.py`.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "src" / "engine"
PATH_LIMIT = 600
ENGINE_LIMIT = 2200
BELOW = {"engine", "rules", "error", "watch", "address"}


def lines(path: Path) -> int:
    return len(path.read_text().splitlines())


def learners_path() -> list[Path]:
    """The files of the first table under "# The learner's path" in mod.rs's docs."""
    docs = ENGINE.joinpath("mod.rs").read_text()
    section = docs.split("# The learner's path", 1)[1].split("\n//! # ", 1)[0]
    names = re.findall(r"^//! \| `([a-z_]+\.rs)` \|", section, re.MULTILINE)
    return [ENGINE / name for name in names]


def main() -> int:
    problems = []
    path = learners_path()
    if not path:
        problems.append("src/engine/mod.rs lists no learner's path")
    for file in path:
        if not file.exists():
            problems.append(f"{file.relative_to(ROOT)} is on the learner's path but does not exist")
    path_lines = sum(lines(f) for f in path if f.exists())
    if path_lines > PATH_LIMIT:
        problems.append(f"the learner's path is {path_lines} lines (at most {PATH_LIMIT})")
    files = sorted(ENGINE.glob("*.rs"))
    engine_lines = sum(lines(f) for f in files)
    if engine_lines > ENGINE_LIMIT:
        problems.append(f"src/engine/ is {engine_lines} lines (at most {ENGINE_LIMIT})")
    for file in files:
        for number, line in enumerate(file.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            named = re.findall(r"\bcrate::([a-z_]+)", code)
            for group in re.findall(r"\bcrate::\{([^}]*)\}", code):
                named += re.findall(r"(?:^|,)\s*([a-z_]+)", group)
            for module in named:
                if module not in BELOW:
                    problems.append(
                        f"{file.relative_to(ROOT)}:{number}: names crate::{module}, "
                        "a module above the engine"
                    )
    for problem in problems:
        print(problem)
    print(
        f"learner's path: {path_lines} lines in {len(path)} files; "
        f"src/engine/: {engine_lines} lines in {len(files)} files"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

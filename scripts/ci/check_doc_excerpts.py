#!/usr/bin/env python3
"""Check that the Rust excerpts in docs/*.md and in src/'s doc comments are still the
code in src/.

The docs quote crate-internal code in ```rust,ignore blocks (a doctest cannot call it,
so the compiler does not check those blocks), and so do a few module docs (`//!`,
`///`: how an op is written, in src/engine/ and src/ops/). This script checks them:
every code line of such a block must be a line of some file under src/. Both sides are compared with any
trailing `// comment` removed and surrounding whitespace trimmed, so a doc may add the
Python line a Rust line replaces as a comment. Blank lines, lines that are only a
comment, and `...` are skipped, so a doc may abridge with `// ...`.

A struct quoted whole (its `struct Name {` line and its closing `}` in one block, with
no `...` between) must list every field of that struct in src/, in order: the docs show
the real `Node`, not a field fewer.

Prints each line that is not found (doc, block, line) and exits 1 if there is any.
Run from anywhere: `python3 scripts/ci/check_doc_excerpts.py`.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A char literal ('x', '\n', '\'', '"') or the start of a raw string (r"..", r#".."#).
CHAR_LITERAL = re.compile(r"'(\\.|\\u\{[0-9a-fA-F]+\}|[^\\'])'")
RAW_STRING_START = re.compile(r'b?r(#*)"')


def strip_comment(line):
    """The line without a trailing `// comment` (one outside string and char
    literals), trimmed."""
    i = 0
    while i < len(line):
        c = line[i]
        raw = RAW_STRING_START.match(line, i)
        if raw and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
            end = line.find('"' + raw.group(1), raw.end())
            i = len(line) if end < 0 else end + 1 + len(raw.group(1))
        elif c == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1
        elif c == "'":
            char = CHAR_LITERAL.match(line, i)
            i = char.end() if char else i + 1  # else a lifetime: `'a`
        elif line.startswith("//", i):
            return line[:i].strip()
        else:
            i += 1
    return line.strip()


def rust_ignore_blocks(text):
    """(line number of the opening fence, [(line number, line), ...]) for each
    ```rust,ignore block of a markdown text."""
    blocks, current = [], None
    for number, line in enumerate(text.splitlines(), start=1):
        fence = line.strip()
        if current is None:
            if fence.startswith("```") and fence[3:].replace(" ", "") == "rust,ignore":
                current = (number, [])
        elif fence.startswith("```"):
            blocks.append(current)
            current = None
        else:
            current[1].append((number, line))
    if current is not None:
        blocks.append(current)  # an unclosed block is still checked
    return blocks


def source_lines():
    """Every line of every file under src/, comment-stripped and trimmed."""
    lines = set()
    for path in sorted((ROOT / "src").rglob("*")):
        if path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            lines.update(strip_comment(line) for line in text.splitlines())
    return lines


STRUCT_START = re.compile(r"^\s*(?:pub(?:\([a-z]+\))?\s+)?struct\s+(\w+)(?:<[^>]*>)?\s*\{\s*$")
FIELD = re.compile(r"^\s*(?:pub(?:\([a-z]+\))?\s+)?(\w+)\s*:")


def struct_fields(lines):
    """{struct name: [field names]} of the structs with named fields in `lines` (each
    from its `struct Name {` line to its closing `}`); a struct whose body holds `...`
    is left out (an abridged quote)."""
    found, name, fields = {}, None, []
    for line in lines:
        code = strip_comment(line)
        if name is None:
            start = STRUCT_START.match(code)
            if start:
                name, fields = start.group(1), []
        elif code == "}":
            if fields is not None:
                found[name] = fields
            name = None
        elif code == "...":
            fields = None
        elif fields is not None and code:
            field = FIELD.match(code)
            if field:
                fields.append(field.group(1))
    return found


def source_structs():
    """{struct name: [field names]} of the structs under src/ (a name used by two
    structs keeps both lists)."""
    structs = {}
    for path in sorted((ROOT / "src").rglob("*.rs")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, fields in struct_fields(text.splitlines()).items():
            structs.setdefault(name, []).append(fields)
    return structs


DOC_COMMENT = re.compile(r"^\s*//[/!] ?")


def doc_comment_text(text):
    """The doc comments of a Rust source as markdown, a line for each line of the file
    (other lines blank), so that line numbers stay the file's."""
    out = []
    for line in text.splitlines():
        prefix = DOC_COMMENT.match(line)
        out.append(line[prefix.end():] if prefix else "")
    return "\n".join(out)


def documents():
    """(name, markdown text) of docs/*.md and of the doc comments of src/**/*.rs."""
    for doc in sorted((ROOT / "docs").glob("*.md")):
        yield doc.relative_to(ROOT), doc.read_text(encoding="utf-8")
    for source in sorted((ROOT / "src").rglob("*.rs")):
        yield source.relative_to(ROOT), doc_comment_text(source.read_text(encoding="utf-8"))


def main():
    known = source_lines()
    structs = source_structs()
    missing, checked = 0, 0
    for name, text in documents():
        blocks = rust_ignore_blocks(text)
        for index, (fence_line, lines) in enumerate(blocks, start=1):
            for number, line in lines:
                code = strip_comment(line)
                if code in ("", "..."):
                    continue
                checked += 1
                if code not in known:
                    missing += 1
                    print(
                        f"{name}:{number}: block {index} (```rust,ignore at line "
                        f"{fence_line}): not in src/: {code}"
                    )
            quoted = struct_fields(line for _, line in lines)
            for struct, fields in quoted.items():
                if fields not in structs.get(struct, [fields]):
                    missing += 1
                    real = ", ".join(structs[struct][0])
                    print(
                        f"{name}:{fence_line}: block {index} quotes `struct {struct}` with "
                        f"the fields {', '.join(fields)}; src/ has {real}"
                    )
    if missing:
        print(
            f"\n{missing} excerpt lines or quoted structs (of {checked} lines) are not "
            "as in src/: quote the current code (see scripts/ci/check_doc_excerpts.py)."
        )
        return 1
    print(f"All {checked} code lines of the ```rust,ignore excerpts in docs/ and src/'s doc comments are in src/.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`rulelang fmt`: rewrite rule files in the canonical layout (rulelang/fmt.py), or with
`--check` and `--diff` only say which would change. A folder stands for every `*.rules`
in it and below; `-` reads standard input and writes the result to standard output, for
editors that format a buffer.

Exit codes: 0 done (or nothing to change), 2 with `--check` when a file would change
(the same code as a failing rule test: a check failed, not a bug), 65 a file that does
not parse, 64 a file that is not there, 74 a file that could not be written."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from rulelang.cli.errors import (
    EX_DATAERR,
    EX_IOERR,
    EX_OK,
    EX_TESTS_FAILED,
    EX_USAGE,
    say_err,
)
from rulelang.diagnostics import RuleError, Sources, render

EX_WOULD_CHANGE = EX_TESTS_FAILED  # `fmt --check`: a file is not formatted


def format_files(files: list[Path], check: bool, diff: bool) -> int:
    """Format each file (in place unless `check` or `diff`); the exit code."""
    counts = {"changed": 0, "same": 0, "invalid": 0, "missing": 0, "unwritable": 0}
    for path in _expand(files):
        counts[_one(path, check, diff)] += 1
    for folder in (f for f in files if f.is_dir() and not any(f.rglob("*.rules"))):
        # a folder with nothing to format is likely mistyped: `--check` must not pass it
        say_err(f"error: no rule files (*.rules) in {folder}")
        counts["missing"] += 1
    if not (len(files) == 1 and str(files[0]) == "-"):
        _summary(counts, check or diff)
    if counts["missing"]:
        return EX_USAGE
    if counts["invalid"]:
        return EX_DATAERR
    if counts["unwritable"]:
        return EX_IOERR
    return EX_WOULD_CHANGE if check and counts["changed"] else EX_OK


def _expand(paths: list[Path]) -> list[Path]:
    """The files named, a folder standing for every rule file in it and below."""
    out: dict[Path | str, Path] = {}  # a file named twice (itself, its folder): once
    for path in paths:
        for file in sorted(path.rglob("*.rules")) if path.is_dir() else [path]:
            out.setdefault(str(file) if str(file) == "-" else file.resolve(), file)
    return list(out.values())


def _one(path: Path, check: bool, diff: bool) -> str:
    from rulelang.fmt import format_source

    stdin = str(path) == "-"
    name = "<stdin>" if stdin else str(path)
    if not stdin and not path.is_file():
        say_err(f"error: no such rule file: {path}")
        return "missing"
    try:
        text = sys.stdin.read() if stdin else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        say_err(f"error: cannot read {name}: {exc}")
        return "invalid"
    bom = "\ufeff" if text.startswith("\ufeff") else ""  # kept, and not parsed
    text = text.removeprefix(bom)
    try:
        out = format_source(text, name)
    except RuleError as err:
        sources = Sources({name: text})
        say_err("\n".join(render(d, sources) for d in err.diagnostics))
        return "invalid"
    return _emit(path, name, bom + text, bom + out, check, diff)


def _emit(path: Path, name: str, text: str, out: str, check: bool, diff: bool) -> str:
    changed = out != text
    if diff and changed:
        lines = difflib.unified_diff(
            text.splitlines(keepends=True), out.splitlines(keepends=True), name, name
        )
        sys.stdout.write("".join(lines))
    if str(path) == "-":
        if not (check or diff):
            sys.stdout.write(out)
        return "changed" if changed else "same"
    if changed and check and not diff:
        say_err(f"would reformat {name}")
    if changed and not (check or diff):
        try:
            _replace(path, out)
        except OSError as exc:
            say_err(f"error: cannot write {name}: {exc.strerror or exc}")
            return "unwritable"
        say_err(f"reformatted {name}")
    return "changed" if changed else "same"


def _replace(path: Path, text: str) -> None:
    """Write the text to a file beside the rule file (the one a link leads to), then
    put it in its place: a write that fails half way leaves the designer's file whole."""
    import os
    import tempfile

    target = path.resolve()
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(fd)
    temp = Path(name)
    try:
        temp.write_text(text, encoding="utf-8")
        os.chmod(temp, target.stat().st_mode & 0o7777)
        os.replace(temp, target)
    finally:
        temp.unlink(missing_ok=True)


def _summary(counts: dict[str, int], dry: bool) -> None:
    changed, same = counts["changed"], counts["same"]
    verb = "would be reformatted" if dry else "reformatted"
    parts = [f"{changed} file{'s' * (changed != 1)} {verb}"] if changed else []
    if same:
        parts.append(f"{same} file{'s' * (same != 1)} already formatted")
    if counts["invalid"]:
        parts.append(f"{counts['invalid']} not formatted (errors above)")
    if parts:
        say_err(", ".join(parts) + ".")

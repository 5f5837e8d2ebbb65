"""`rulelang validate`: check rule files without compiling them to code.

Kept free of typer and of the runtime, so that the command people run most often
from scripts and editors starts quickly (see `main.run`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulelang.cli.errors import EX_DATAERR, EX_OK, EX_USAGE, say_err, usage
from rulelang.cli.terminal import say
from rulelang.diagnostics import RuleError, render
from rulelang.limits import DEFAULT_LIMITS, Limits


def allowed_folders(allow: Sequence[Path] | None) -> list[Path]:
    """The folders of `--allow-path`, each checked to be a folder (else a usage error)."""
    for folder in allow or []:
        if not folder.is_dir():
            raise usage(f"--allow-path {folder}: no such folder")
    return list(allow or [])


def validate_files(
    files: list[Path], allow: Sequence[Path] | None = None, limits: Limits = DEFAULT_LIMITS
) -> int:
    """Print `ok` or every problem for each file; 0 if all are fine, else 65. `allow`:
    more folders the rule files may read (`--allow-path`); `limits`: what their data
    files may make (`--max-items`)."""
    from rulelang.api import check_file

    folders = allowed_folders(allow)
    failed = missing = 0
    from rulelang.loader import no_rule_file, rules_path

    for path in map(rules_path, files):
        if not path.is_file():
            say_err(f"error: {no_rule_file(path)}")
            missing += 1
            continue
        try:
            program, warnings = check_file(path, allow=folders, limits=limits)
        except RuleError as err:
            say_err(
                "\n".join(render(d, err.sources) for d in err.diagnostics)
                + f"\n{len(err.diagnostics)} problem(s) in {path}"
            )
            failed += 1
            continue
        for w in warnings:
            say_err(render(w, program.sources))
        kind = "library" if program.library else "game"
        say(f"ok: {path} ({kind} '{program.title}')")
    if missing:
        return EX_USAGE  # a name mistyped: the command was used wrongly
    return EX_DATAERR if failed else EX_OK

"""`rulelang validate`: check rule files without compiling them to code.

Kept free of typer and of the runtime, so that the command people run most often
from scripts and editors starts quickly (see `main.run`).
"""

from __future__ import annotations

from pathlib import Path

from rulelang.cli.errors import EX_DATAERR, EX_OK, EX_USAGE, say_err
from rulelang.diagnostics import RuleError, render


def validate_files(files: list[Path]) -> int:
    """Print `ok` or every problem for each file; 0 if all are fine, else 65."""
    from rulelang.api import check_file

    failed = missing = 0
    for path in files:
        if not path.is_file():
            say_err(f"error: no such rule file: {path}")
            missing += 1
            continue
        try:
            program, warnings = check_file(path)
        except RuleError as err:
            say_err(
                "\n".join(render(d, err.sources) for d in err.diagnostics)
                + f"\n{len(err.diagnostics)} problem(s) in {path}"
            )
            failed += 1
            continue
        for w in warnings:
            say_err(render(w, program.sources))  # type: ignore[arg-type]
        kind = "library" if program.library else "game"
        print(f"ok: {path} ({kind} '{program.title}')")
    if missing:
        return EX_USAGE  # a name mistyped: the command was used wrongly
    return EX_DATAERR if failed else EX_OK

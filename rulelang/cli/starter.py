"""`rulelang new NAME [--from GAME]`: write NAME.rules and NAME.rulestest (see
workbench/starter.py), never over a file that is there."""

from __future__ import annotations

import re
from pathlib import Path
from shlex import quote

from rulelang import UsageError
from rulelang.cli.errors import EX_IOERR, CliExit, usage
from rulelang.cli.terminal import CONTROL, say
from rulelang.workbench import starter

# a newline or a tab in the name would break the starter's heading comment and title
# over lines (and make a file name no shell command quotes plainly)
_BLANKS = re.compile("[\t\n]")


def write_starter(name: str, base: str | None) -> None:
    path = Path(name if name.endswith(".rules") else f"{name}.rules")
    stem = path.name.removesuffix(".rules")
    if not stem.strip() or stem.startswith("."):
        raise usage(f"'{name}' is not a name for a game")
    if CONTROL.search(name) or _BLANKS.search(name):
        raise usage(f"the name {ascii(name)} may not hold control characters")
    test = path.with_name(f"{stem}.rulestest")
    for target in (path, test):
        if _there(target):
            raise usage(f"{target} is there already; choose another name, or move it away")
    try:
        rules, tests = starter.variant(stem, base) if base else starter.skeleton(stem)
    except UsageError as error:
        raise usage(str(error)) from None
    try:
        path.write_text(rules, encoding="utf-8")
        test.write_text(tests, encoding="utf-8")
    except OSError as error:
        raise CliExit(EX_IOERR, f"error: could not write {path}: {error.strerror}") from None
    say(
        f"wrote {path} and {test}; next: rulelang validate {quote(str(path))}; "
        f"rulelang test {quote(str(test))}"
    )


def _there(target: Path) -> bool:
    """Whether a file is there already; a name the file system cannot hold (too long)
    is the user's to change, not an internal error."""
    try:
        return target.exists()
    except OSError as error:
        raise usage(f"'{target}' cannot be a file name: {error.strerror}") from None

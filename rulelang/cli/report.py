"""What `--report FILE` needs on the command line: the file checked before any game
is played, matplotlib present (else one line naming the extra), the page's header."""

from __future__ import annotations

import datetime
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import rulelang
from rulelang.cli.errors import EX_IOERR, CliExit, usage

if TYPE_CHECKING:
    from rulelang import Ruleset


def check_report(path: Path | None) -> None:
    """Refuse a --report that cannot be written, or cannot be drawn, before simulating."""
    if path is None:
        return
    from rulelang.report.plots import need_matplotlib

    missing = need_matplotlib()
    if missing:
        raise usage(missing)
    check_output(
        path, "--report", (".html", ".htm"), "name a .html file (the report is a web page)"
    )


def check_output(path: Path, option: str, suffixes: tuple[str, ...], name_one: str) -> None:
    """Refuse, before any work, an output file that cannot be written, or whose writing
    would destroy something else: a folder, a file of another kind (by its suffix, or
    the suffix of the file a link leads to: never over a rule file, or notes), or a
    FIFO or device (writing to a FIFO waits for a reader, for ever); or a name the
    file system cannot hold (too long)."""
    try:
        _check_output(path, option, suffixes, name_one)
    except OSError as err:
        raise usage(f"{option} {path}: that cannot be a file name: {err.strerror}") from None


def _check_output(path: Path, option: str, suffixes: tuple[str, ...], name_one: str) -> None:
    if path.is_dir():
        raise usage(f"{option} {path}: that is a folder; name a file to write to")
    if path.suffix.lower() not in suffixes:
        raise usage(f"{option} {path}: {name_one}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise usage(f"{option} {path}: there is no folder {folder}")
    if path.exists() and not path.is_file():
        raise usage(f"{option} {path}: that is not a regular file; name a file to write to")
    refused = unwritable(path)
    if refused:
        raise usage(f"{option} {path}: {refused}")
    if not path.is_symlink():
        return
    try:
        target = path.resolve()
    except (OSError, RuntimeError):  # a loop of links
        raise usage(f"{option} {path}: that link leads nowhere; name a file") from None
    if target.suffix.lower() not in suffixes:
        raise usage(f"{option} {path}: that is a link to {target}; {name_one}")


def unwritable(path: Path) -> str | None:
    """Why `path` could not be written, found by trying before any work (a read-only
    file system, /proc, a folder of another user's): as root, permission bits say
    nothing, so nothing short of a try does. A file there is opened to append, which
    changes nothing; else a file of our own is made beside it and removed."""
    try:
        if path.exists():
            with path.open("a", encoding="utf-8"):
                pass
        else:
            fd, probe = tempfile.mkstemp(dir=path.parent, prefix=".rulelang-probe-")
            os.close(fd)
            os.unlink(probe)
    except OSError as err:
        where = "that file" if path.exists() else f"the folder {path.parent}"
        return f"{where} cannot be written to: {err.strerror}"
    return None


def check_not_read(path: Path | None, option: str, *rulesets: Ruleset) -> None:
    """Refuse an output file that is one the rules are read from: a rule file may have
    any name, and `rulebook notes.md --out notes.md` wrote the rulebook over it."""
    if path is None:
        return
    from rulelang.report.provenance import paths_read

    target = path.resolve()
    for ruleset in rulesets:
        if any(Path(p).resolve() == target for p in paths_read(ruleset)):
            raise usage(f"{option} {path}: the rules are read from that file; name another")


def write_report(path: Path, html: str, what: str = "the report") -> None:
    """Write a page or document the command made; exit 74 in one line if it cannot."""
    try:
        path.write_text(html, encoding="utf-8")
    except OSError as err:
        raise CliExit(
            EX_IOERR, f"error: {what} could not be written to {path}: {err.strerror}"
        ) from None


def header(
    rules: str,
    players: int,
    n: int,
    seed: int,
    options: dict[str, str],
    bots: Sequence[str | None],
    extra: Sequence[tuple[str, str]] = (),
) -> list[tuple[str, str]]:
    """The facts at the top of a report: enough to run it again."""
    shown = ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "the rule file's defaults"
    return [
        ("rule file", rules),
        ("players", str(players)),
        ("games", f"{n} (seeds {seed} to {seed + n - 1})"),
        ("options", shown),
        ("bots", bots_text(bots)),
        *extra,
        ("date", datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")),
        ("rulelang", rulelang.__version__),
    ]


def bots_text(bots: Sequence[str | None]) -> str:
    names = [b or "declared" for b in bots]
    if len(set(names)) == 1:
        return f"every seat: {names[0]}" + (
            " (the rules' bots, else random)" if names[0] == "declared" else ""
        )
    return ", ".join(f"{i + 1}:{b}" for i, b in enumerate(names))

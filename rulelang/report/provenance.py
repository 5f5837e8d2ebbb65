"""What a published figure needs to be trusted and run again: the files the rules were
read from, each with its SHA-256, and the run's every setting (`simulate --json`'s
"run", docs/cli.md). The hash of the main rule file is the one a saved game keeps."""

from __future__ import annotations

import dataclasses
import hashlib
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import rulelang
from rulelang.limits import DEFAULT_LIMITS, OPTIONS, Limits

if TYPE_CHECKING:
    from rulelang.runtime.ruleset import Ruleset


def sha256(path: str | Path) -> str | None:
    """The file's SHA-256, or None if it can no longer be read (gone since loaded)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def files_read(ruleset: Ruleset) -> list[dict[str, Any]]:
    """Every file the rules were read from (`paths_read`), each with its SHA-256: a
    change to any changes the game, though the main file's hash stays the same."""
    return [{"path": p, "sha256": sha256(p)} for p in paths_read(ruleset)]


def paths_read(ruleset: Ruleset) -> list[str]:
    """Every file the rules were read from, the main rule file first: the files it
    extends (and the stdlib modules it imports) and the data files of its kinds."""
    from rulelang.loader import data_path
    from rulelang.syntax import ast as A

    paths = list(ruleset.program.files)
    paths += [data_path(d) for d in ruleset.program.decls if isinstance(d, A.KindDecl) and d.data]
    return list(dict.fromkeys(paths))


@dataclasses.dataclass(frozen=True)
class Run:
    """A run of games as the command line asked for it."""

    command: str  # "simulate"
    file: Path  # as resolved from what was typed (a shipped game's path)
    players: int
    games: int  # asked for
    seed: int
    options: dict[str, str]
    bots: str  # the --bots given
    seat_bots: Sequence[str | None]  # per seat: the bot named, None for the rules' own
    limits: Limits = DEFAULT_LIMITS


def run_json(run: Run, ruleset: Ruleset, played: int) -> dict[str, Any]:
    """The run's settings, files and version, and the command that plays it again."""
    return {
        "rulelang": rulelang.__version__,
        **variant_json(run, ruleset),
        "players": run.players,
        "seed": run.seed,
        "games_asked": run.games,
        "games_played": played,  # fewer than asked when Ctrl-C stopped the run
        "limits": dataclasses.asdict(run.limits),
        "command": command_line(run),
    }


def variant_json(run: Run, ruleset: Ruleset) -> dict[str, Any]:
    """What one variant was: its files, with their hashes, its options and bots."""
    return {
        "rule_file": {"path": str(run.file), "sha256": sha256(run.file)},
        "files": files_read(ruleset),
        "options": dict(sorted(run.options.items())),
        "bots": run.bots,
        "seat_bots": list(run.seat_bots),  # null: the rules' declared bots, else random
    }


def comparison_json(a: Run, b: Run, rules_a: Ruleset, rules_b: Ruleset) -> dict[str, Any]:
    """`compare --json`'s "run": what is common, then each variant's own."""
    return {
        "rulelang": rulelang.__version__,
        "players": a.players,
        "seed": a.seed,
        "games_asked": a.games,
        "limits": dataclasses.asdict(a.limits),
        "a": variant_json(a, rules_a),
        "b": variant_json(b, rules_b),
        "command": compare_line(a, b),
    }


def command_line(run: Run) -> str:
    """The command that plays the same games again (--jobs and --dask change where
    games are played, not what they are, and are left out)."""
    words = ["rulelang", run.command, str(run.file), *_counts(run)]
    for key, value in sorted(run.options.items()):
        words += ["-o", f"{key}={value}"]
    return shlex.join([*words, "--bots", run.bots, *_limits(run.limits)])


def compare_line(a: Run, b: Run) -> str:
    """The compare command that plays the same two variants: each one's options and
    bots given as its own."""
    words = ["rulelang", "compare", str(a.file)]
    words += [str(b.file)] if b.file != a.file else []
    words += _counts(a)
    for side, run in (("a", a), ("b", b)):
        for key, value in sorted(run.options.items()):
            words += [f"--{side}-option", f"{key}={value}"]
    words += ["--a-bots", a.bots, "--b-bots", b.bots]
    return shlex.join([*words, *_limits(a.limits)])


def _counts(run: Run) -> list[str]:
    return ["-p", str(run.players), "-n", str(run.games), "--seed", str(run.seed)]


def _limits(limits: Limits) -> list[str]:
    """The --max-* options of the limits that are not the defaults."""
    words = []
    for name, option in OPTIONS.items():
        value = getattr(limits, name)
        if value != getattr(DEFAULT_LIMITS, name):
            words += [option, str(value)]
    return words

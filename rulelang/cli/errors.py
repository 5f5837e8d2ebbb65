"""Exit codes, after sysexits(3) as in Crafting Interpreters."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rulelang.diagnostics import NO_SPAN, GameRuntimeError, Sources

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game

EX_OK = 0
EX_BUG = 1  # a bug in rulelang itself, never a rule's doing (that is EX_SOFTWARE)
EX_USAGE = 64
EX_DATAERR = 65
EX_SOFTWARE = 70
EX_IOERR = 74
EX_INTERRUPTED = 130


class CliExit(Exception):
    def __init__(self, code: int, message: str = ""):
        self.code = code
        self.message = message
        super().__init__(message)


def usage(message: str) -> CliExit:
    return CliExit(EX_USAGE, f"error: {message}")


def runtime_error(err: GameRuntimeError, sources: object = None) -> CliExit:
    text = f"{err}"
    if isinstance(sources, Sources):
        line = sources.line(err.span.file, err.span.line)
        if line is not None:
            gutter = f"{err.span.line:>4} | "
            text += f"\n{gutter}{line}\n{' ' * (len(gutter) + err.span.col - 1)}^"
    return CliExit(EX_SOFTWARE, text)


def say_err(message: str) -> None:
    print(message, file=sys.stderr)


def never_ends(game: Game, what: str) -> GameRuntimeError:
    """R010: bots alone kept a game going past their budget of decisions; the error
    points at the decision the game waits for."""
    decision = game.pending()
    span = decision.span if decision is not None and decision.span else NO_SPAN
    return GameRuntimeError("R010", f"{what}: do its end rules ever hold?", span)

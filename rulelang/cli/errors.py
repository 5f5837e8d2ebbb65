"""Exit codes, after sysexits(3) as in Crafting Interpreters."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rulelang import errors
from rulelang.cli.terminal import clean
from rulelang.diagnostics import NO_SPAN, GameRuntimeError, Sources, render

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game

EX_OK = 0
EX_BUG = 1  # a bug in rulelang itself, never a rule's doing (that is EX_SOFTWARE)
EX_USAGE = 64
EX_DATAERR = 65
EX_UNAVAILABLE = 69  # a service is unavailable: a Dask cluster, or Dask itself
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


def runtime_error(err: GameRuntimeError, sources: Sources | None = None) -> CliExit:
    """A rule's runtime error, rendered as any diagnostic (with the line quoted)."""
    return CliExit(EX_SOFTWARE, render(err.diagnostic, sources))


def say_err(message: str) -> None:
    """A message on stderr; what it quotes of a rule file or save is shown escaped."""
    print(clean(message), file=sys.stderr)


def never_ends(game: Game, what: str) -> GameRuntimeError:
    """R010: bots alone kept a game going past their budget of decisions; the error
    points at the decision the game waits for."""
    decision = game.pending()
    span = decision.span if decision is not None and decision.span else NO_SPAN
    return errors.never_ends(what, span)

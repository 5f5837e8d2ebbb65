"""How the command line reports a failure: the exit codes (rulelang/exits.py) and the
messages of a rule's runtime error or a game that never ends."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from rulelang.cli.terminal import clean
from rulelang.diagnostics import NO_SPAN, GameRuntimeError, Sources, render
from rulelang.exits import (
    EX_BUG,
    EX_DATAERR,
    EX_INTERRUPTED,
    EX_IOERR,
    EX_OK,
    EX_SOFTWARE,
    EX_TESTS_FAILED,
    EX_UNAVAILABLE,
    EX_USAGE,
    CliExit,
    usage,
)

# the exit codes are re-exported: the commands take them from here
__all__ = [
    "EX_BUG",
    "EX_DATAERR",
    "EX_INTERRUPTED",
    "EX_IOERR",
    "EX_OK",
    "EX_SOFTWARE",
    "EX_TESTS_FAILED",
    "EX_UNAVAILABLE",
    "EX_USAGE",
    "CliExit",
    "never_ends",
    "runtime_error",
    "say_err",
    "usage",
]

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game


def runtime_error(err: GameRuntimeError, sources: Sources | None = None) -> CliExit:
    """A rule's runtime error, rendered as any diagnostic (with the line quoted)."""
    return CliExit(EX_SOFTWARE, render(err.diagnostic, sources))


def say_err(message: str) -> None:
    """A message on stderr; what it quotes of a rule file or save is shown escaped."""
    print(clean(message), file=sys.stderr)


def never_ends(game: Game, what: str) -> GameRuntimeError:
    """R010: bots alone kept a game going past their budget of decisions; the error
    points at the decision the game waits for."""
    from rulelang import errors  # the catalogue: loaded only when a game never ends

    decision = game.pending()
    span = decision.span if decision is not None and decision.span else NO_SPAN
    return errors.never_ends(what, span)

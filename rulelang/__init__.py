"""rulelang: a declarative rules language and interpreter for board games.

The public API (see docs/api.md): compile a rule file once into a `Ruleset`, start
`Game`s from it, and drive them with `legal_actions`, `apply`, `apply_chance`,
`view`, `clone` and `replay`.
"""

from rulelang.api import compile_file, compile_file_with_warnings, compile_source
from rulelang.diagnostics import Diagnostic, GameRuntimeError, RuleError, Span, UsageError
from rulelang.runtime.code import Chose, Drew, Event, Ranked, Said
from rulelang.runtime.edit import Editor
from rulelang.runtime.engine import (
    CHANCE,
    PUBLIC,
    TERMINAL,
    Action,
    Decision,
    Game,
    Refusal,
    Ruleset,
    replay,
)
from rulelang.runtime.views import ReplayError

__all__ = [
    "CHANCE",
    "PUBLIC",
    "TERMINAL",
    "Action",
    "Chose",
    "Decision",
    "Diagnostic",
    "Drew",
    "Editor",
    "Event",
    "Game",
    "GameRuntimeError",
    "Ranked",
    "Refusal",
    "ReplayError",
    "RuleError",
    "Ruleset",
    "Said",
    "Span",
    "UsageError",
    "compile_file",
    "compile_file_with_warnings",
    "compile_source",
    "replay",
]
__version__ = "0.1.0"

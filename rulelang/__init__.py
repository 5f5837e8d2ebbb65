"""rulelang: a declarative rules language and interpreter for board games.

The public API (see docs/api.md): compile a rule file once into a `Ruleset`, start
`Game`s from it, and drive them with `legal_actions`, `apply`, `apply_chance`,
`view`, `clone` and `replay`. Names are imported when first used, so that a command
that only checks rule files does not load the runtime.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rulelang.api import check_file, compile_file, compile_file_with_warnings, compile_source
    from rulelang.diagnostics import (
        Diagnostic,
        GameRuntimeError,
        RuleError,
        RulelangError,
        Span,
        UsageError,
    )
    from rulelang.limits import Limits
    from rulelang.runtime.code import Chose, Drew, Event, Ranked, Reaction, Said
    from rulelang.runtime.edit import Editor
    from rulelang.runtime.engine import (
        CHANCE,
        PUBLIC,
        TERMINAL,
        Action,
        Decision,
        Game,
        Refusal,
        replay,
    )
    from rulelang.runtime.ruleset import Ruleset
    from rulelang.runtime.view_types import PartialView, View
    from rulelang.runtime.views import ReplayError

_WHERE = {
    "rulelang.api": ["check_file", "compile_file", "compile_file_with_warnings", "compile_source"],
    "rulelang.diagnostics": [
        "Diagnostic",
        "GameRuntimeError",
        "RuleError",
        "RulelangError",
        "Span",
        "UsageError",
    ],
    "rulelang.limits": ["Limits"],
    "rulelang.runtime.code": ["Chose", "Drew", "Event", "Ranked", "Reaction", "Said"],
    "rulelang.runtime.edit": ["Editor"],
    "rulelang.runtime.ruleset": ["Ruleset"],
    "rulelang.runtime.engine": [
        "CHANCE",
        "PUBLIC",
        "TERMINAL",
        "Action",
        "Decision",
        "Game",
        "Refusal",
        "replay",
    ],
    "rulelang.runtime.view_types": ["PartialView", "View"],
    "rulelang.runtime.views": ["ReplayError"],
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}

__all__ = [
    "Action",
    "CHANCE",
    "Chose",
    "Decision",
    "Diagnostic",
    "Drew",
    "Editor",
    "Event",
    "Game",
    "GameRuntimeError",
    "Limits",
    "PUBLIC",
    "PartialView",
    "Ranked",
    "Reaction",
    "Refusal",
    "ReplayError",
    "RuleError",
    "RulelangError",
    "Ruleset",
    "Said",
    "Span",
    "TERMINAL",
    "UsageError",
    "View",
    "check_file",
    "compile_file",
    "compile_file_with_warnings",
    "compile_source",
    "replay",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> object:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'rulelang' has no attribute '{name}'")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value

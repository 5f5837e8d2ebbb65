"""Compile a rule file once: load, check, then compile into a Ruleset."""

from __future__ import annotations

from pathlib import Path

from rulelang.check import check
from rulelang.diagnostics import Diagnostic
from rulelang.loader import Loader
from rulelang.runtime.engine import Ruleset


def compile_file(path: str | Path) -> Ruleset:
    """Raise FileNotFoundError, or RuleError carrying every diagnostic."""
    ruleset, _warnings = compile_file_with_warnings(path)
    return ruleset


def compile_file_with_warnings(path: str | Path) -> tuple[Ruleset, list[Diagnostic]]:
    path = Path(path)
    loaded = Loader().load_file(path)
    program, diagnostics = check(loaded, str(path))
    return Ruleset(program), diagnostics


def compile_source(text: str, name: str = "<rules>") -> Ruleset:
    loaded = Loader().load_text(text, name)
    program, _diagnostics = check(loaded, name)
    return Ruleset(program)

"""Compile a rule file once: load, check, then compile into a Ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rulelang.check import check
from rulelang.diagnostics import Diagnostic
from rulelang.loader import Loader

if TYPE_CHECKING:
    from rulelang.check.symbols import Program
    from rulelang.runtime.ruleset import Ruleset


def compile_file(path: str | Path) -> Ruleset:
    """Raise FileNotFoundError, or RuleError carrying every diagnostic."""
    ruleset, _warnings = compile_file_with_warnings(path)
    return ruleset


def check_file(path: str | Path) -> tuple[Program, list[Diagnostic]]:
    """Load and check a rule file without compiling it: the checked program and its
    warnings. Raise RuleError carrying every diagnostic."""
    path = Path(path)
    return check(Loader().load_file(path), str(path))


def compile_file_with_warnings(path: str | Path) -> tuple[Ruleset, list[Diagnostic]]:
    from rulelang.runtime.ruleset import Ruleset

    program, diagnostics = check_file(path)
    return Ruleset(program), diagnostics


def compile_source(text: str, name: str = "<rules>") -> Ruleset:
    from rulelang.runtime.ruleset import Ruleset

    loaded = Loader().load_text(text, name)
    program, _diagnostics = check(loaded, name)
    return Ruleset(program)

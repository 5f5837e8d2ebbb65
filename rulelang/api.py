"""Compile a rule file once: load, check, then compile into a Ruleset.

`allow` names more folders whose files the rule file may read through `extends` and
data files, besides the main rule file's own folder (and below) and the stdlib folders;
see `rulelang.loader`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from rulelang.check import check
from rulelang.diagnostics import Diagnostic, UsageError
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.loader import Loader

if TYPE_CHECKING:
    from rulelang.check.symbols import Program
    from rulelang.runtime.ruleset import Ruleset


Allow = Iterable[str | os.PathLike[str]]


def compile_file(
    path: str | Path, *, allow: Allow = (), limits: Limits = DEFAULT_LIMITS
) -> Ruleset:
    """Raise FileNotFoundError, or RuleError carrying every diagnostic. `limits` is the
    runtime's resource budget of the ruleset (see rulelang.limits)."""
    ruleset, _warnings = compile_file_with_warnings(path, allow=allow, limits=limits)
    return ruleset


def check_file(
    path: str | Path, *, allow: Allow = (), limits: Limits = DEFAULT_LIMITS
) -> tuple[Program, list[Diagnostic]]:
    """Load and check a rule file without compiling it: the checked program and its
    warnings. Raise RuleError carrying every diagnostic. `limits`: what its data files
    may make."""
    path = Path(path)
    return check(Loader(allow).load_file(path), str(path), limits)


def compile_file_with_warnings(
    path: str | Path, *, allow: Allow = (), limits: Limits = DEFAULT_LIMITS
) -> tuple[Ruleset, list[Diagnostic]]:
    from rulelang.runtime.ruleset import Ruleset

    _check_limits(limits)
    program, diagnostics = check_file(path, allow=allow, limits=limits)
    return Ruleset(program, limits), diagnostics


def compile_source(
    text: str, name: str = "<rules>", *, allow: Allow = (), limits: Limits = DEFAULT_LIMITS
) -> Ruleset:
    """`name` stands for the file's path: what it extends or reads is relative to it."""
    from rulelang.runtime.ruleset import Ruleset

    _check_limits(limits)
    loaded = Loader(allow).load_text(text, name)
    program, _diagnostics = check(loaded, name, limits)
    return Ruleset(program, limits)


def _check_limits(limits: object) -> None:
    """Refuse anything but a Limits before the (slower) check of the rule file."""
    if not isinstance(limits, Limits):
        raise UsageError(f"limits must be a rulelang.Limits, not {limits!r}")

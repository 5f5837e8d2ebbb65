"""The mutation fuzzer (tests/fuzz/fuzz.py, issue 7) on a fixed seed: whatever a rule
file says, compiling and playing it ends in a result or a RuleError, GameRuntimeError
or UsageError, never another exception, a hang or a memory blow-up."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

FUZZ = Path(__file__).resolve().parent / "fuzz" / "fuzz.py"


def _fuzz() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rulelang_fuzz", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def test_mutants_never_crash_hang_or_exhaust_memory() -> None:
    fuzz = _fuzz()
    report = fuzz.run(cases=200, seed=1, jobs=2)
    assert sum(report.counts.values()) == 200
    assert report.counts["rule error"] > 0  # the mutations do break rule files
    assert report.bad == 0, fuzz.summary(report, show=True)

"""The mutation fuzzer (tests/fuzz/fuzz.py, issues 7 and 24) on a fixed seed: whatever a
rule file, a data file, a save or a number on the command line says, rulelang ends in
a result or a documented error, never another exception, a hang or a memory blow-up,
and never prints a line of a file a save points at instead of its rule file. The long
run (10,000 cases and more) is a command: see README.md, "Layout", and fuzz.py. By
default each family runs a sample; `pytest --full` (.ci/run) runs more."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest
from conftest import sample

FUZZ = Path(__file__).resolve().parent / "fuzz" / "fuzz.py"


def _fuzz() -> ModuleType:
    spec = importlib.util.spec_from_file_location("rulelang_fuzz", FUZZ)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.mark.long
def test_mutants_never_crash_hang_or_exhaust_memory(full: bool) -> None:
    fuzz = _fuzz()
    cases = sample(full, 1000, 60)
    report = fuzz.run(cases=cases, seed=1, jobs=2, families=("rules",))
    assert sum(report.counts.values()) == cases
    assert report.counts["rule error"] > 0  # the mutations do break rule files
    assert report.bad == 0, fuzz.summary(report, show=True)


@pytest.mark.long
def test_data_files_and_huge_numbers_never_crash_hang_or_exhaust_memory(full: bool) -> None:
    """Data-file fields (counts, tile edges, wrong types, odd YAML) and huge or malformed
    numbers for play, simulate, compare and resume (issue 24)."""
    fuzz = _fuzz()
    cases = sample(full, 200, 24)
    report = fuzz.run(cases=cases, seed=2, jobs=2, families=("data", "options"))
    assert sum(report.counts.values()) == cases
    assert report.by_family[("data", "rule error")] > 0  # the data files do break
    assert report.by_family[("options", "usage error")] > 0  # and the numbers are refused
    assert report.bad == 0, fuzz.summary(report, show=True)


@pytest.mark.long
def test_edited_saves_never_crash_hang_or_exhaust_memory(full: bool) -> None:
    """Saves with mutated fields and a recomputed checksum (it is a plain sha256)."""
    fuzz = _fuzz()
    report = fuzz.run(cases=sample(full, 150, 30), seed=2, jobs=2, families=("save",))
    assert report.counts["rule error"] > 0  # damaged saves are refused
    for failure in ("INTERNAL", "TIMEOUT", "MEMORY"):
        assert report.counts[failure] == 0, fuzz.summary(report, show=True)


def pointing_saves() -> list[dict[str, str]]:
    """The outcome of `resume` and `games import` of a save pointed at each file that
    is not its rule file, with a digest and a checksum that make it look untouched."""
    fuzz = _fuzz()
    files, base = fuzz._inputs()
    workspace = fuzz.make_workspace()
    try:
        cases = fuzz.inputs.pointing_saves(files, base)
        return [
            fuzz.run_forked(fuzz.Case(i, "save", [], "", "save", c), workspace)
            for i, c in enumerate(cases)
        ]
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


def test_a_save_pointing_at_another_file_never_prints_it() -> None:
    """A save whose "rules" is /etc/passwd or /proc/self/environ (with that file's real
    digest and a recomputed checksum), or a .rules file whose digest it does not know,
    is refused with nothing of that file quoted."""
    results = pointing_saves()
    assert len(results) == 14
    assert [r for r in results if r["class"] in ("LEAK", "INTERNAL", "TIMEOUT", "MEMORY")] == []

"""Every shipped rule file and stdlib module compiles without errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import rulelang
from rulelang import UsageError
from rulelang.api import compile_file_with_warnings

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))
STDLIB = sorted((ROOT / "stdlib").glob("*.rules"))


def test_there_are_files_to_validate() -> None:
    assert any(p.name == "heimlich.rules" for p in RULESETS)
    assert {p.stem for p in STDLIB} >= {"dice", "rings", "turns"}


@pytest.mark.parametrize("path", RULESETS + STDLIB, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rule_file_compiles_without_errors(path: Path) -> None:
    rules, diagnostics = compile_file_with_warnings(path)
    assert [d for d in diagnostics if d.severity == "error"] == []
    # the title is the one the file (or the file it extends) declares
    declared = re.findall(r'^(?:game|library) "([^"]*)"', path.read_text(), re.M)
    assert declared and rules.title == declared[-1]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_game_starts_for_every_player_count(path: Path) -> None:
    rules = rulelang.compile_file(path)
    assert 1 <= rules.min_players <= rules.max_players
    for n in range(rules.min_players, rules.max_players + 1):
        g = rules.new_game(n, seed=0)
        assert not g.is_over()
        assert g.legal_actions()


@pytest.mark.parametrize("path", STDLIB, ids=lambda p: p.name)
def test_stdlib_module_is_a_library(path: Path) -> None:
    rules = rulelang.compile_file(path)
    with pytest.raises(UsageError, match="is a library of definitions, not a game"):
        rules.new_game(2)


@pytest.mark.parametrize("module", [p.stem for p in STDLIB])
def test_stdlib_module_can_be_imported(module: str) -> None:
    text = f"""game "uses {module}"
players 2..3
import {module}
global {{ total: int = 0 }}
turn {{
  choose x in 1..2
  set total += x
}}
end when total > 4 {{ win [current] }}
"""
    rules = rulelang.compile_source(text, str(ROOT / "tests" / f"uses_{module}.rules"))
    g = rules.new_game(2)
    g.apply("2")
    assert g.view(None)["globals"]["total"] == 2


def test_stdlib_definitions_work() -> None:
    text = """game "stdlib"
players 2..4
import rings
import turns
import dice
global {
  total: int = 0
  after: player = none
}
turn {
  roll r = d4
  set total = wrap(-1, 12) + steps_between(10, 2, 12)
  set after = first(others_after(current))
  choose x in 1..2
}
end when total > 100 { win [current] }
"""
    rules = rulelang.compile_source(text, str(ROOT / "tests" / "uses_stdlib.rules"))
    g = rules.new_game(3, seed=4)
    v = g.view(None)
    assert v["globals"]["total"] == 11 + 4
    assert v["globals"]["after"] == "P2"

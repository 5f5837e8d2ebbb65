"""`any` and `all` over a generator compiled as a loop in a function of their own
(issue 21, item 1; runtime/loops.py, switch `loops.LOOPED`): no generator made and
resumed per evaluation.

Shown firing on the compiled code (no generator left in the def, a `_loop` function
called), staying off where the generator is inside another comprehension, stopping
at the item the generator stopped at (a later item that would raise is never
reached), raising what it raised on the same rule line, and playing the games of the
code without it."""

from __future__ import annotations

import random
from pathlib import Path
from types import CodeType

import pytest

import rulelang
from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import codegen, loops

ROOT = Path(__file__).resolve().parent.parent
RULES = """game "Loops"
players 2..4
card chip count 12 {
  value: int = index % 4
}
zone deck: chip visible to none
zone hand: chip per player visible to owner
player {
  score: int = 0
}
setup {
  add pieces(chip) to deck
  shuffle deck
  deal 2 from deck to hand
}
def rich(q: player) = any(c.value > 2 for c in hand[q] where c.value != 1)
def poor() = all(len(hand[p]) == 0 for p in players)
def nested() = len([p for p in players where any(c.value > 2 for c in hand[p])])
def risky() = all(first(hand[p]).value < 3 for p in players)
turn {
  choose c in hand[current] prompt "which"
  move c from hand[current] to deck
  if rich(current) or poor() or nested() > 3 {
    set current.score = current.score + 1
  }
  if any(p.score > 2 for p in players where p != current) and RISKY {
    set current.score = current.score + 2
  }
  if len(deck) > 0 {
    move last(deck) from deck to hand[current]
  }
}
end when turn_number > 30 { win [current] }
"""


def compiled(on: bool, text: str = RULES.replace("RISKY", "true")) -> Ruleset:
    was = loops.LOOPED, codegen.LAZY
    loops.LOOPED, codegen.LAZY = on, False
    try:
        return rulelang.compile_source(text, "t.rules")
    finally:
        loops.LOOPED, codegen.LAZY = was


def generators(code: CodeType) -> list[str]:
    """The names of the generator expressions a function's code holds, at any depth."""
    found = []
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found += [const.co_name] if const.co_name == "<genexpr>" else []
            found += generators(const)
    return found


def def_code(rules: Ruleset, name: str) -> CodeType:
    return rules.code.ops[0].__globals__[f"_d_{name}"].__code__  # type: ignore[no-any-return]


def test_any_and_all_over_a_generator_are_loops() -> None:
    on, off = compiled(True), compiled(False)
    for name in ("rich", "poor", "risky"):
        assert generators(def_code(off, name)) == ["<genexpr>"]
        assert generators(def_code(on, name)) == []
        assert any(n.startswith("_loop") for n in def_code(on, name).co_names)


def test_left_as_written_inside_another_comprehension() -> None:
    """Without loops.NESTED (tests/test_compiler_opts_nested.py has it on)."""
    was, loops.NESTED = loops.NESTED, False
    try:
        assert generators(def_code(compiled(True), "nested")) == ["<genexpr>"]
    finally:
        loops.NESTED = was


def test_a_loop_function_reads_as_the_generator() -> None:
    """The function written for `any(.. where ..)`: the condition around the test."""
    made: list[tuple[list[str], list[str]]] = []

    def make(params: list[str], body: list[str]) -> str:
        made.append((params, body))
        return "_loop1"

    line = "return any((x[v] > 2) for v in z[q] if (v != 1))  # @4"
    out = loops.looped([line], {"x", "z", "q"}, make)
    assert out == ["return _loop1(q, x, z)  # @4"]
    assert made == [
        (
            ["q", "x", "z"],
            [
                "for v in z[q]:  # @4",
                "    if (v != 1):",
                "        if (x[v] > 2):",
                "            return True",
                "return False",
            ],
        )
    ]
    same = ["return any(v > 2 for v in z for w in v)", "return sum(v for v in z)"]
    assert loops.looped(same, {"z"}, make) == same


def outcome(rules: Ruleset, players: int, seed: int) -> object:
    game = rules.new_game(players, seed)
    try:
        game.playout(random.Random(seed), max_decisions=3000)
    except GameRuntimeError as err:
        return err.code, str(err)
    views = [game.view(p) for p in (rulelang.PUBLIC, *range(players))]
    return game.record(), game.results(), views


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_games(players: int) -> None:
    on, off = compiled(True), compiled(False)
    for seed in range(4):
        assert outcome(on, players, seed) == outcome(off, players, seed)


def test_stops_where_the_generator_stops_and_raises_what_it_raised() -> None:
    """`all(first(hand[p]).value < 3 ...)` raises R004 for an empty hand unless an
    earlier player's card already answered: the same games, the same errors, on the
    same rule line."""
    text = RULES.replace("deal 2", "deal 1").replace(
        "if any(p.score > 2 for p in players where p != current) and RISKY",
        "if turn_number > 1 and risky()",
    )
    on, off = compiled(True, text), compiled(False, text)
    errors = 0
    for seed in range(12):
        got = outcome(on, 3, seed)
        assert got == outcome(off, 3, seed)
        errors += isinstance(got, tuple) and got[0] == "R004"
    assert errors > 0


def test_shipped_games_play_the_same() -> None:
    path = ROOT / "rulesets" / "heimlich-topsecret.rules"
    was = loops.LOOPED
    try:
        rules = []
        for on in (True, False):
            loops.LOOPED = on
            rules.append(rulelang.compile_file(path))
    finally:
        loops.LOOPED = was
    for seed in (1, 2):
        assert outcome(rules[0], 4, seed) == outcome(rules[1], 4, seed)

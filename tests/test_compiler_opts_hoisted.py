"""The state's columns and layers read once per loop of a loops.py function (issue 21,
item 1; runtime/loops.py, switch `loops.HOISTED`): `st.cols[2][c]` tested for each
item reads the column once, before the `for`.

Shown firing on a loop's lines and on the compiled rules, staying off where a name is
taken or the read is the loop's own source, and playing the games of the code without
it (errors on the same rule line included)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from compile_support import compiled_once
from test_compiler_opts_loops import RULES, outcome

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, loops

ROOT = Path(__file__).resolve().parent.parent
# `c.value` reads a column; `first(hand[p])` reads the zones (R004 for an empty hand)
TEXT = RULES.replace("RISKY", "risky()").replace(
    "def risky()",
    "def twos() = [c for c in hand[current] where c.value == 2 or c.value == 3]\ndef risky()",
)


def compiled(on: bool, text: str | Path = TEXT) -> Ruleset:
    was = loops.HOISTED, codegen.LAZY
    loops.HOISTED, codegen.LAZY = on, False
    try:
        if isinstance(text, Path):
            return compiled_once(text)
        return rulelang.compile_source(text, "t.rules")
    finally:
        loops.HOISTED, codegen.LAZY = was


def test_reads_of_an_items_test_go_before_the_loop() -> None:
    body = [
        "_made = []",
        "for _v1 in st.zones[0]:  # @3",
        "    if ((st.cols[2][_v1] == 1) or (cols[2][_v1] == st.layers[0].get(st.current))):",
        "        _made.append(st.cfg.players[_v1])",
        "return _made",
    ]
    assert loops.hoisted(body) == [
        "_made = []",
        "_col2 = st.cols[2]",
        "_lay0 = st.layers[0]",
        "_st_current = st.current",
        "_st_cfg = st.cfg",
        "for _v1 in st.zones[0]:  # @3",  # the source is read once anyway
        "    if ((_col2[_v1] == 1) or (_col2[_v1] == _lay0.get(_st_current))):",
        "        _made.append(_st_cfg.players[_v1])",
        "return _made",
    ]


def test_left_where_nothing_is_repeated_or_a_name_is_taken() -> None:
    plain = ["for _v1 in st.zones[0]:", "    if x[_v1]:", "        return True", "return False"]
    assert loops.hoisted(plain) == plain
    taken = ["for _col2 in st.zones[0]:", "    if st.cols[2][_col2]:", "        return True"]
    assert loops.hoisted(taken) == taken
    # `xst.cols[2]` and `a.cols[2]` are not the state's
    other = ["for v in z:", "    if a.cols[2][v] or xst.cols[2][v]:", "        return True"]
    assert loops.hoisted(other) == other


def test_fires_on_compiled_rules() -> None:
    on, off = compiled(True), compiled(False)
    names = {n for n in on.code.ops[0].__globals__ if n.startswith("_loop")}
    hoisting = [n for n in names if "_col1" in on.code.ops[0].__globals__[n].__code__.co_varnames]
    assert hoisting  # `c.value` is column 1 of the chips
    assert not any(
        "_col1" in off.code.ops[0].__globals__[n].__code__.co_varnames
        for n in off.code.ops[0].__globals__
        if n.startswith("_loop")
    )


def test_the_same_games_and_errors() -> None:
    """`risky()` reads `first(hand[p])`, R004 for an empty hand: the same games, the
    same errors on the same rule line, with and without it."""
    on, off = compiled(True), compiled(False)
    errors = 0
    for players in (2, 3, 4):
        for seed in range(6):
            got = outcome(on, players, seed)
            assert got == outcome(off, players, seed)
            errors += isinstance(got, tuple)
    assert errors > 0


@pytest.mark.parametrize("file", ["saboteur.rules", "labyrinth.rules", "heimlich.rules"])
def test_shipped_games_play_the_same(file: str) -> None:
    on, off = compiled(True, ROOT / "rulesets" / file), compiled(False, ROOT / "rulesets" / file)
    for seed in (1, 2):
        a, b = on.new_game(4, seed), off.new_game(4, seed)
        a.playout(random.Random(seed), max_decisions=4000)
        b.playout(random.Random(seed), max_decisions=4000)
        assert (a.record(), a.results()) == (b.record(), b.results())

"""`(x == a and A) or (x == b and B) or ...` as one read of x and a choice (issue 21;
runtime/dispatch.py, switch `dispatch.DISPATCH`).

Shown firing on a def that asks by kind, staying off for two alternatives, for another
subject, for a constant named twice and for a subject that calls a def, and giving
the answers and errors of the chain as written, and playing the shipped games the
same."""

from __future__ import annotations

import linecache
import random
from pathlib import Path

import pytest
from compile_support import compiled_once

import rulelang
from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import codegen, dispatch

ROOT = Path(__file__).resolve().parent.parent
TEXT = """game "Kinds"
players 2..3
enum kind { red, green, blue, gold }
card chip count 16 {
  kind: kind = [kind.red, kind.green, kind.blue, kind.gold][index % 4]
  value: int = index % 5
}
zone deck: chip visible to none
zone hand: chip per player visible to owner
zone pile: chip visible to all
player {
  score: int = 0
}
setup {
  add pieces(chip) to deck
  shuffle deck
  deal 3 from deck to hand
}
def good(c: chip) =
  (c.kind == red and c.value > 1) or (c.kind == green and len(pile) > 2)
  or (c.kind == blue) or (c.kind == gold and 10 / c.value > 4)
def pair(c: chip) = (c.kind == red and c.value > 1) or (c.kind == green)
def mixed(c: chip) = (c.kind == red) or (c.value == 2) or (c.kind == blue)
def twice(c: chip) = (c.kind == red and c.value > 2) or (c.kind == red) or (c.kind == blue)
turn {
  choose c in hand[current] prompt "which"
  if good(c) or pair(c) or mixed(c) or twice(c) {
    set current.score = current.score + 1
  }
  move c from hand[current] to pile
  if len(deck) > 0 {
    move last(deck) from deck to hand[current]
  }
}
end when len(pile) >= 12 {
  win [p for p in players where p.score == max(q.score for q in players)]
}
"""


def compiled(on: bool, text: str | Path = TEXT) -> Ruleset:
    was = dispatch.DISPATCH, codegen.LAZY
    dispatch.DISPATCH, codegen.LAZY = on, False
    try:
        if isinstance(text, Path):
            return compiled_once(text)
        return rulelang.compile_source(text, "t.rules")
    finally:
        dispatch.DISPATCH, codegen.LAZY = was


def def_source(rules: Ruleset, name: str) -> str:
    table = rules.code.ops[0].__globals__["__rulelang_lines__"]
    (file,) = [f for f in table.tables if f.endswith(f" _d_{name}>")]
    return "".join(linecache.getlines(file))


def test_fires_on_a_def_that_asks_by_kind() -> None:
    on, off = compiled(True), compiled(False)
    good = def_source(on, "good")
    assert good.count("st.cols[1][_a") == 1 and " == 'gold' else False" in good
    assert def_source(off, "good").count("st.cols[1][_a") == 4
    for name in ("pair", "mixed", "twice"):  # two alternatives, another subject, red twice
        assert def_source(on, name) == def_source(off, name)


def test_stays_off_where_the_subject_calls_a_def() -> None:
    """A def of a block is a call (its loops would count steps): read each time."""
    text = TEXT.replace(
        "def good(c: chip) =", "def k(c: chip) {\n  return c.kind\n}\ndef good(c: chip) ="
    ).replace("(c.kind == ", "(k(c) == ")
    on = def_source(compiled(True, text), "good")
    assert on.count("_d_k(st, ") == 4 and ":=" not in on


def outcome(rules: Ruleset, players: int, seed: int) -> object:
    game = rules.new_game(players, seed)
    try:
        game.playout(random.Random(seed), max_decisions=500)
    except GameRuntimeError as err:
        return err.code, str(err)
    return game.record(), game.results()


def test_the_same_answers_and_errors() -> None:
    """`10 / c.value` raises for a gold chip of value 0 (R-error, on its rule line)
    wherever the chain reaches it: the same games and errors either way."""
    on, off = compiled(True), compiled(False)
    errors = 0
    for players in (2, 3):
        for seed in range(12):
            got = outcome(on, players, seed)
            assert got == outcome(off, players, seed)
            errors += isinstance(got, tuple) and len(got) == 2 and isinstance(got[0], str)
    assert errors > 0


@pytest.mark.parametrize("file", ["saboteur.rules", "labyrinth.rules"])
def test_shipped_games_play_the_same(file: str) -> None:
    on, off = compiled(True, ROOT / "rulesets" / file), compiled(False, ROOT / "rulesets" / file)
    for seed in (1, 2):
        a, b = on.new_game(4, seed), off.new_game(4, seed)
        a.playout(random.Random(seed), max_decisions=4000)
        b.playout(random.Random(seed), max_decisions=4000)
        assert (a.record(), a.results()) == (b.record(), b.results())

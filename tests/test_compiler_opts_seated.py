"""A seat's zone read without its test for `none` in a def written in place, and in a
choice among the players (issue 21, item 1; exprgen.py `seated`, switch
`exprgen.SEATED`): `any(can_break(c, p) for p in players)`, with `can_break` reading
`front[p]`, reads `zones[12 + p]` for each seat; `choose victim in players require
can_break(c, victim)` likewise.

Shown firing there, staying off where the argument may be `none` (a parameter, a
global), and playing the games of the code without it, Saboteur's included, errors too."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from compile_support import compiled as compiled_src
from test_compiler_opts_locals import played

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, exprgen

ROOT = Path(__file__).resolve().parent.parent

RULES = """zone hand: piece per player visible to all
card piece count 8 {
  value: int = index
}
global {
  someone: player
}
def has(p: player) = len(hand[p]) > 0
setup {
  add pieces(piece) to hand[players[0]]
}
turn {
  choose q in players require has(q) or q == current else "empty" prompt "whom?"
  if any(has(p) for p in players) and has(someone) and has(current) {
    move first(hand[current]) from hand[current] to hand[q]
  }
  set someone = q
}
end when turn_number > 6 { win [current] }
"""
CHECK = "_h.zone_slot("


def with_seated(on: bool, make: object) -> Ruleset:
    was = exprgen.SEATED, codegen.LAZY
    exprgen.SEATED, codegen.LAZY = on, False
    try:
        return make()  # type: ignore[operator, no-any-return]
    finally:
        exprgen.SEATED, codegen.LAZY = was


def test_fires_for_seats_and_stays_off_for_a_player_that_may_be_none() -> None:
    on = with_seated(True, lambda: compiled_src(RULES))
    off = with_seated(False, lambda: compiled_src(RULES))
    text_on, text_off = "\n".join(on.code.source), "\n".join(off.code.source)
    seat = re.compile(r"_h\.zone_slot\(0, \(*_v\d+")  # the test of a seat's variable
    assert seat.search(text_off) and not seat.search(text_on)
    # the global `someone` (none until set) keeps its test
    assert re.search(r"_h\.zone_slot\(0, \(*(st\.)?vars_?\[0\]", text_on)
    for rules in (on, off):  # and raises where it is none, as before
        with pytest.raises(rulelang.GameRuntimeError) as err:
            rules.new_game(2, 1).playout(random.Random(1))
        assert "none" in str(err.value)


def test_a_tile_game_plays_the_same_games() -> None:
    path = ROOT / "rulesets" / "saboteur.rules"
    on = with_seated(True, lambda: rulelang.compile_file(path))
    off = with_seated(False, lambda: rulelang.compile_file(path))
    count = ["\n".join(r.code.source).count(CHECK) for r in (on, off)]
    assert count[0] < count[1]
    for seed in (1, 2, 3):
        assert played(on, 5, seed, 60) == played(off, 5, seed, 60)
        assert played(on, 3, seed, 3000) == played(off, 3, seed, 3000)

"""A player's zone whose owner may be `none` (a def's parameter) is tested inline
(exprgen, `zone_slot`; switch `exprgen.INLINE_SLOTS`): `hand[p]` is
`st.zones[base + p if p is not None else _h.zone_slot(...)]`, the helper called only
to raise R015 for `none`, where every read called it (issue 21, item 1: Saboteur's
`can_break` and `can_repair` ask it of every player at every broken or repair card).

Shown firing on generated source, raising the same error as before for `none`, and
playing the plain code's games (tests/test_compiler_opts.py plays every shipped game
both ways)."""

from __future__ import annotations

import random

import pytest
from compile_support import compiled

from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import exprgen

HANDS = """
card card count 6 {
  n: int = index
}
zone deck: card visible to all
zone hand: card per player visible to all
global {
  nobody: player = none
}
def holds(p: player) = len(hand[p])
def most() = max(holds(p) for p in players)
setup {
  add pieces(card) to deck
  for p in players {
    move last(deck) from deck to hand[p]
  }
}
turn {
  choose c in hand[current] require holds(current) <= most() else "not now"
  move c from hand[current] to deck
  if len(deck) > 5 {
    let k = holds(nobody)
  }
}
end when len(deck) == 6 { }
"""


def test_the_owner_is_tested_inline() -> None:
    rules = compiled(HANDS)
    holds = rules.code.ops[0].__globals__["_d_holds"]
    import inspect

    text = inspect.getsource(holds)
    assert " is not None else _h.zone_slot(" in text
    was = exprgen.INLINE_SLOTS
    exprgen.INLINE_SLOTS = False
    try:
        plain = compiled(HANDS)
    finally:
        exprgen.INLINE_SLOTS = was
    plain_text = inspect.getsource(plain.code.ops[0].__globals__["_d_holds"])
    assert " is not None" not in plain_text and "_h.zone_slot(" in plain_text


def test_none_as_the_owner_raises_as_before() -> None:
    for inline in (True, False):
        was = exprgen.INLINE_SLOTS
        exprgen.INLINE_SLOTS = inline
        try:
            rules = compiled(HANDS)
        finally:
            exprgen.INLINE_SLOTS = was
        game = rules.new_game(2, seed=3)
        with pytest.raises(GameRuntimeError, match="a zone of 'none'") as raised:
            game.playout(random.Random(1))
        assert raised.value.code == "R015"


def test_the_same_games_with_the_owner_tested_inline() -> None:
    rules, plain = compiled(HANDS.replace("len(deck) > 5", "false")), None
    was = exprgen.INLINE_SLOTS
    exprgen.INLINE_SLOTS = False
    try:
        plain = compiled(HANDS.replace("len(deck) > 5", "false"))
    finally:
        exprgen.INLINE_SLOTS = was
    for seed in range(1, 6):
        a, b = rules.new_game(2, seed=seed), plain.new_game(2, seed=seed)
        a.playout(random.Random(seed))
        b.playout(random.Random(seed))
        assert a.record() == b.record() and a.results() == b.results()

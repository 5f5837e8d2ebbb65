"""`x == none` as Python's `x is None` (switch `exprgen.NONE_IS`): no value of the rules
(a number, a text, a truth value, a list, a player, a node) is equal to None but None,
and `is` asks it without `==` trying both sides' comparisons first.

Shown firing on the generated source, and playing the very games of the plain code
and of the switch off, with values that are none and values that are not.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.runtime import exprgen

NONE_IS = """
board b = grid(0, 2, 0, 0)
player { pal: player = none  word: text = none  at: node(b) = cell(b, 0, 0)  score: int = 0 }
const words = ["a", "b", "c"]
def tally(p: player) = (if p.pal == none then 1 else 0) + (if p.word != none then 2 else 0)
  + (if neighbour(b, p.at, 1) == none then 4 else 0) + (if p.score != none then 8 else 0)
turn {
  choose w in words
  if w == "a" { set current.pal = if current.pal == none then current else none }
  if w == "b" { set current.word = if current.word != none then none else w }
  let east = neighbour(b, current.at, 1)
  if w == "c" and east != none { set current.at = east }
  set current.score = current.score + tally(current)
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    g.playout(random.Random(seed))
    return g.record(), g.results(), g.state.cols


def test_a_comparison_with_none_is_an_identity_test() -> None:
    rules = compiled(NONE_IS)
    tally = source_of(rules, "_d_tally")
    assert tally.count(" is None") == 2 and tally.count(" is not None)") >= 2
    assert "== None" not in tally and "!= None" not in tally
    exprgen.NONE_IS = False
    try:
        alone = compiled(NONE_IS)
    finally:
        exprgen.NONE_IS = True
    assert "== None" in source_of(alone, "_d_tally")
    plain = compiled(NONE_IS, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 9)]
    assert outcomes == [played(plain, seed) for seed in range(1, 9)]
    assert outcomes == [played(alone, seed) for seed in range(1, 9)]
    scores = {score for o in outcomes for score in o[2][3]}  # type: ignore[index]
    assert len(scores) > 4  # the tests went each way

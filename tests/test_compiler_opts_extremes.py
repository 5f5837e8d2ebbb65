"""`min(a, b)` and `max(a, b)` as one comparison (switch `exprgen.TWO_EXTREMES`): each
side evaluated once, a before b, a given on a tie, and a `none` failing (R030) as
Python's builtins fail.

Shown firing on the generated source, left as a call where it must be (a list's
extreme, a comparison inside a comprehension's source), and playing the very games of
the plain code and of the switch off, a `none` compared included.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import exprgen

EXTREMES = """
player { low: int = 5  high: int = 5  box: list(int) = [3, 3]  odd: int = 0 }
const steps = [-2, -1, 0, 1, 2]
def spread(p: player, d: int) = max(p.high, p.high + d) - min(p.low + d, p.low)
def widest(p: player) = max(p.box) + len([k for k in 0..min(3, p.high) where k != 1])
turn {
  choose d in steps
  set current.low = min(current.low, current.low + d)
  set current.high = max(current.high + d, current.high)
  set current.box = [min(current.box[0], d), max(d, current.box[1])]
  set current.odd = spread(current, d) + widest(current)
  if turn_number == 11 and d == 2 { set current.odd = min(current.odd, none) }
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # min(x, none): R030
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def test_the_extreme_of_two_is_a_comparison() -> None:
    rules = compiled(EXTREMES)
    spread = source_of(rules, "_d_spread")
    assert "min(" not in spread and "max(" not in spread
    assert " >= (_t" in spread and " <= (_t" in spread  # each side once, a first
    widest = source_of(rules, "_d_widest")
    assert "_h.extreme(" in widest and "min(3, " in widest  # a list's; in a source
    exprgen.TWO_EXTREMES = False
    try:
        alone = compiled(EXTREMES)
    finally:
        exprgen.TWO_EXTREMES = True
    assert "max(" in source_of(alone, "_d_spread")
    plain = compiled(EXTREMES, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 25)]
    assert outcomes == [played(plain, seed) for seed in range(1, 25)]
    assert outcomes == [played(alone, seed) for seed in range(1, 25)]
    assert {o[1] for o in outcomes if len(o) == 4} == {"R030"}
    assert any(len(o) == 3 for o in outcomes)  # games that end, and games that fail

"""A def's `x in p.attr` read once before its loop (runtime/invariant.py, switch
`invariant.HOISTED`): a def changes nothing of the game, so its parameter's list is
the same all through a call.

Shown firing on the generated source, leaving alone what it must (a read outside a
loop, a comparison that is not `in`), and playing the very games of the plain code
and of the switch off, a `none` player passed to the def (R030) included.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import invariant

HOISTED = """
player { seen: list(text) = []  score: int = 0  pal: player = none }
const words = ["a", "b", "c", "d"]
def count_seen(p: player, xs: list(text)) {
  let n = 0
  if len(xs) > 10 and "z" in p.seen { set n = 100 }  # never: none fails in the loop
  for x in xs {
    if x in p.seen and p.pal != none and not (x in p.pal.seen) { set n += 1 }
    if p.seen == xs { set n += 10 }
  }
  return n
}
turn {
  choose w in words
  set current.seen = current.seen + [w]
  if w == "d" and turn_number > 6 { set current.pal = current }
  set current.score = count_seen(current, words)
  if w == "c" and turn_number > 9 { set current.score = count_seen(current.pal, words) }
}
end when turn_number == 14 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # p.pal.seen of none, or count_seen(none): R030
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def test_a_loops_in_test_of_a_parameters_list_reads_it_once() -> None:
    rules = compiled(HOISTED)
    src = source_of(rules, "_d_count_seen")
    before, loop = src.split("for ", 1)
    assert "_q0_a0 = cols[0][_a0] if _a0 is not None else None" in before
    assert "in _q0_a0" in loop and "in cols[0][_a0]" not in loop  # x in p.seen
    assert "in cols[0][cols[2][_a0]]" in loop  # p.pal.seen: not a parameter's own
    assert "cols[0][_a0] == " in loop  # not an `in` test: read where it stands
    assert "('z' in cols[0][_a0])" in before  # outside the loop: as it was
    invariant.HOISTED = False
    try:
        alone = compiled(HOISTED)
    finally:
        invariant.HOISTED = True
    assert "_q0_a0" not in source_of(alone, "_d_count_seen")
    plain = compiled(HOISTED, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 13)]
    assert outcomes == [played(plain, seed) for seed in range(1, 13)]
    assert outcomes == [played(alone, seed) for seed in range(1, 13)]
    codes = {o[1] for o in outcomes if len(o) == 4}
    assert codes == {"R030"} and any(len(o) == 3 for o in outcomes)  # errors, and ends
    lines = {o[2].line for o in outcomes if len(o) == 4}
    assert lines == {10}  # `x in p.seen` of none: on its line, in the loop, as before

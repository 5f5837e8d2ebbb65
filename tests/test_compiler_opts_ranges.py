"""The values of lets and procs' parameters (runtime/ranges.py, switch
`exprgen.RANGES`): `let d = dir_of(way)`, where every branch of dir_of is 0 to 3, and
a proc that every `do` passes such a d, read a const list of four items, `(d + 2) % 4`
and a grid's neighbour or side at d without a check.

Shown firing on the generated source, keeping the check where a value may fall
outside (a `set` of the local, a call with another number), and playing the very
games of the plain code, errors included.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import exprgen

RANGES = """
board b = grid(0, 2, 0, 2) {
  edge shut: bool = false
}
player { at: node(b) = cell(b, 1, 1)  trail: list(text) = [] }
const names = ["up", "right", "down", "left"]
const dxs = [0, 1, 0, -1]
def dir_of(w: text) = if w == "up" then 0 else if w == "right" then 1
                      else if w == "down" then 2 else 3
proc step(p: player, d: int) {
  set p.trail = p.trail + ["{names[d]} {names[(d + 2) % 4]} {dxs[d]}"]
  let n = neighbour(b, p.at, d)
  if n != none and not b.shut[p.at, d] { set p.at = n }
}
proc jump(p: player, k: int) {
  set p.trail = p.trail + ["{names[k]}"]
}
turn {
  choose w in names
  let d = dir_of(w)
  do step(current, d)
  let e = d
  if e == 0 { set e = 5 }
  if e < 4 { do jump(current, e) }
  if turn_number == 7 { do jump(current, 4 - d) }
}
end when turn_number == 10 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # jump(p, 4 - 0): names[4], R003
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def test_a_value_known_to_be_a_direction_needs_no_check() -> None:
    rules = compiled(RANGES)
    step = source_of(rules, "_p_step")
    assert "_h.index" not in step and "len(" not in step  # names[d], dxs[d], (d+2)%4
    assert ".next_cell[cols[0][_a1]][_a2]" in step and "_h.neighbour" not in step
    assert ".canon[4 * " in step and "0 <= _a2" not in step  # the side, no check of d
    assert "_h.index" in source_of(rules, "_p_jump")  # 4 - d, or 5: checked
    exprgen.RANGES = False
    try:
        alone = compiled(RANGES)
    finally:
        exprgen.RANGES = True
    assert "_h.index" in source_of(alone, "_p_step")
    plain = compiled(RANGES, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 9)]
    assert outcomes == [played(plain, seed) for seed in range(1, 9)]
    assert outcomes == [played(alone, seed) for seed in range(1, 9)]
    assert {len(o) for o in outcomes} == {3, 4}  # games ended, and games failing

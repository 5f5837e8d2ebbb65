"""A read of the state passed to a short def that reads its parameter twice, read
once (exprgen `named_args`, switch `exprgen.NAMED_READS`): `here(p) = key(p.spot[0],
p.spot[1])`, with `key(a, b) = "{a},{b}"` showing each number as `_INTS.get(a, a)`,
reads `p.spot[0]` once, named where the body first reads it (`(_t1 := ...)`), not
twice. Not in a body with branches (its first read written may not be worked out
first), nor in a comprehension (what `:=` names there is a cell of the function).

Shown firing on the generated source, and playing the very games of the plain code
and of the switch off, an R030 of a `none` player's read included.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import GameRuntimeError, Ruleset
from rulelang.runtime import exprgen

NAMED = """
player { spot: list(int) = [0, 0]  trail: list(text) = []  pal: player = none }
const steps = [-300, -7, 0, 1, 250]
def key(a: int, b: int) = "{a},{b}"
def here(p: player) = key(p.spot[0], p.spot[1])
def twice(a: int) = if a > 0 then a + a else 0 - a
def size(p: player) = twice(p.spot[0])
def near(p: player) = [here(q) for q in players where q != p]
turn {
  choose d in steps
  set current.spot = [current.spot[0] + d, current.spot[1] - d]
  set current.trail = current.trail + [here(current), "{size(current)}"] + near(current)
  if d == 250 and turn_number > 5 { set current.pal = current }
  if turn_number == 11 { set current.trail = current.trail + [here(current.pal)] }
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # here(current.pal) of none: R030
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def test_a_state_read_a_short_def_reads_twice_is_read_once() -> None:
    rules = compiled(NAMED)
    here = source_of(rules, "_d_here")
    assert here.count("[_a2][0]") == 1 and here.count("[_a2][1]") == 1  # p.spot[0], [1]
    assert here.count(":= ") == 2 and here.count("_INTS.get(") == 2
    size = source_of(rules, "_d_size")  # twice's body branches: read where it reads a
    assert ":= " not in size and size.count("[_a4][0]") == 4
    near = source_of(rules, "_d_near")  # in a comprehension: here's body unnamed there
    assert ":=" not in near and near.count("_INTS.get(") == 2  # (`:=` would make cells)
    exprgen.NAMED_READS = False
    try:
        alone = compiled(NAMED)
    finally:
        exprgen.NAMED_READS = True
    assert ":=" not in source_of(alone, "_d_here")
    plain = compiled(NAMED, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 13)]
    assert outcomes == [played(plain, seed) for seed in range(1, 13)]
    assert outcomes == [played(alone, seed) for seed in range(1, 13)]
    assert {o[1] for o in outcomes if len(o) == 4} == {"R030"}
    assert any(len(o) == 3 for o in outcomes)  # and games to their end

"""Defs compiled a second time for calls of known values (ranges.def_specs, switch
`exprgen.SPECIALISE`): a def of one expression whose whole-number parameter is passed,
at some calls, a value known to be 0 to 3 (`let d = dir_of(w)`) is compiled again
knowing it, and those calls use that version (`_d_0r_NAME`, written in place when
short): its reads of a grid's side and neighbour, and of a const list, check no
direction. A call with a value not known so (read from the state) calls the def as
it is, which keeps its checks.

Shown firing on the generated source, and playing the very games of the plain code
and of the switch off, errors included (a direction of 4 read from the state).
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import exprgen

SPECS = """
board b = grid(0, 2, 0, 2) {
  edge shut: bool = false
}
player { at: node(b) = cell(b, 1, 1)  flow: int = 1  trail: list(text) = [] }
const names = ["up", "right", "down", "left"]
def dir_of(w: text) = if w == "up" then 0 else if w == "right" then 1
                      else if w == "down" then 2 else 3
def blocked(c: node(b), d: int) =
  if neighbour(b, c, d) == none then true else b.shut[c, d]
def named(d: int) = names[d]
turn {
  choose w in names
  let d = dir_of(w)
  if not blocked(current.at, d) {
    set current.at = neighbour(b, current.at, d)
    set current.trail = current.trail + [named(d)]
  }
  if turn_number == 4 { set current.flow = 3 }
  if turn_number == 9 { set current.flow = 4 }
  if blocked(current.at, current.flow) { set current.trail = current.trail + ["pushed"] }
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # blocked(c, 4): no side 4
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def turn_source(rules: Ruleset) -> str:
    return "\n".join(rules.code.source)


def test_a_def_called_with_a_direction_is_compiled_again_without_its_checks() -> None:
    rules = compiled(SPECS)
    again = source_of(rules, "_d_0r_blocked")
    assert ".next_cell[_a" in again and "_h.neighbour" not in again and "0 <= " not in again
    assert "0 <= _a" in source_of(rules, "_d_blocked")  # the def as it is: checked
    turn = turn_source(rules)
    assert "_d_blocked(st, " in turn  # current.flow: not known, the checked def
    assert "_d_0r_blocked(st, " in turn  # d = dir_of(w): the second version
    assert "_h.index" not in turn and "_d_named" not in turn  # names[d], short: in place
    exprgen.SPECIALISE = False
    try:
        alone = compiled(SPECS)
    finally:
        exprgen.SPECIALISE = True
    assert "_d_0r_blocked" not in alone.code.ops[0].__globals__
    assert "_d_0r_blocked" not in turn_source(alone) and "_h.index" in turn_source(alone)
    plain = compiled(SPECS, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 9)]
    assert outcomes == [played(plain, seed) for seed in range(1, 9)]
    assert outcomes == [played(alone, seed) for seed in range(1, 9)]
    assert {len(o) for o in outcomes} == {3, 4}  # games ended, and games failing (side 4)


def test_a_def_named_like_a_second_version_is_its_own() -> None:
    """A rule's def may be named `_r_blocked`: the second version of `blocked` was
    named so, and one took the other's place (the players never moved: `blocked`
    became the other def's `true`). The games are now those of the same rules with
    the def named otherwise."""
    src = SPECS.replace("  if turn_number == 9 { set current.flow = 4 }\n", "")
    src = src.replace(
        "def named(d: int) = names[d]",
        'def named(d: int) = names[d]\ndef _r_named(d: int) = "X{d}"\n'
        "def _r_blocked(c: node(b), d: int) = true",
    )
    src = src.replace(
        "set current.trail = current.trail + [named(d)]",
        "set current.trail = current.trail + [named(d), _r_named(d)]\n"
        '    if _r_blocked(current.at, d) { set current.trail = current.trail + ["rb"] }',
    )
    renamed = src.replace("_r_named", "zz_named").replace("_r_blocked", "zz_blocked")
    rules, other = compiled(src), compiled(renamed)
    assert "_d_0r_blocked(st, " in turn_source(rules)  # the second version is used
    for seed in range(1, 6):
        assert played(rules, seed) == played(other, seed)
    moved = {tuple(played(rules, seed)[2][0]) for seed in range(1, 6)}  # type: ignore[index]
    assert moved != {(4, 4)}  # the players left the middle cell

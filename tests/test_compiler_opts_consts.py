"""Consts written as a list of plain numbers and texts (switch
`exprgen.LITERAL_CONSTS`): their value is the same at every table, so the generated
code reads them from a global of its own (`_c7[d]`) instead of `st.cfg.consts[7]`.
A const of another kind (a param in it, a text with a value) is read as before.

Shown firing on the generated source, and playing the very games of the plain code
and of the switch off, errors included (an index past the end of a const list).
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import exprgen

CONSTS = """
param reach = 2 "how far"
player { steps: list(int) = []  said: list(text) = [] }
const names = ["up", "right", "down", "left"]
const dxs = [0, 1, 0, -1]
const far = [reach, reach + 1]
const sized = ["{reach} steps", "one"]
proc note(p: player, k: int) {
  set p.steps = p.steps + [dxs[k] + far[0]]
  set p.said = p.said + [names[k], sized[0]]
}
turn {
  choose w in names
  do note(current, len(current.steps) % 5)
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # dxs[4]: past the end
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def test_a_const_list_of_plain_values_is_a_global_of_the_generated_code() -> None:
    rules = compiled(CONSTS)
    note = source_of(rules, "_p_note")
    names = rules.code.ops[0].__globals__
    held = [n for n in names if n.startswith("_c") and isinstance(names[n], tuple)]
    assert {names[n] for n in held} == {(0, 1, 0, -1), ("up", "right", "down", "left")}
    assert all(f"{n}[" in note for n in held)  # dxs[k], names[k] from the globals
    assert note.count("cfg.consts[") == 2  # far (a param in it), sized (a value in it)
    exprgen.LITERAL_CONSTS = False
    try:
        alone = compiled(CONSTS)
    finally:
        exprgen.LITERAL_CONSTS = True
    mine = alone.code.ops[0].__globals__
    assert not [n for n in mine if n.startswith("_c") and isinstance(mine[n], tuple)]
    assert source_of(alone, "_p_note").count("cfg.consts[") > 2  # dxs, names there too
    plain = compiled(CONSTS, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 5)]
    assert outcomes == [played(plain, seed) for seed in range(1, 5)]
    assert outcomes == [played(alone, seed) for seed in range(1, 5)]
    assert {len(o) for o in outcomes} == {4}  # each game fails at dxs[4]

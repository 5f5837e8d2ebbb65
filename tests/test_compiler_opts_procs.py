"""A proc that never pauses takes its arguments as a Python function's, and keeps its
locals in Python variables, as a def does (codegen `python_procs`, switch
`codegen.PYTHON_PROCS`): no argument written into the state's locals before the call
and read back from there inside it.

As in test_compiler_opts.py, shown to fire on the generated source and to play the
very games the plain code plays (`exprgen.OPTIMISED` off, or the switch alone off).
"""

from __future__ import annotations

import random

import pytest
from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import codegen

PROCS = """
player { score: int = 0  marks: list(int) = [] }
const steps = [1, 2, 3]
proc bump(p: player, by: int) {
  let twice = by * 2
  set p.score += twice
  for k in 0..by {
    let odd = k % 2 == 1
    if odd { set p.marks = p.marks + [k] }
  }
  repeat by { set p.score -= 1 }
  do note(p, [q for q in players where q != p and q.score < twice], twice)
}
proc note(p: player, others: list(player), n: int) {
  say "{p} {n} {others} {p.marks}"
  for q in others { set q.score += steps[n % 3] }
}
proc fail(i: int) {
  let xs = [i, i + 1]
  say "{xs[i]}"
}
turn {
  choose n in 1..3
  do bump(current, n)
  if current.score > 12 { do fail(n) }
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # placed on its rule line, as the plain code's
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.measures()


def test_a_proc_that_never_pauses_takes_python_arguments() -> None:
    rules = compiled(PROCS)
    plain = compiled(PROCS, optimised=False)
    bump = source_of(rules, "_p_bump")
    assert bump.startswith("def _p_bump(st, _a")  # its parameters, as a def's
    assert "st.loc[" not in bump and "loc[" not in bump  # nor its locals
    assert "_p_note(st, _a" in bump  # the callee's arguments passed, not stored
    assert source_of(plain, "_p_bump").startswith("def _p_bump(st):")
    codegen.PYTHON_PROCS = False
    try:
        alone = compiled(PROCS)
    finally:
        codegen.PYTHON_PROCS = True
    assert source_of(alone, "_p_bump").startswith("def _p_bump(st):")
    for seed in range(1, 9):
        assert played(rules, seed) == played(plain, seed) == played(alone, seed)


def test_an_error_in_such_a_proc_is_placed_as_in_the_plain_code() -> None:
    got = []
    for rules in (compiled(PROCS), compiled(PROCS, optimised=False)):
        g = rules.new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            while not g.is_over():
                g.apply("3")
        got.append((info.value.code, info.value.span, str(info.value)))
    assert got[0] == got[1] and got[0][0] == "R003"  # xs[3] of a list of two

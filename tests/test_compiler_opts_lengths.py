"""List attributes of a fixed length (runtime/lengths.py, switch `exprgen.FIXED_LENGTHS`):
a player's attribute or a global whose default is a list of n items, and that every
`set` of the rules gives a list of n items, is read at a whole number below n without
a check, as a const written as a list is.

Shown firing on the generated source, not firing where a `set` may change the length,
playing the very games of the plain code, and `Game.edit` refusing a list of another
length (which the reads without checks could not take).
"""

from __future__ import annotations

import random

import pytest
from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import UsageError
from rulelang.runtime import exprgen

LENGTHS = """
player {
  spot: list(int) = [0, 0]
  box: list(int) = [1, 2, 3]
  grows: list(int) = [0, 0]
}
global { pair: list(int) = [5, 6] }
def far(p: player) = p.spot[0] + p.spot[1] + p.box[2] + pair[1]
def long(p: player) = p.grows[1]
turn {
  choose n in 1..3
  set current.spot = [current.spot[1] + n, current.spot[0]]
  set current.box = [current.box[i] + n for i in 0..2]
  set current.box[1] = n
  set pair = [pair[1], n]
  if n == 3 { set current.grows = current.grows + [n] }
  say "{far(current)} {long(current)}"
}
end when turn_number == 8 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    g.playout(random.Random(seed))
    return g.record(), g.results(), g.state.cols, g.state.vars


def test_a_list_attribute_of_a_fixed_length_is_read_without_a_check() -> None:
    rules = compiled(LENGTHS)
    far = source_of(rules, "_d_far")
    assert "len(" not in far and "_h.index" not in far  # spot, box and pair: fixed
    assert "st.cols[1][_a0][2]" in far and "st.vars[0][1]" in far
    assert "_h.index" in source_of(rules, "_d_long")  # grows gets longer: checked
    exprgen.FIXED_LENGTHS = False
    try:
        alone = compiled(LENGTHS)
    finally:
        exprgen.FIXED_LENGTHS = True
    assert "_h.index" in source_of(alone, "_d_far")
    plain = compiled(LENGTHS, optimised=False)
    for seed in range(1, 7):
        assert played(rules, seed) == played(plain, seed) == played(alone, seed)


def test_an_edit_keeps_the_length_the_rules_keep() -> None:
    g = compiled(LENGTHS).new_game(2, seed=1)
    edit = g.edit()
    edit.set("spot", [4, 5], of=0)
    assert g.state.cols[0][0] == (4, 5)
    with pytest.raises(UsageError, match="'spot' holds a list of 2 items"):
        edit.set("spot", [4], of=1)
    with pytest.raises(UsageError, match="'pair' holds a list of 2 items"):
        edit.set("pair", [1, 2, 3])
    edit.set("grows", [1, 2, 3], of=1)  # not of a fixed length: any list

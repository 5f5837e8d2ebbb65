"""Two changes to what a def's code does in place:

- a short def whose body reads a parameter twice, written in place of a call whose
  argument is not cheap (`key(x + 1, y - 1)`), each argument named where the body
  first reads it (switch `exprgen.NAMED_ARGS`): only where the body, without
  branches, reads every parameter and first reads them in their order, so that each
  argument is worked out once, always, and in the call's order;
- a def's local list whose items are set in a loop (`set xs[i] = v`) held as a Python
  list and changed in place (switch `growing.ITEMS_IN_PLACE`), an index outside it
  failing as before (R024): not a list set once (copied: cheaper), nor one whose
  items' items are set.

Shown firing on the generated source, staying off where it must, and playing the very
games of the plain code and of the switches off, errors included.
"""

from __future__ import annotations

import random
import re
import warnings

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import GameRuntimeError, Ruleset
from rulelang.runtime import exprgen, growing

NAMED = """
player { spot: list(int) = [0, 0]  trail: list(text) = [] }
const steps = [-3, 0, 1, 2]
def key(a: int, b: int) = "{a},{b}"
def swapped(a: int, b: int) = "{b},{a},{b}"
def ring(p: player) = [key(p.spot[0] + d, p.spot[1] - d) for d in steps]
def around(p: player) {
  let out: list(text) = []
  for d in steps {
    set out = out + [key(p.spot[0] + d, p.spot[1] - d), swapped(d + 1, d - 1)]
  }
  return out
}
turn {
  choose d in steps
  set current.spot = [current.spot[0] + d, current.spot[1] - d]
  set current.trail = around(current) + ring(current)
}
end when turn_number == 12 { }
"""

ITEMS = """
player { marks: list(bool) = []  count: int = 0 }
const far = [0, 1, 2, 3, 9]
def reach(n: int) {
  let seen = [false for i in 0..5]
  let todo = [0]
  let k = 0
  while k < len(todo) {
    for e in [todo[k] + 1, todo[k] + n] {
      if e < 6 and not seen[e] {
        set seen[e] = true
        set todo = todo + [e]
      }
    }
    set k += 1
  }
  return seen
}
def once(n: int) {
  let xs = [1, 2, 3]
  set xs[1] = n
  return xs
}
def deep(n: int) {
  let xs = [[1, 2], [3, 4]]
  for i in 0..1 { set xs[i][0] = n }
  return xs
}
def flipped(n: int) {
  let xs = [false, false, false]
  for i in 0..2 { set xs[(i + n) % 3] = true }
  for x in xs { set xs[0] = not x }
  return xs
}
def outside(n: int) {
  let xs = [0, 0, 0]
  for i in 0..n { set xs[i] = i }
  return xs
}
turn {
  choose n in far
  set current.marks = reach(n) + flipped(n) + [len(once(n)) == 3, len(deep(n)) == 2]
  set current.count += len([m for m in current.marks where m])
  if turn_number > 6 { set current.count += len(outside(n)) }
}
end when turn_number == 14 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def test_a_short_def_is_written_in_place_its_arguments_named() -> None:
    rules = compiled(NAMED)
    around = source_of(rules, "_d_around")
    assert "_d_key" not in around and around.count(":= ") == 2  # each argument once
    assert "_d_swapped" in around  # b first read before a: called
    ring = source_of(rules, "_d_ring")  # in a comprehension: `:=` would make cells
    assert "_d_key" in ring
    exprgen.NAMED_ARGS = False
    try:
        alone = compiled(NAMED)
    finally:
        exprgen.NAMED_ARGS = True
    assert "_d_key" in source_of(alone, "_d_around")
    plain = compiled(NAMED, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 7)]
    assert outcomes == [played(plain, seed) for seed in range(1, 7)]
    assert outcomes == [played(alone, seed) for seed in range(1, 7)]


def test_a_local_list_whose_items_are_set_in_a_loop_is_changed_in_place() -> None:
    rules = compiled(ITEMS)
    reach = source_of(rules, "_d_reach")
    assert "_h.replaced" in reach and "] = True" in reach  # in place; R024 past its end
    assert "= list(" in reach  # a list made of the comprehension's tuple
    assert "_h.replaced" in source_of(rules, "_d_once") and "] = " not in source_of(
        rules, "_d_once"
    ).replace("_a", "")  # set once, outside a loop: a copy
    deep = source_of(rules, "_d_deep")
    assert "list(" not in deep and deep.count("_h.replaced") == 2  # items' items: copies
    flipped = source_of(rules, "_d_flipped")
    assert re.search(r"_seq\d+ = tuple\(_a", flipped)  # a loop setting it: over a copy
    growing.ITEMS_IN_PLACE = False
    try:
        alone = compiled(ITEMS)
    finally:
        growing.ITEMS_IN_PLACE = True
    assert "list(" not in source_of(alone, "_d_reach")
    plain = compiled(ITEMS, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 13)]
    assert outcomes == [played(plain, seed) for seed in range(1, 13)]
    assert outcomes == [played(alone, seed) for seed in range(1, 13)]
    assert {o[1] for o in outcomes if len(o) == 4} == {"R024"}  # outside(9): past its end
    assert any(len(o) == 3 for o in outcomes)  # and games to their end


def test_an_item_set_at_a_number_compiles_without_a_warning() -> None:
    """`set xs[2] = v` wrote `if 2 is not None and ...`, which Python compiles with a
    SyntaxWarning that every compile of the rules printed; a number needs no test for
    none, and a negative one still fails as before (R024)."""
    source = ITEMS.replace("for x in xs { set xs[0] = not x }", "for x in xs { set xs[2] = x }")
    source = source.replace("for i in 0..n { set xs[i] = i }", "for i in 0..n { set xs[-1] = i }")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rules = compiled(source)
    assert "if 0 <= 2 < len(" in source_of(rules, "_d_flipped")
    growing.ITEMS_IN_PLACE = False
    try:
        off = compiled(source)
    finally:
        growing.ITEMS_IN_PLACE = True
    for seed in range(4):
        assert played(rules, seed) == played(off, seed)
    assert any("R024" in str(played(rules, seed)) for seed in range(4))

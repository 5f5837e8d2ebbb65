"""Locals never below 0 (ranges.py `counters`, switch `exprgen.COUNTERS`): a list read
at `i`, where `let i = 0` and every `set` of i adds or gives a number of 0 or more,
checks only that i is below the list's length (`i < len(xs)`, not `0 <= i < len(xs)`).

Shown firing on the generated source, keeping the whole check where the local may go
below 0 (a `-=`, a value not known), and playing the very games of the plain code and
of the switch off, an index beyond the list (R003) included.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import exprgen

COUNTERS = """
player { seen: list(text) = []  score: int = 0 }
const words = ["a", "b", "c", "d"]
def count_seen(p: player, xs: list(text)) {
  let i = 0
  let n = 0
  while i < len(xs) {
    if xs[i] in p.seen { set n += 1 }
    set i += 1
  }
  return n
}
def last_two(xs: list(text), far: int) {
  let j = 0
  set j = far
  let k = 1
  set k -= 1
  let c = 0
  while c < far { set c += 1 }
  return [xs[c], xs[j], xs[k]]
}
turn {
  choose w in words
  set current.seen = current.seen + [w]
  set current.score = count_seen(current, current.seen) + len(last_two(words, turn_number % 5))
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:  # words[4]: R003
        return g.record(), err.code, err.span, str(err)
    return g.record(), g.results(), g.state.cols


def test_a_counter_is_read_at_with_the_length_checked_alone() -> None:
    rules = compiled(COUNTERS)
    counted = source_of(rules, "_d_count_seen")
    assert " < len(" in counted and "0 <= " not in counted  # xs[i]: i only grows from 0
    kept = source_of(rules, "_d_last_two")
    assert kept.count("0 <= ") == 2  # j given a value not known, k made smaller: checked
    assert kept.count(" < len(") == 3  # xs[c], the counter, read with the length checked
    exprgen.COUNTERS = False
    try:
        alone = compiled(COUNTERS)
    finally:
        exprgen.COUNTERS = True
    assert "0 <= " in source_of(alone, "_d_count_seen")
    plain = compiled(COUNTERS, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 9)]
    assert outcomes == [played(plain, seed) for seed in range(1, 9)]
    assert outcomes == [played(alone, seed) for seed in range(1, 9)]
    assert {len(o) for o in outcomes} == {4}  # turn 4: words[4], R003, in every game

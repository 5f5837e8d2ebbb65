"""A whole number shown in a text read from a table of the texts of -256..256
(switch `exprgen.SMALL_INTS`): `"{x},{y}"` writes no digits anew for small numbers;
a larger one, or `none`, is shown as before.

Shown firing on the generated source, and playing the very games of the plain code
and of the switch off: texts of small, large and negative numbers, kept in the state
and said.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.runtime import exprgen

SMALL_INTS = """
player { x: int = 0  trail: list(text) = [] }
const steps = [-300, -7, 0, 1, 250, 9000]
def key(a: int, b: int) = "{a},{b}"
turn {
  choose d in steps
  set current.x = current.x + d
  set current.trail = current.trail + [key(current.x, d * 2), "{current.x - 1}"]
  say "{current} is at {current.x}, {d + 1} from {current.x - d}."
}
end when turn_number == 12 { }
"""


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    g.playout(random.Random(seed))
    return g.record(), g.results(), g.state.cols


def test_a_number_in_a_text_is_read_from_a_table() -> None:
    rules = compiled(SMALL_INTS)
    key = source_of(rules, "_d_key")
    assert key.count("_INTS.get(") == 2  # both numbers of "{a},{b}"
    exprgen.SMALL_INTS = False
    try:
        alone = compiled(SMALL_INTS)
    finally:
        exprgen.SMALL_INTS = True
    assert "_INTS" not in source_of(alone, "_d_key")
    plain = compiled(SMALL_INTS, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 9)]
    assert outcomes == [played(plain, seed) for seed in range(1, 9)]
    assert outcomes == [played(alone, seed) for seed in range(1, 9)]
    shown = {t for o in outcomes for trail in o[2][1] for t in trail}  # type: ignore[index]
    assert any("-" in t for t in shown) and any(len(t) > 8 for t in shown)  # both kinds

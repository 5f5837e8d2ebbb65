"""A chain of tests of one value against texts, each giving a constant, as a lookup in
a table (exprgen `table_of`, switch `exprgen.TEXT_TABLES`): `if way == "up" then 0
else if way == "right" then 1 else if way == "down" then 2 else 3` is
`_tbl3.get(way, 3)`, the value worked out once. Not for fewer than three tests, tests
of two values, or a branch giving what is not a constant. In a bot's rules the lookup
counts as unable to fail (ruleloops.py), so what follows it is still worked out once
per ranking.

Shown firing on the generated source, staying off where it must, and playing (and
ranking) as the switch off and the plain code do.
"""

from __future__ import annotations

import random

from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.runtime import exprgen

TABLES = """
player { at: int = 0  trail: list(int) = []  plan: list(int) = []  said: list(text) = [] }
const ways = ["up", "right", "down", "left", "stay"]
def dir_of(way: text) = if way == "up" then 0 else if way == "right" then 1
                        else if way == "down" then 2 else 3
def word(n: int) = if n == 1 then "one" else if n == 2 then "two" else if n == 3 then "three"
                   else "many"
def two(way: text) = if way == "up" then 0 else if way == "down" then 2 else 1
def mixed(way: text, w: text) = if way == "up" then 0 else if w == "right" then 1
                                else if way == "down" then 2 else 3
def varied(way: text, n: int) = if way == "up" then n else if way == "right" then 1
                                else if way == "down" then 2 else 3
def ahead(p: player) {
  let out = [dir_of(w) for w in ways where dir_of(w) < turn_number % 6]
  return out
}
bot keen {
  when choosing way { prefer dir_of(way) in ahead(me) }
}
turn {
  choose way in ways
  set current.at += dir_of(way) + two(way) + mixed(way, "left") + varied(way, 4)
  set current.trail = current.trail + [dir_of(way)]
  set current.said = current.said + [word(current.at % 5)]
  set current.plan = ahead(current)
}
end when turn_number == 16 { }
"""


def played(rules: Ruleset, seed: int, bots: bool) -> object:
    g = rules.new_game(2, seed=seed)
    g.playout(random.Random(seed), bots=bots)
    return g.record(), g.results(), g.state.cols


def test_a_chain_of_tests_against_texts_is_a_lookup() -> None:
    rules = compiled(TABLES)
    assert "_tbl" in source_of(rules, "_d_dir_of") and ".get(_a" in source_of(rules, "_d_dir_of")
    for name in ("_d_word", "_d_two", "_d_mixed", "_d_varied"):  # numbers, two tests,
        assert "_tbl" not in source_of(rules, name), name  # two values, not a constant
    rule = source_of(rules, next(k for k in rules.code.ops[0].__globals__ if k.startswith("_br")))
    assert "_tbl" in rule and "_once1 = " in rule  # ahead(me) still worked out once
    exprgen.TEXT_TABLES = False
    try:
        alone = compiled(TABLES)
    finally:
        exprgen.TEXT_TABLES = True
    assert "_tbl" not in source_of(alone, "_d_dir_of")
    plain = compiled(TABLES, optimised=False)
    for bots in (False, True):
        outcomes = [played(rules, seed, bots) for seed in range(1, 7)]
        assert outcomes == [played(plain, seed, bots) for seed in range(1, 7)]
        assert outcomes == [played(alone, seed, bots) for seed in range(1, 7)]

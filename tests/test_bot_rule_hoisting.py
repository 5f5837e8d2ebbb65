"""What a bot's rule works out alike for every option, worked out once per ranking
(runtime/ruleloops.py, switch `ruleloops.HOISTED`; lists a comprehension builds,
`ruleloops.COMPREHENSIONS`), and longer defs given the option written in place in a
bot's rules (exprgen `RULE_INLINE_MAX`).

Shown firing on the generated source (a part worked out first, its copy under a
branch read from the name; a part under a branch, or after something that can fail,
left in the loop), and choosing as the switches off do, over whole games: the same
decisions, the same R030 where the part fails on `none`, raised at the same rule.
"""

from __future__ import annotations

import inspect
import re

from compile_support import compiled
from test_bot_filters import decisions

from rulelang import Ruleset
from rulelang.runtime import bots, exprgen, ruleloops

RULES = """
import dice
player { score: int = 0  last: int = 0  pal: player = none  notes: list(text) = [] }
def far(p: player) = p.score + p.last
def spot(p: player) = "{p.last},{p.score}"
def noted(p: player, n: int) = "{spot(p)} {n}" in p.notes or "{spot(p)} {n}!" in p.notes
turn {
  roll r = d6
  choose w in 1..4
  set current.score += w + r
  choose n in 1..6
  set current.last = n
  set current.notes = current.notes + ["{n},{current.score} {r % 5}"]
  if turn_number == 9 and current.score % 2 == 1 { set current.pal = current }
}
end when turn_number == 16 { }
bot picky {
  when choosing w {
    prefer turn_number % 3 == 0 or w == 2
    prefer turn_number % 4 == 1 or w in [me.score % 4, me.last % 4]
    prefer not noted(me, w)
    least w + far(me)
  }
  when choosing n {
    prefer n > 2 and far(me) > 9
    prefer (if turn_number != 13 then 0 else me.pal.score) + n > 7, n + me.last > 4
    best n * (if turn_number < 11 then 1 else 2)
  }
}
"""


def switched(hoisting: bool, longer: bool) -> Ruleset:
    """Compiled with the hoisting on or off, and defs written in place in bots' rules
    (longer) or nowhere (INLINE_MAX too: it now reaches past RULE_INLINE_MAX)."""
    was = exprgen.RULE_INLINE_MAX, exprgen.INLINE_MAX
    ruleloops.HOISTED = hoisting
    if not longer:
        exprgen.RULE_INLINE_MAX = exprgen.INLINE_MAX = 0
    try:
        return compiled(RULES)
    finally:
        ruleloops.HOISTED = True
        exprgen.RULE_INLINE_MAX, exprgen.INLINE_MAX = was


def rule_src(rules: Ruleset, choice: str, at: int) -> str:
    return inspect.getsource(rules.bots["picky"]._rules[choice][at].fns[0])


def test_a_rules_parts_alike_for_every_option_are_worked_out_before_its_loop() -> None:
    rules = compiled(RULES)
    first = rule_src(rules, "w", 0)  # turn_number % 3 == 0: first, and alike
    before, loop = first.split("for _opt in _kept:")
    assert "_once1 = " in before and "(_once1)" in loop
    guarded = rule_src(rules, "w", 1)  # [me.score % 4, ...]: when the first part is false
    before, loop = guarded.split("for _opt in _kept:")
    assert "_once2 = (" in before and ") if not _once1 else None" in before
    assert "_once2" in loop and "% 4" not in loop
    noted = rule_src(rules, "w", 2)  # noted's body written in place: its texts of me
    before, loop = noted.split("for _opt in _kept:")
    assert "_d_noted" not in noted and before.count("_once") == 1
    assert loop.count("_once1") == 2  # written twice, the second under `or`
    branched = rule_src(rules, "n", 0)  # far(me) after `n > 2 and`: under a branch
    assert "_once" not in branched and "st.cols[1][(_me)]" in branched.split("and", 1)[1]
    failing = rule_src(rules, "n", 1)  # me.pal.score, hoisted: fails before the loop
    before, loop = failing.split("for _opt in _kept:")
    assert "_once1 = 0 if " in before and "st.cols[2]" in before
    assert "_once1" in loop and "st.cols[2]" not in loop
    times = rule_src(rules, "n", 2)  # `n * ...`: a call not known, worked out first
    assert "_once" not in times
    plain = switched(hoisting=False, longer=False)
    assert "_once" not in rule_src(plain, "w", 0) and "_d_noted" in rule_src(plain, "w", 2)


def test_hoisted_rules_choose_as_the_rules_worked_out_per_option() -> None:
    rules = compiled(RULES)
    outcomes = [decisions(rules, seed) for seed in range(1, 17)]
    for other in (switched(False, False), switched(True, False), switched(False, True)):
        assert outcomes == [decisions(other, seed) for seed in range(1, 17)]
    bots.FILTERS = False
    try:
        alone = compiled(RULES)
    finally:
        bots.FILTERS = True
    assert outcomes == [decisions(alone, seed) for seed in range(1, 17)]
    assert any(len(o) == 2 for o in outcomes)  # games to their end
    assert {o[1] for o in outcomes if len(o) == 4} == {"R030"}  # me.pal.score of none


SPOTS = """
player { at: list(int) = [0, 0]  notes: list(text) = [] }
def key(x: int, y: int) = "{x},{y}"
def spot(p: player) = key(p.at[0], p.at[1])
def noted(p: player, n: int) = "{spot(p)} {n}" in p.notes or "{spot(p)} {n}!" in p.notes
turn {
  choose w in 1..4
  set current.at = [current.at[1], w]
  set current.notes = current.notes + ["{w},{w} {w}"]
}
end when turn_number == 12 { }
bot picky {
  when choosing w {
    prefer not noted(me, w)
  }
}
"""


def test_copies_of_a_def_with_names_of_their_own_are_one_part() -> None:
    """`noted` written in place reads `spot(me)` twice, each copy with `:=` names of its
    own (exprgen.FRESH_TEMPS): the text is worked out once before the loop and both
    copies read it (parts keyed by their structure, the names numbered where they
    stand), as when the copies shared their names."""
    fresh = rule_src(compiled(SPOTS), "w", 0)
    before, loop = fresh.split("for _opt in _kept:")
    assert before.count("_once") == 1 and ":=" in before, before
    assert loop.count("_once") == 2 and ":=" not in loop, loop
    was = exprgen.FRESH_TEMPS
    exprgen.FRESH_TEMPS = False
    try:
        shared = rule_src(compiled(SPOTS), "w", 0)
    finally:
        exprgen.FRESH_TEMPS = was
    assert re.sub(r"_(t|br)[0-9]+", "_n", shared) == re.sub(r"_(t|br)[0-9]+", "_n", fresh)


LISTS = """
player { score: int = 0  pal: player = none }
turn {
  choose who in players
  set who.score += 1 + turn_number % 3
  if turn_number < 6 and who.score % 3 == 0 { set current.pal = who }
  choose other in players
  set other.score += 1
}
end when turn_number == 14 { }
bot picky {
  when choosing who {
    prefer who in [q for q in players where q.score < me.score]
    prefer who in [q for q in players where q.score < who.score]
  }
  when choosing other {
    prefer other in [q for q in players
                     where q.score < (if turn_number > 6 then me.pal.score else 9)]
  }
}
"""


def lists_switched(on: bool) -> Ruleset:
    ruleloops.COMPREHENSIONS = on
    try:
        return compiled(LISTS)
    finally:
        ruleloops.COMPREHENSIONS = True


def test_a_list_built_alike_for_every_option_is_built_once() -> None:
    """`who in [q for q in players where ...]` not reading the option: the list (a
    tuple of the comprehension's) made before the loop, not once per option; one that
    reads the option is left in the loop, and nothing is built before it with the
    switch off."""
    rules = compiled(LISTS)
    picky = rules.bots["picky"]
    before, loop = inspect.getsource(picky._rules["who"][0].fns[0]).split("for _opt in _kept:")
    assert "_once1 = " in before and "for _v" in before and "for _v" not in loop, before
    before, loop = inspect.getsource(picky._rules["who"][1].fns[0]).split("for _opt in _kept:")
    assert "for _v" in loop and "for _v" not in before, loop  # q.score < who.score
    off = lists_switched(False).bots["picky"]
    assert "_once1 = (tuple(" not in inspect.getsource(off._rules["who"][0].fns[0])


def test_lists_built_once_choose_as_lists_built_per_option() -> None:
    outcomes = [decisions(compiled(LISTS), seed) for seed in range(1, 13)]
    assert outcomes == [decisions(lists_switched(False), seed) for seed in range(1, 13)]
    assert any(len(o) == 2 for o in outcomes)  # games to their end
    assert {o[1] for o in outcomes if len(o) == 4} == {"R030"}  # me.pal.score of none

"""A bot's rule as one generated function over the options left (bots.py `_rule_fn`,
switch `bots.FILTERS`): `prefer C` keeps the options meeting C in a loop of its own,
`best E` / `least E` give E's value for each, instead of a call of a generated
function per option and rule.

Shown firing on the generated source, and choosing as the switch off does: the same
decisions over whole games (prefer, best and least, defs worked out once per ranking),
the same error where a rule fails on `none` (R030 on the rule's line) and the same
bot budget used up (R031).
"""

from __future__ import annotations

import inspect

from compile_support import compiled

from rulelang import GameRuntimeError, Ruleset
from rulelang.runtime import bots

RULES = """
import dice
player { score: int = 0  last: int = 0  pal: player = none }
def far(p: player) = p.score + p.last
def slow(n: int) {
  let i = 0
  while i < n { set i += 1 }
  return i
}
turn {
  roll r = d6
  choose w in 1..4
  set current.score += w + r
  choose n in 1..6
  set current.last = n
  if turn_number == 9 and current.score % 2 == 1 { set current.pal = current }
}
end when turn_number == 14 { }
bot picky {
  when choosing w { prefer w != 1, w % 2 == 0  least w + far(me) }
  when choosing n {
    prefer n % 2 == 0 or far(me) > 20
    best n * (if turn_number != 11 or me.score % 3 > 0 then 1 else me.pal.score)
  }
}
bot stuck { when choosing n { best slow(n * 30000) } }
"""


def decisions(rules: Ruleset, seed: int, bot: str = "picky") -> object:
    g = rules.new_game(2, seed=seed)
    taken = []
    try:
        while not g.is_over():
            a = g.bot_choice(bot)
            taken.append(a.text)
            g.apply(a)
    except GameRuntimeError as err:
        return taken, err.code, err.span, str(err)
    return taken, g.results()


def without_filters() -> Ruleset:
    bots.FILTERS = False
    try:
        return compiled(RULES)
    finally:
        bots.FILTERS = True


def test_a_rule_loops_over_the_options_in_its_own_function() -> None:
    rules = compiled(RULES)
    picky = rules.bots["picky"]
    prefer = picky._rules["w"][0].fns[0]
    src = inspect.getsource(prefer)
    assert "for _opt in _kept:" in src and "_made.append(_opt)" in src
    least = inspect.getsource(picky._rules["w"][1].fns[0])
    assert "for _opt in _kept:" in least and "_made.append(" in least
    g = rules.new_game(2, seed=3)
    assert prefer(g.state, 0, [1, 2, 3], {}) == [2, 3]
    env = without_filters().code.ops[0].__globals__
    made = [f for name, f in env.items() if name.startswith("_br")]
    assert len(made) == 6 and all("_opt" in inspect.signature(f).parameters for f in made)


def test_the_filters_choose_as_one_call_per_option() -> None:
    rules, alone = compiled(RULES), without_filters()
    outcomes = [decisions(rules, seed) for seed in range(1, 13)]
    assert outcomes == [decisions(alone, seed) for seed in range(1, 13)]
    assert any(len(o) == 2 for o in outcomes)  # games to their end
    codes = {o[1] for o in outcomes if len(o) == 4}
    assert codes == {"R030"}  # me.pal.score of a seat whose pal is none, in `best`


def test_the_bot_budget_is_used_up_as_before() -> None:
    failed = []
    for rules in (compiled(RULES), without_filters()):
        g = rules.new_game(2, seed=1)
        g.apply(g.bot_choice("picky"))
        try:
            g.bot_choice("stuck")
        except GameRuntimeError as err:
            failed.append((err.code, err.span, str(err)))
    assert len(failed) == 2 and failed[0] == failed[1] and failed[0][0] == "R031"

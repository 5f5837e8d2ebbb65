"""The branches of an `if` that only say something are not tested in a quiet playout
(straight.py `quiet_from`, switch `straight.QUIET_TESTS`): from the first branch on
whose body, and every later one's and the `else`'s, holds nothing but `say`s, each
condition is `not st.quiet and (...)`. A quiet playout says nothing (Game.playout),
so it need not work out what decides which sentence is said.

Shown firing on the generated source (a statement that cannot pause, and one that can,
in an op), and playing the game the loud code and the plain code play.
"""

from __future__ import annotations

import random

import pytest
from compile_support import compiled
from test_compiler_opts import source_of

from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import straight

SAYS = """
player { score: int = 0 }
const tips = [1, 2]
proc tell(p: player, n: int) {
  if n == 1 {
    set p.score += 1
  } elif all(q == p or q.score < n for q in players) {
    say "{p} leads with {n}"
  } elif tips[n % 2] > 1 {
    say "{p} has a tip"
  } else {
    say "{p} waits"
  }
}
turn {
  choose n in 1..3
  do tell(current, n)
  if current.score > 2 {
    choose m in 1..2
    set current.score += m
  } elif tips[WHERE] == 2 {
    say "{current} again"
  }
}
end when turn_number == 10 { }
"""
SAFE = SAYS.replace("WHERE", "n % 2")
FAILS = SAYS.replace("WHERE", "n")  # n == 2 reads past the list


def game(rules: Ruleset, seed: int, quiet: bool) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed), quiet=quiet)
    except GameRuntimeError as err:
        return err.code, err.span
    return g.results(), g.turn_number, g.state.cols


def test_a_quiet_playout_skips_the_tests_of_what_only_says() -> None:
    rules = compiled(SAFE)
    tell = source_of(rules, "_p_tell")
    assert "if (_a" in tell  # the first branch does something: tested as always
    assert tell.count("elif not st.quiet and (") == 2  # the others: only when loud
    ops = "\n".join(rules.code.source)
    assert "if not st.quiet:  # @" in ops  # the pausing `if`: its say-only branch
    straight.QUIET_TESTS = False
    try:
        plain = compiled(SAFE)
    finally:
        straight.QUIET_TESTS = True
    assert "st.quiet and" not in source_of(plain, "_p_tell")
    unoptimised = compiled(SAFE, optimised=False)
    for seed in range(1, 9):
        quiet = game(rules, seed, True)
        assert isinstance(quiet[0], list)  # played to its end
        assert quiet == game(rules, seed, False) == game(plain, seed, True)
        assert quiet == game(unoptimised, seed, False)


def test_a_condition_that_only_a_message_needs_fails_only_when_loud() -> None:
    """As a `say`'s text is not worked out in a quiet playout (R0xx there is raised
    only when loud), neither is a condition that only chooses what is said."""
    rules = compiled(FAILS)
    seed = next(s for s in range(1, 50) if isinstance(game(rules, s, False)[0], str))
    assert game(rules, seed, False)[0] == "R003"  # tips[2] of a list of two
    assert isinstance(game(rules, seed, True)[0], list)  # played to its end
    with pytest.raises(GameRuntimeError):
        rules.new_game(2, seed=seed).playout(random.Random(seed))

"""Entries at the bottom of the proc stack that nothing pops (runtime/state.py, switch
`state.STACK_FLOOR`): a push and its pop resize nothing, where a stack that empties
freed its array at nearly every turn. Shown in place (a new game's stack, and under
the return address of a proc paused at a decision), never popped over whole games,
and the same games with the switch off."""

from __future__ import annotations

import pytest
from compile_support import compiled

from rulelang import CHANCE, Ruleset
from rulelang.runtime import state

RULES = """
import dice
player { score: int = 0 }
proc bump(p: player) {
  choose k in 1..3
  set p.score += k
}
turn {
  do bump(current)
  roll r = d6
  if current.score + r > 6 { do bump(current) }
}
end when turn_number == 12 { }
"""


def floored(n: int) -> Ruleset:
    was = state.STACK_FLOOR
    state.STACK_FLOOR = n
    try:
        rules = compiled(RULES)
        rules.new_game(2, seed=0)  # the template of 2 players, made with the switch so
        return rules
    finally:
        state.STACK_FLOOR = was


def played(rules: Ruleset, seed: int, n: int) -> tuple[object, ...]:
    """The game's decisions, the stack's depth at each, and its results; that the
    floor's entries stayed at the bottom all through."""
    was = state.STACK_FLOOR
    state.STACK_FLOOR = n
    try:
        g = rules.new_game(2, seed=seed)
    finally:
        state.STACK_FLOOR = was
    st = g.state
    taken: list[tuple[str, int]] = []
    while not g.is_over():
        assert st.stack[:n] == [state.FLOOR] * n
        if g.current_player() == CHANCE:
            g.resolve_chance()
            continue
        a = g.bot_choice()
        taken.append((a.text, len(st.stack) - n))
        g.apply(a)
    assert st.stack[:n] == [state.FLOOR] * n
    return tuple(taken), len(st.stack) - n, tuple(g.results())


def test_a_new_games_stack_holds_the_floor_under_every_return_address() -> None:
    at_first = floored(2).new_game(2, seed=1).state.stack  # paused inside bump
    assert at_first[:2] == [state.FLOOR] * 2 and len(at_first) == 3 and at_first[2] >= 0
    taken, _end, _results = played(floored(2), 1, 2)
    assert {depth for _text, depth in taken} == {1}  # inside bump: its address above
    assert len(floored(0).new_game(2, seed=1).state.stack) == 1


@pytest.mark.parametrize("seed", range(1, 9))
def test_the_floor_plays_the_games_played_without_it(seed: int) -> None:
    assert played(floored(2), seed, 2) == played(floored(0), seed, 0)

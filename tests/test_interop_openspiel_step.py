"""The OpenSpiel adapter's own step (rulelang.interop.openspiel): `legal_actions` and
`apply_action` answered in Python, the state's game kept in a slot that OpenSpiel's
C++ `Clone` fills, and a choice resumed as `Game.apply` resumes it."""

from __future__ import annotations

import pyspiel
import pytest
from test_api_resume import NONE_AFTER

import rulelang
from rulelang import Ruleset, UsageError
from rulelang.diagnostics import GameRuntimeError
from rulelang.interop import openspiel


def test_the_legal_actions_are_the_callers_own(duel: Ruleset) -> None:
    """A caller may change the list it is given (shuffle it, remove from it): the next
    answer is whole, as OpenSpiel's own answer (a new list each time) is."""
    state = openspiel.load(duel, 2, seed=1).new_initial_state()
    first = state.legal_actions()
    assert first == [0, 1]
    first.reverse()
    first.pop()
    assert state.legal_actions() == [0, 1] == pyspiel.State.legal_actions(state)


WIDE = 'game "Wide"\nplayers 2..2\nturn { choose n in 1..100 }\nend when false { }\n'


def test_a_decision_wider_than_the_action_space_is_refused_by_name() -> None:
    wide = rulelang.compile_source(WIDE, "wide.rules")
    with pytest.raises(UsageError, match=r"'n' has 100 options, more than the 64 actions"):
        openspiel.load(wide, 2).new_initial_state().legal_actions()
    with pytest.raises(UsageError, match=r"'n' has 100 options, more than the 99 actions"):
        openspiel.load(wide, 2, max_actions=99).new_initial_state().legal_actions()
    state = openspiel.load(wide, 2, max_actions=100).new_initial_state()
    assert state.legal_actions() == list(range(100)) == pyspiel.State.legal_actions(state)
    state.apply_action(99)  # (beyond the kept lists of numbers)
    assert state.game.history(None)[-1].endswith("100")


def test_clones_of_clones_made_in_cpp_play_the_same_game(duel: Ruleset) -> None:
    """OpenSpiel's C++ `Clone` copies a Python state by setting each entry of its
    __dict__ on a new initial state: the game, kept in a slot for speed, must come
    along, and again for a clone of the clone (a new initial state starts another
    game: the next seed, another deal)."""
    game = openspiel.load(duel, 3, seed=5)
    state = game.new_initial_state()
    state.apply_action(1)
    clone = pyspiel.State.clone(state)
    clone_of_clone = pyspiel.State.clone(clone)
    for each in (state, clone, clone_of_clone):
        while not each.is_terminal():
            each.apply_action(each.legal_actions()[0])
    records = [each.game.record() for each in (state, clone, clone_of_clone)]
    assert records[0] == records[1] == records[2]
    assert str(state) == str(clone) == str(clone_of_clone)
    other = game.new_initial_state()  # the next game: another deal
    assert other.game.record() != state.game.record()


@pytest.mark.parametrize("generated", [True, False])
def test_an_error_after_a_choice_is_placed_as_by_apply(generated: bool) -> None:
    """A rule error raised after the chosen option is the error `Game.apply` raises
    (R030 on line 10), whether the choice's generated resume or the engine's runs."""
    seen = []
    for through_openspiel in (False, True):
        rules = rulelang.compile_source(NONE_AFTER, "t.rules")
        if not generated:  # every choice resumed by the engine (no generated resume)
            rules.code.resumes = [None] * len(rules.code.resumes)
        state = openspiel.load(rules, 2, seed=1).new_initial_state()
        game = state.game
        with pytest.raises(GameRuntimeError) as info:
            if through_openspiel:
                state.apply_action(1)
            else:
                game.apply(game.legal_actions()[1])
        seen.append((info.value.code, str(info.value.span), game.record()))
    assert seen[0] == seen[1]
    assert seen[0][0] == "R030" and ":10:" in seen[0][1]

"""rulelang.interop.openspiel: every shipped ruleset passes OpenSpiel's random
simulation test; information states come from the player's own view and log."""

from __future__ import annotations

import pyspiel
import pytest

import rulelang
from rulelang import UsageError
from rulelang.interop import openspiel
from tests.interop_support import ROOT, SHIPPED, table_size


@pytest.mark.parametrize("path", SHIPPED)
def test_every_shipped_ruleset_passes_the_random_simulation_test(path: str) -> None:
    ruleset = rulelang.compile_file(ROOT / path)
    # a few decisions each: then the game is cut off, a terminal state with returns 0
    game = openspiel.load(ruleset, table_size(ruleset), seed=1, max_decisions=12)
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_whole_games_pass_and_return_their_results(duel: rulelang.Ruleset) -> None:
    game = openspiel.load(duel, 3, seed=4)
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    expected = {"win": 1.0, "draw": 0.0, "loss": -1.0}
    assert state.returns() == [expected[r] for r in state.game.results()]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert len(state.history()) == 6  # two cards each for three players


def test_load_game_by_name_with_parameters() -> None:
    game = pyspiel.load_game(
        "rulelang",
        {
            "rules": str(ROOT / "rulesets/heimlich.rules"),
            "players": 3,
            "seed": 2,
            "options": "win_score=30",
        },
    )
    assert game.num_players() == 3 and game.num_distinct_actions() == 64
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    state = game.new_initial_state()
    assert state.game.value("win_score") == 30
    assert [state.action_to_string(a) for a in state.legal_actions()] == [
        a.text for a in state.game.legal_actions()
    ]


def test_the_seed_sequence_and_clones_are_deterministic() -> None:
    def first_states(seed: int) -> list[str]:
        game = openspiel.load(ROOT / "rulesets/saboteur.rules", 4, seed=seed)
        return [str(game.new_initial_state()) for _ in range(3)]

    states = first_states(7)
    assert states == first_states(7) and len(set(states)) == 3  # each game a new deal
    game = openspiel.load(ROOT / "rulesets/saboteur.rules", 4, seed=7)
    state = game.new_initial_state()
    copy = state.clone()  # pyspiel makes a new initial state to copy into: no seed spent
    assert str(game.new_initial_state()) == states[1]
    for _ in range(10):
        action = state.legal_actions()[0]
        state.apply_action(action)
        copy.apply_action(action)  # the same cards drawn after the same moves
    assert str(state) == str(copy) and state.history() == copy.history()


def test_information_states_hold_only_what_the_player_may_see() -> None:
    game = openspiel.load(ROOT / "rulesets/saboteur.rules", 5, seed=2)
    state = game.new_initial_state()
    for action in (0, 0, 0):
        state.apply_action(action)
    seen = {
        p: (
            state.information_state_string(p),
            state.observation_string(p),
            state.observation_tensor(p),
            state.information_state_tensor(p),
        )
        for p in range(5)
    }
    rules_game = state.game
    role = rules_game.attribute("role", of=1)
    edit = rules_game.edit()
    edit.set("role", "miner" if role == "saboteur" else "saboteur", of=1)
    held, top = rules_game.items("hand", 1)[0], rules_game.items("deck")[-1]
    edit.move(held, "deck")
    edit.move(top, "hand", 1)
    for p in (0, 2, 3, 4):
        assert seen[p] == (
            state.information_state_string(p),
            state.observation_string(p),
            state.observation_tensor(p),
            state.information_state_tensor(p),
        ), p
    assert seen[1][0] != state.information_state_string(1)
    # perfect recall: the information state holds the player's log, the observation not
    assert rules_game.history(0)[-1] in state.information_state_string(0)
    assert rules_game.history(0)[-1] not in state.observation_string(0)


def test_the_information_state_tensor_is_the_observation_and_the_history() -> None:
    game = openspiel.load(ROOT / "rulesets/heimlich.rules", 3, seed=4)
    assert game.get_type().provides_information_state_tensor
    assert game.information_state_tensor_shape() == [2 * game.observation_tensor_shape()[0]]
    state = game.new_initial_state()
    before = state.information_state_tensor(0)
    size = game.observation_tensor_shape()[0]
    assert before[:size] == state.observation_tensor(0)
    lines = len(state.game.history(0))
    while len(state.game.history(0)) == lines:
        state.apply_action(state.legal_actions()[0])
    after = state.information_state_tensor(0)
    assert after[size:] != before[size:]  # a new line in the player's history
    assert all(0 <= x < 1 for x in after[size:])


def test_alike_options_get_distinct_texts() -> None:
    game = openspiel.load(ROOT / "rulesets/saboteur.rules", 4, seed=1)
    state = game.new_initial_state()
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    assert texts == [
        "broken pick",
        "tunnel N-S",
        "tunnel N-E",
        "broken pick (2)",
        "repair lamp",
        "tunnel N-E (2)",
    ]


def test_bad_parameters_are_refused_with_a_message(duel: rulelang.Ruleset) -> None:
    with pytest.raises(UsageError, match="needs the parameter rules=PATH"):
        pyspiel.load_game("rulelang", {"players": 2})
    with pytest.raises(UsageError, match="option 'win_score' needs the form name=value"):
        openspiel.RulesetGame(
            {"rules": str(ROOT / "rulesets/heimlich.rules"), "options": "win_score"}
        )
    with pytest.raises(UsageError, match="for 2 to 3 players, not 4"):
        openspiel.load(duel, 4)
    with pytest.raises(UsageError, match="unknown option 'speed'"):
        openspiel.load(duel, 2, options={"speed": 3})


@pytest.mark.parametrize("path", SHIPPED)
def test_legal_actions_in_python_answer_as_openspiels_own(path: str) -> None:
    """`RulesetState.legal_actions` (answered in Python) gives what OpenSpiel's C++
    `State.legal_actions` gives, for the player deciding, every other player, and at
    the end (a game cut off after a few decisions)."""
    ruleset = rulelang.compile_file(ROOT / path)
    players = table_size(ruleset)
    game = openspiel.load(ruleset, players, seed=2, max_decisions=25)
    state = game.new_initial_state()
    while True:
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in range(players):
            assert state.legal_actions(player) == pyspiel.State.legal_actions(state, player)
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[-1])
    assert state.legal_actions() == []


@pytest.mark.parametrize("path", SHIPPED)
def test_a_step_plays_the_same_game_as_apply(path: str) -> None:
    """`apply_action(i)` takes the i-th option as `Game.apply(legal_actions()[i])` does:
    the same events, the same history, and OpenSpiel's own history holds the steps."""
    ruleset = rulelang.compile_file(ROOT / path)
    players = table_size(ruleset)
    state = openspiel.load(ruleset, players, seed=3, max_decisions=30).new_initial_state()
    game = ruleset.new_game(players, seed=3)
    steps = []
    while not state.is_terminal():
        action = (7 * len(steps)) % len(state.legal_actions())
        state.apply_action(action)
        game.apply(game.legal_actions()[action])
        steps.append(action)
    assert state.game.events() == game.events()
    assert state.game.history(None) == game.history(None)
    assert state.history() == steps and state.move_number() == len(steps)


def test_an_action_out_of_range_is_refused_and_changes_nothing(duel: rulelang.Ruleset) -> None:
    """OpenSpiel checks only that an action is not -1 (its "invalid action"): -2 would
    take an option from the end, one past the last be a Python IndexError. Both are
    refused by name."""
    state = openspiel.load(duel, 3, seed=4).new_initial_state()
    count = len(state.legal_actions())
    before = state.game.record()
    for action in (-2, count, count + 5):
        with pytest.raises(UsageError, match=f"action {action} is not legal here: the legal"):
            state.apply_action(action)
    assert state.game.record() == before and state.history() == []
    state.apply_action(count - 1)  # the last one is legal
    assert len(state.history()) == 1


def _trail(state: pyspiel.State) -> list[tuple[int, int]]:
    return [(step.player, step.action) for step in state.full_history()]


def test_cpp_callers_see_every_step_taken_from_python(duel: rulelang.Ruleset) -> None:
    """Steps taken through `apply_action` in Python and steps taken through OpenSpiel's
    C++ `ApplyAction` (OpenSpiel's own `apply_action`, `child`, a C++ bot, a clone made
    in C++) make one history, in order, with the player of each step: the one a state
    driven through C++ alone has."""
    game = openspiel.load(duel, 3, seed=4)
    ours = game.new_initial_state()
    theirs = ours.clone()  # the same game (each new initial state starts the next seed)
    for turn in range(3):
        action = turn % len(ours.legal_actions())
        ours.apply_action(action)
        pyspiel.State.apply_action(theirs, action)  # OpenSpiel's own, through C++
    copy = pyspiel.State.clone(ours)  # a clone made in C++ while steps are owed
    pyspiel.State.apply_action(ours, 0)  # a step from C++ right after them
    pyspiel.State.apply_action(theirs, 0)
    assert _trail(ours) == _trail(theirs) and ours.move_number() == theirs.move_number() == 4
    assert ours.history_str() == theirs.history_str() and not ours.is_initial_state()
    copy.apply_action_with_legality_check(0)
    assert _trail(copy) == _trail(theirs)
    ours.apply_action(0)
    pyspiel.State.apply_action(theirs, 0)
    last = ours.legal_actions()[-1]
    assert _trail(ours.child(last)) == [*_trail(theirs), (theirs.current_player(), last)]
    # C++ bots play the rest of the game from C++
    bots = [pyspiel.make_uniform_random_bot(seat, 5) for seat in range(3)]
    mine, other = ours.clone(), theirs.clone()
    assert pyspiel.evaluate_bots(mine, bots, 7) == pyspiel.evaluate_bots(other, bots, 7)
    assert _trail(mine) == _trail(other) and mine.move_number() == len(_trail(other)) > 5
    assert mine.game.record() == other.game.record()

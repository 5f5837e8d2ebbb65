"""rulelang.interop.pettingzoo: every shipped ruleset passes PettingZoo's own API test;
observations come from the agent's own view only; rewards come from the results."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

import rulelang
from rulelang import UsageError
from rulelang.interop.common import HEADER, MAX_ACTIONS, OBS_SIZE
from rulelang.interop.pettingzoo import RulesetEnv, env
from tests.interop_support import ROOT, SHIPPED, table_size

# api_test advises a Box observation; the PettingZoo convention for action masks is a
# Dict {"observation", "action_mask"}, which its own classic games use (they are on the
# test's list of exceptions; a new environment cannot be). An agent whose game has
# ended has no legal action, so its mask is all zeros, as in those games.
ADVICE = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
    "Action mask numpy array is all zeros (no legal actions).",
}


def run_api_test(environment: object, cycles: int) -> set[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(environment, num_cycles=cycles)
    return {str(w.message) for w in caught}


@pytest.mark.parametrize("path", SHIPPED)
def test_every_shipped_ruleset_passes_the_api_test(path: str) -> None:
    ruleset = rulelang.compile_file(ROOT / path)
    environment = env(ruleset, players=table_size(ruleset), seed=3, render_mode="ansi")
    assert run_api_test(environment, cycles=8) <= ADVICE


def test_whole_games_pass_the_api_test_and_end_with_rewards(duel: rulelang.Ruleset) -> None:
    assert run_api_test(env(duel, players=3, seed=1), cycles=40) <= ADVICE
    environment = env(duel, players=2)
    for seed in range(5):
        environment.reset(seed=seed)
        totals = dict.fromkeys(environment.possible_agents, 0.0)
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            totals[agent] += reward
            if terminated or truncated:
                action = None
            else:
                action = int(np.flatnonzero(observation["action_mask"])[0])
            environment.step(action)
        assert environment.agents == []
        game = environment.unwrapped.game
        expected = {"win": 1.0, "draw": 0.0, "loss": -1.0}
        assert totals == {
            f"player_{seat}": expected[result] for seat, result in enumerate(game.results())
        }
        assert 1.0 in totals.values() or sorted(totals.values()) == [0.0, 0.0]


def test_the_mask_marks_the_options_of_the_agent_who_decides() -> None:
    raw = RulesetEnv(ROOT / "rulesets/heimlich.rules", players=4, seed=1)
    raw.reset(seed=1)
    game = raw.game
    seat = game.current_player()
    assert raw.agent_selection == f"player_{seat}"
    mask = raw.observe(raw.agent_selection)["action_mask"]
    assert mask.dtype == np.int8 and mask.shape == (MAX_ACTIONS,)
    assert list(np.flatnonzero(mask)) == list(range(len(game.legal_actions())))
    other = f"player_{(seat + 1) % 4}"
    assert not raw.observe(other)["action_mask"].any()
    chosen = game.legal_actions()[2]
    raw.step(2)  # the third option
    last = game.events()[-1]
    assert isinstance(last, rulelang.Chose) and (last.who, last.value) == (seat, chosen.value)


def test_hidden_information_does_not_reach_another_agents_observation() -> None:
    raw = RulesetEnv(ROOT / "rulesets/saboteur.rules", players=5, seed=2)
    raw.reset(seed=2)
    game = raw.game
    before = {agent: raw.observe(agent)["observation"] for agent in raw.possible_agents}
    # seat 1's secret role and one of its cards change, and nothing any other seat sees
    role = game.attribute("role", of=1)
    edit = game.edit()
    edit.set("role", "miner" if role == "saboteur" else "saboteur", of=1)
    held, top = game.items("hand", 1)[0], game.items("deck")[-1]
    edit.move(held, "deck")
    edit.move(top, "hand", 1)
    after = {agent: raw.observe(agent)["observation"] for agent in raw.possible_agents}
    for agent in raw.possible_agents:
        if agent != "player_1":
            assert np.array_equal(before[agent], after[agent]), agent
    assert not np.array_equal(before["player_1"], after["player_1"])  # seat 1 sees it


def test_the_observation_layout() -> None:
    raw = RulesetEnv(ROOT / "rulesets/heimlich.rules", players=4, seed=5)
    raw.reset(seed=5)
    seat = raw.game.current_player()
    vector = raw.observe(f"player_{seat}")["observation"]
    assert vector.dtype == np.float32 and vector.shape == (OBS_SIZE,)
    assert vector[0] == 1.0 and vector[1] == 1.0  # always 1; this seat decides
    assert vector[2] == pytest.approx(len(raw.game.legal_actions()) / MAX_ACTIONS)
    assert vector[4 + seat] == 1.0 and vector[4:HEADER].sum() == 1.0
    assert np.all(np.abs(vector) <= 1.0) and np.count_nonzero(vector[HEADER:]) > 20
    other = raw.observe(f"player_{(seat + 1) % 4}")["observation"]
    assert other[1] == 0.0 and other[2] == 0.0


def test_the_same_seed_gives_the_same_game() -> None:
    def play(seed: int) -> list[str]:
        raw = RulesetEnv(ROOT / "rulesets/heimlich.rules", players=3)
        raw.reset(seed=seed)
        for _ in range(30):
            raw.step(0)
        return raw.game.history()

    assert play(4) == play(4) and play(4) != play(5)
    heimlich = rulelang.compile_file(ROOT / "rulesets/heimlich.rules")
    raw = RulesetEnv(heimlich, players=3, seed=8)
    for seed in (8, 9, 3, 4):  # the seed given, the next one; a seed, the next one
        raw.reset(seed=3) if seed == 3 else raw.reset()
        assert raw.game.view(None) == heimlich.new_game(3, seed=seed).view(None)


def test_a_game_cut_off_at_max_decisions_is_truncated(duel: rulelang.Ruleset) -> None:
    raw = RulesetEnv(ROOT / "rulesets/labyrinth.rules", players=2, max_decisions=3)
    raw.reset(seed=0)
    for _ in range(3):
        assert not any(raw.truncations.values())
        raw.step(0)
    assert all(raw.truncations.values()) and not any(raw.terminations.values())


def test_render_shows_the_spectators_view_as_text() -> None:
    raw = RulesetEnv(ROOT / "rulesets/saboteur.rules", players=4, render_mode="ansi")
    raw.reset(seed=1)
    text = raw.render()
    assert text is not None and text.startswith("== Saboteur ==")
    # no secret role: only the role cards not dealt (visible to all) name one
    shown = [line for line in text.lower().splitlines()[1:] if "dwarf_box" not in line]
    assert not any("saboteur" in line for line in shown)
    assert any("role_card[p1]: 1 hidden" in line for line in shown)


def test_bad_requests_are_refused_with_a_message(duel: rulelang.Ruleset) -> None:
    raw = RulesetEnv(duel, players=2)
    raw.reset(seed=0)
    with pytest.raises(UsageError, match="action 9 is not legal for player_0"):
        raw.step(9)
    with pytest.raises(UsageError, match="for 2 to 3 players, not 5"):
        RulesetEnv(duel, players=5)
    with pytest.raises(UsageError, match="render_mode 'rgb' is not one of"):
        RulesetEnv(duel, players=2, render_mode="rgb")
    wide = rulelang.compile_source(
        'game "Wide"\nplayers 2..2\nturn { choose n in 1..100 }\nend when false { }\n',
        "wide.rules",
    )
    raw = RulesetEnv(wide, players=2)
    raw.reset()
    with pytest.raises(UsageError, match=r"'n' has 100 options, more than the 64 actions"):
        raw.observe("player_0")
    assert RulesetEnv(wide, players=2, max_actions=100).action_space("player_0").n == 100


def test_last_answers_as_pettingzoos_own_wrapper(duel: rulelang.Ruleset) -> None:
    """env() wraps as PettingZoo's OrderEnforcingWrapper does, with a `last()` that asks
    the environment at once: the same answers, the same refusal before reset()."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    ours, theirs = env(duel, players=2), OrderEnforcingWrapper(RulesetEnv(duel, players=2))
    refusals = []
    for environment in (ours, theirs):
        with pytest.raises(AttributeError) as refused:
            environment.last()
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1] == "agent_selection cannot be accessed before reset"
    assert str(ours) == str(theirs) == "rulelang_v0"
    for environment in (ours, theirs):
        environment.reset(seed=4)
    for _ in range(12):
        mine, other = ours.last(), theirs.last()
        assert mine[1:] == other[1:]
        assert np.array_equal(mine[0]["observation"], other[0]["observation"])
        assert np.array_equal(mine[0]["action_mask"], other[0]["action_mask"])
        assert ours.last(observe=False)[0] is None
        if mine[2] or mine[3]:
            break
        action = int(np.flatnonzero(mine[0]["action_mask"])[-1])
        ours.step(action)
        theirs.step(action)


def test_a_game_over_in_its_setup_terminates_every_agent_at_reset() -> None:
    """Before, the agents began neither terminated nor rewarded, with an empty mask:
    no action could be stepped, and `step(None)` was refused."""
    rules = rulelang.compile_source(
        'game "over at once"\nplayers 2..2\nglobal { n: int = 0 }\nsetup { set n = 1 }\n'
        'turn { choose x in [1, 2] prompt "pick" }\nend when n == 1 { win [players[0]] }\n',
        "at-once.rules",
    )
    environment = env(rules, players=2)
    environment.reset(seed=0)
    assert environment.terminations == {"player_0": True, "player_1": True}
    seen = {}
    for agent in environment.agent_iter():
        _, reward, terminated, _, _ = environment.last()
        seen[agent] = (reward, terminated)
        environment.step(None)
    assert seen == {"player_0": (1.0, True), "player_1": (-1.0, True)}
    assert environment.agents == []


def test_more_seats_than_the_observation_tells_apart_are_refused() -> None:
    """Before, a table of 17 was made, and seat 16's observation said seat 0 (the seat
    is one-hot in MAX_SEATS places): two agents read alike."""
    from rulelang.interop import openspiel
    from rulelang.interop.common import MAX_SEATS

    rules = rulelang.compile_source(
        'game "crowd"\nplayers 1..40\nglobal { n: int = 0 }\n'
        "turn { choose x in [1, 2]\n  set n += x }\nend when n > 3 { win players }\n",
        "crowd.rules",
    )
    for make in (lambda n: env(rules, players=n), lambda n: openspiel.load(rules, players=n)):
        assert make(MAX_SEATS) is not None
        with pytest.raises(UsageError, match=f"at most {MAX_SEATS} players"):
            make(MAX_SEATS + 1)

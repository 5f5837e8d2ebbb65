"""Random Heimlich playouts: termination, replay, secrecy of the agents, clones, determinism."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import CHANCE, TERMINAL, Game, Ruleset, UsageError, replay

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
AGENT_COUNT = {2: 5, 3: 6, 4: 7, 5: 7, 6: 7, 7: 7}
MAX_STEPS = 5000
# (seed, options): one full-length game and two shorter ones for every player count
GAMES = [(11, {}), (12, {"win_score": "20"}), (13, {"win_score": "12", "safe_start": "3"})]


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_file(HEIMLICH)


def playout(
    rules: Ruleset, n: int, seed: int, options: dict[str, str], on_step: Any = None
) -> Game:
    g = rules.new_game(n, seed=seed, options=options)
    rng = random.Random(seed * 100 + n)
    for _ in range(MAX_STEPS):
        if g.is_over():
            return g
        if on_step is not None:
            on_step(g)
        actions = g.legal_actions()
        assert actions, "a game that is not over must offer an action"
        assert g.current_player() in range(n)  # auto_chance: no chance stops
        g.apply(rng.choice(actions))
    raise AssertionError(f"no end after {MAX_STEPS} steps")


def secret_agents(g: Game) -> list[str]:
    return [p["agent"] for p in g.view(None)["players"]]


def shuffle_event(g: Game) -> tuple[int, ...]:
    """The deal: the first event, the shuffle of the agents (positions in the old order)."""
    first = g.record()[0]
    assert first["chance"] == "order"
    assert isinstance(first["outcome"], list)
    return tuple(first["outcome"])


def position(g: Game) -> tuple[object, ...]:
    """Everything about a game, through the public API."""
    return (g.view(None), g.history(None), g.record(), g.pending(), g.current_player(), g.results())


def check_views(g: Game) -> None:
    """No view shows another player's agent, in the players list or in the log."""
    n = len(g.view(None)["players"])
    agents = secret_agents(g)
    perm = shuffle_event(g)
    deal = ", ".join(str(i) for i in perm)
    names = [row["name"] for row in g.view(None)["pieces"]["agent"]]
    dealt_names = ", ".join(names[i] for i in perm)
    logs = []
    for p in range(n):
        v = g.view(p)
        assert v["viewer"] == p
        for q, entry in enumerate(v["players"]):
            if q == p:
                assert entry["agent"] == agents[p]
            else:
                assert "agent" not in entry, f"player {p} sees player {q}'s agent"
        for line in v["log"]:
            assert deal not in line, f"the shuffle leaks into {line!r}"
            assert dealt_names not in line, f"the deal leaks into {line!r}"
        logs.append(v["log"])
        if v.get("options") is not None:
            assert v["to_act"] == v["players"][p]["name"]
    # nothing in this game's log is private: every player reads the same lines
    assert all(log == logs[0] for log in logs)


def expected_results(g: Game) -> list[str]:
    """The spec's outcome, computed from the final position."""
    scores = {row["name"]: row["score"] for row in g.view(None)["pieces"]["agent"]}
    best = max(scores.values())
    agents = secret_agents(g)
    top = [i for i, a in enumerate(agents) if scores[a] == best]
    if not top:
        return ["draw"] * len(agents)
    if len(top) == 1:
        return ["win" if i in top else "loss" for i in range(len(agents))]
    return ["draw" if i in top else "loss" for i in range(len(agents))]


@pytest.mark.parametrize("n", range(2, 8))
@pytest.mark.parametrize(("seed", "options"), GAMES, ids=["full", "to20", "to12"])
def test_random_playout(rules: Ruleset, n: int, seed: int, options: dict[str, str]) -> None:
    steps = [0]

    def on_step(g: Game) -> None:
        steps[0] += 1
        check_views(g)

    g = playout(rules, n, seed, options, on_step)
    assert steps[0] > 0
    # a finished game offers nothing
    assert g.is_over()
    assert g.current_player() == TERMINAL
    assert g.legal_actions() == []
    with pytest.raises(UsageError):
        g.apply("Perry")
    # the outcome follows the spec
    win_score = int(options.get("win_score", "42"))
    scores = [row["score"] for row in g.view(None)["pieces"]["agent"]]
    assert len(scores) == AGENT_COUNT[n]
    assert max(scores) >= win_score
    assert g.results() == expected_results(g)
    assert len(g.results()) == n
    check_views(g)
    # replaying the log rebuilds the same game
    for log in (g.events(), g.record()):
        again = replay(rules, n, seed, log, options=options)
        assert position(again) == position(g)
        assert again.results() == g.results()
        assert again.current_player() == TERMINAL


@pytest.mark.parametrize("n", range(2, 8))
def test_replay_midgame(rules: Ruleset, n: int) -> None:
    g = rules.new_game(n, seed=5)
    rng = random.Random(n)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    assert not g.is_over()
    again = replay(rules, n, 5, g.record())
    assert position(again) == position(g)
    assert again.current_player() == g.current_player()
    assert again.legal_actions() == g.legal_actions()
    for p in [None, *range(n)]:
        assert again.view(p) == g.view(p)


def _other_deal(perm: tuple[int, ...], keep: int, n: int) -> tuple[int, ...]:
    """The same deal for player `keep`, the agents of two other seats swapped."""
    others = [i for i in range(len(perm)) if i != keep]
    a, b = others[0], others[-1]  # another player and a dummy (or the last player)
    assert a < n
    swapped = list(perm)
    swapped[a], swapped[b] = swapped[b], swapped[a]
    return tuple(swapped)


@pytest.mark.parametrize("n", range(2, 8))
def test_view_does_not_depend_on_other_players_agents(rules: Ruleset, n: int) -> None:
    """Replaying the same moves with other agents dealt to the others changes nothing p sees."""
    g = rules.new_game(n, seed=21)
    rng = random.Random(21 + n)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    assert not g.is_over()
    perm = shuffle_event(g)
    for p in range(n):
        other = _other_deal(perm, p, n)
        assert other != perm
        log = g.record()
        log[0] = {"chance": "order", "outcome": list(other)}
        twin = replay(rules, n, 21, log)
        assert secret_agents(twin)[p] == secret_agents(g)[p]
        assert secret_agents(twin) != secret_agents(g)
        assert twin.view(p) == g.view(p)


@pytest.mark.parametrize("n", [2, 4, 7])
def test_clone_is_independent(rules: Ruleset, n: int) -> None:
    g = rules.new_game(n, seed=3)
    rng = random.Random(3)
    for _ in range(30):
        g.apply(rng.choice(g.legal_actions()))
    before = position(g)
    views = [g.view(p) for p in [None, *range(n)]]
    actions = g.legal_actions()
    c = g.clone()
    assert position(c) == before
    for _ in range(40):
        if c.is_over():
            break
        c.apply(rng.choice(c.legal_actions()))
    assert position(c) != before
    assert position(g) == before
    assert [g.view(p) for p in [None, *range(n)]] == views
    assert g.legal_actions() == actions
    # and the original can still be played on its own, leaving the clone as it was
    after = position(c)
    g.apply(actions[0])
    assert position(g) != before
    assert position(c) == after


def test_clone_continues_exactly_like_the_original(rules: Ruleset) -> None:
    g = rules.new_game(4, seed=8)
    rng = random.Random(8)
    for _ in range(25):
        g.apply(rng.choice(g.legal_actions()))
    c = g.clone()
    # same decisions, and the clone draws the same dice from its copy of the generator
    for i in range(80):
        if g.is_over():
            break
        options = g.legal_actions()
        assert c.legal_actions() == options
        pick = options[i % len(options)]
        g.apply(pick)
        c.apply(pick)
    assert position(c) == position(g)


def test_clone_of_a_scripted_chance_event(rules: Ruleset) -> None:
    g = rules.new_game(3, seed=2, auto_chance=False)
    g.apply_chance([0, 1, 2, 3, 4, 5])  # the agents by their index, in their own order
    assert g.current_player() == CHANCE
    c = g.clone()
    c.apply_chance("6")
    assert c.current_player() == 0
    assert g.current_player() == CHANCE
    g.apply_chance("2")
    assert [a.text for a in g.legal_actions()][:1] == ["Perry"]
    assert "2 move points" in g.prompt()
    assert "6 move points" in c.prompt()


@pytest.mark.parametrize("n", [2, 5, 7])
def test_same_seed_and_choices_give_the_same_game(rules: Ruleset, n: int) -> None:
    a = playout(rules, n, 99, {"win_score": "15"})
    b = playout(rules, n, 99, {"win_score": "15"})
    assert position(a) == position(b)
    assert a.results() == b.results()
    assert a.events() == b.events()


def test_different_seeds_give_different_dice(rules: Ruleset) -> None:
    logs = set()
    for seed in range(4):
        g = rules.new_game(4, seed=seed)
        for _ in range(10):
            g.apply(g.legal_actions()[0])
        logs.add(tuple(g.history(None)))
    assert len(logs) > 1

"""Scripted Heimlich & Co scenarios: every die roll is chosen by the test (auto_chance=False).

Spec: /work/shared/seeds/003_*.txt and /work/shared/reference/heimlich.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import CHANCE, TERMINAL, Game, Ruleset, UsageError, replay

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
FACES = ["1-3", "2", "3", "4", "5", "6"]
AGENTS = ["Perry", "Schulz", "Doyle", "Jaques", "Bucci", "Mirkov", "Larsson"]
AGENT_COUNT = {2: 5, 3: 6, 4: 7, 5: 7, 6: 7, 7: 7}
BUILDINGS = ["church", *[f"building {i}" for i in range(1, 11)], "ruin"]


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_file(HEIMLICH)


def start(
    rules: Ruleset, players: int = 4, order: tuple[int, ...] | None = None, **options: Any
) -> Game:
    """A new game whose secret agents are dealt by `order`, the agents by their index
    (identity: P1 Perry, P2 Schulz...)."""
    g = rules.new_game(
        players, seed=1, options={k: str(v) for k, v in options.items()}, auto_chance=False
    )
    assert g.current_player() == CHANCE
    decision = g.pending()
    assert decision is not None and (decision.kind, decision.name) == ("shuffle", "order")
    assert g.legal_actions() == []  # a shuffle lists no outcomes
    agents = [g.edit().item("agent", name) for name in AGENTS[: AGENT_COUNT[players]]]
    g.apply_chance([agents[i] for i in order] if order is not None else agents)
    return g


def roll(g: Game, face: str) -> None:
    assert g.current_player() == CHANCE
    assert [a.text for a in g.legal_actions()] == FACES
    g.apply_chance(face)


def move(g: Game, agent: str, steps: int) -> None:
    g.apply(agent)
    g.apply(str(steps))


def pieces(g: Game) -> dict[str, dict[str, Any]]:
    return {row["name"]: row for row in g.view(None)["pieces"]["agent"]}


def at(g: Game, agent: str) -> str:
    return pieces(g)[agent]["at"]


def scores(g: Game) -> dict[str, int]:
    return {name: row["score"] for name, row in pieces(g).items()}


def safe(g: Game) -> str:
    return g.view(None)["globals"]["safe"]


def texts(g: Game) -> list[str]:
    return [a.text for a in g.legal_actions()]


def require_line() -> int:
    for i, line in enumerate(HEIMLICH.read_text(encoding="utf-8").splitlines(), start=1):
        if "require target != safe" in line:
            return i
    raise AssertionError("heimlich.rules has no require on the safe's target")


# --------------------------------------------------------------------------- setup
def test_setup_deals_agents_by_the_shuffle(rules: Ruleset) -> None:
    g = start(rules, 4)
    everything = g.view(None)
    assert [p["agent"] for p in everything["players"]] == AGENTS[:4]
    assert list(pieces(g)) == AGENTS
    assert all(row["at"] == "church" and row["score"] == 0 for row in pieces(g).values())
    assert safe(g) == "building 7"
    assert g.current_player() == CHANCE
    assert everything["current"] == "P1"


def test_setup_with_another_permutation(rules: Ruleset) -> None:
    g = start(rules, 4, order=(6, 3, 0, 5, 1, 2, 4))
    assert [p["agent"] for p in g.view(None)["players"]] == ["Larsson", "Jaques", "Perry", "Mirkov"]


@pytest.mark.parametrize(("players", "agents"), sorted(AGENT_COUNT.items()))
def test_agents_in_play_depend_on_player_count(rules: Ruleset, players: int, agents: int) -> None:
    g = start(rules, players)
    assert list(pieces(g)) == AGENTS[:agents]
    assert len(g.view(None)["players"]) == players


def test_safe_start_option(rules: Ruleset) -> None:
    assert safe(start(rules, 3, safe_start=2)) == "building 2"


# --------------------------------------------------------------------------- the die
def test_face_one_to_three_offers_a_choice_of_points(rules: Ruleset) -> None:
    g = start(rules)
    roll(g, "1-3")
    assert g.current_player() == 0
    assert texts(g) == ["1", "2", "3"]
    assert "1-3" in g.prompt()
    g.apply("3")
    assert g.current_player() == 0
    assert "3 move points" in g.prompt()
    assert texts(g) == AGENTS
    g.apply("Perry")
    assert texts(g) == ["1", "2", "3"]
    g.apply("3")
    assert at(g, "Perry") == "building 3"
    assert g.current_player() == CHANCE
    assert g.view(None)["current"] == "P2"


@pytest.mark.parametrize("points", [1, 2])
def test_face_one_to_three_with_fewer_points(rules: Ruleset, points: int) -> None:
    g = start(rules)
    roll(g, "1-3")
    g.apply(str(points))
    move(g, "Doyle", points)
    assert at(g, "Doyle") == BUILDINGS[points]
    assert g.current_player() == CHANCE


# --------------------------------------------------------------------------- moving
def test_points_may_all_go_to_one_agent_in_several_steps(rules: Ruleset) -> None:
    g = start(rules)
    roll(g, "6")
    move(g, "Mirkov", 1)
    move(g, "Mirkov", 2)
    move(g, "Mirkov", 3)
    assert at(g, "Mirkov") == "building 6"
    assert g.current_player() == CHANCE


def test_movement_wraps_from_ruin_to_church(rules: Ruleset) -> None:
    g = start(rules, 2, safe_start=5)
    roll(g, "6")
    move(g, "Perry", 6)  # building 6
    roll(g, "6")
    move(g, "Perry", 6)  # 12 steps: all the way round to the church
    assert at(g, "Perry") == "church"


def test_illegal_agent_name_is_refused(rules: Ruleset) -> None:
    g = start(rules)
    roll(g, "2")
    with pytest.raises(UsageError):
        g.apply("Bond")
    assert "Bond" in g.why_not("Bond").reason
    assert g.current_player() == 0
    assert texts(g) == AGENTS


def test_why_not_during_a_chance_event(rules: Ruleset) -> None:
    g = start(rules)
    assert "chance" in g.why_not("Perry").reason
    with pytest.raises(UsageError):
        g.apply("Perry")


# --------------------------------------------------------------------------- scoring
def test_scoring_adds_points_and_moves_the_safe(rules: Ruleset) -> None:
    g = start(rules, safe_start=6)
    roll(g, "6")
    move(g, "Perry", 6)
    assert at(g, "Perry") == "building 6"
    assert scores(g) == {a: (6 if a == "Perry" else 0) for a in AGENTS}
    # the current player must now move the safe to another building
    assert g.current_player() == 0
    assert "safe" in g.prompt().lower()
    assert texts(g) == [b for b in BUILDINGS if b != "building 6"]
    refusal = g.why_not("building 6")
    assert refusal.reason == "the safe must move to a different building"
    assert refusal.span is not None
    assert Path(refusal.span.file).resolve() == HEIMLICH
    assert refusal.span.line == require_line()
    with pytest.raises(UsageError):
        g.apply("building 6")
    g.apply("ruin")
    assert safe(g) == "ruin"
    assert g.current_player() == CHANCE
    assert g.view(None)["current"] == "P2"
    assert scores(g)["Perry"] == 6  # moving the safe scores nothing


def test_every_agent_scores_its_building_including_the_ruin(rules: Ruleset) -> None:
    g = start(rules, safe_start=6)
    roll(g, "6")
    move(g, "Perry", 6)  # scoring: Perry 6
    g.apply("ruin")
    roll(g, "5")  # P2
    move(g, "Schulz", 5)  # building 5: the safe is in the ruin, no scoring
    assert scores(g)["Schulz"] == 0
    roll(g, "5")  # P3
    move(g, "Perry", 5)  # building 6 -> ruin, where the safe is
    expected = {a: 0 for a in AGENTS}
    expected.update(Perry=6 - 3, Schulz=5)
    assert scores(g) == expected
    assert g.current_player() == 2
    assert "ruin" not in texts(g)
    assert g.why_not("ruin").reason == "the safe must move to a different building"
    g.apply("church")
    assert safe(g) == "church"
    assert scores(g) == expected  # agents in the church with the safe: no new scoring


def test_entering_and_leaving_the_safe_in_one_turn_does_not_score(rules: Ruleset) -> None:
    g = start(rules, safe_start=2)
    roll(g, "3")
    move(g, "Perry", 2)
    move(g, "Perry", 1)
    assert at(g, "Perry") == "building 3"
    assert scores(g) == {a: 0 for a in AGENTS}
    assert g.current_player() == CHANCE


def test_reaching_the_safe_in_two_small_moves_scores(rules: Ruleset) -> None:
    g = start(rules, safe_start=2)
    roll(g, "2")
    move(g, "Perry", 1)
    move(g, "Perry", 1)
    assert scores(g)["Perry"] == 2
    assert g.current_player() == 0  # moving the safe


def test_scoring_counts_when_one_of_several_moved_agents_ends_with_the_safe(rules: Ruleset) -> None:
    g = start(rules, safe_start=4)
    roll(g, "6")
    move(g, "Perry", 4)  # to the safe
    move(g, "Schulz", 2)  # elsewhere
    expected = {a: 0 for a in AGENTS}
    expected.update(Perry=4, Schulz=2)
    assert scores(g) == expected


# --------------------------------------------------------------------------- the end
def test_game_ends_at_win_score_with_the_winner(rules: Ruleset) -> None:
    g = start(rules, safe_start=6, win_score=6)
    roll(g, "6")
    move(g, "Perry", 6)
    # the end rule is checked before anyone is asked to move the safe
    assert g.is_over()
    assert g.current_player() == TERMINAL
    assert g.legal_actions() == []
    assert g.results() == ["win", "loss", "loss", "loss"]
    assert safe(g) == "building 6"
    assert g.why_not("church").reason == "the game is over"
    with pytest.raises(UsageError):
        g.apply("church")


def test_winner_is_whoever_holds_the_top_agent(rules: Ruleset) -> None:
    g = start(rules, order=(1, 0, 2, 3, 4, 5, 6), safe_start=6, win_score=6)  # P2 is Perry
    roll(g, "6")
    move(g, "Perry", 6)
    assert g.results() == ["loss", "win", "loss", "loss"]


def test_game_ends_over_several_scorings(rules: Ruleset) -> None:
    g = start(rules, 3, safe_start=3, win_score=5)
    roll(g, "3")
    move(g, "Doyle", 3)  # Doyle 3
    g.apply("building 5")
    assert not g.is_over()
    roll(g, "2")  # P2
    move(g, "Doyle", 2)  # building 5: Doyle 3 + 5 = 8
    assert scores(g)["Doyle"] == 8
    assert g.is_over()
    assert g.results() == ["loss", "loss", "win"]


def test_tie_between_two_players_in_a_two_player_game(rules: Ruleset) -> None:
    g = start(rules, 2, order=(4, 2, 0, 1, 3), safe_start=3, win_score=3)  # Bucci, Doyle
    roll(g, "6")
    move(g, "Doyle", 3)
    move(g, "Bucci", 3)
    assert g.results() == ["draw", "draw"]


def test_two_dummies_tied_on_top_is_a_draw_for_everyone(rules: Ruleset) -> None:
    g = start(rules, 2, safe_start=3, win_score=3)  # Doyle, Jaques, Bucci are dummies
    roll(g, "6")
    move(g, "Jaques", 3)
    move(g, "Bucci", 3)
    assert g.results() == ["draw", "draw"]


def test_highest_agent_wins_when_several_pass_win_score(rules: Ruleset) -> None:
    g = start(rules, safe_start=3, win_score=3)
    roll(g, "5")
    move(g, "Schulz", 5)  # building 5: the safe is in building 3, no scoring
    assert not g.is_over()
    roll(g, "3")  # P2
    move(g, "Perry", 3)  # scoring: Perry 3, Schulz 5, both at least win_score
    assert scores(g)["Perry"] == 3
    assert scores(g)["Schulz"] == 5
    assert g.results() == ["loss", "win", "loss", "loss"]


def test_replay_of_a_scripted_game(rules: Ruleset) -> None:
    g = start(rules, safe_start=6, win_score=9)
    roll(g, "6")
    move(g, "Perry", 6)
    g.apply("building 9")
    roll(g, "1-3")
    g.apply("3")
    move(g, "Perry", 3)
    assert g.is_over()
    options = {"safe_start": "6", "win_score": "9"}
    for log in (g.events(), g.record()):
        again = replay(rules, 4, 1, log, options=options)
        assert again.view(None) == g.view(None)
        assert again.history(None) == g.history(None)
        assert again.record() == g.record()
        assert again.results() == g.results() == ["win", "loss", "loss", "loss"]


# --------------------------------------------------------------------------- usage errors
@pytest.mark.parametrize("players", [0, 1, 8])
def test_player_count_out_of_range(rules: Ruleset, players: int) -> None:
    with pytest.raises(UsageError):
        rules.new_game(players, seed=1)


@pytest.mark.parametrize("players", [2, 7])
def test_player_count_limits_are_allowed(rules: Ruleset, players: int) -> None:
    g = rules.new_game(players, seed=1)
    assert len(g.view(None)["players"]) == players


def test_unknown_option(rules: Ruleset) -> None:
    with pytest.raises(UsageError, match="win_scor"):
        rules.new_game(4, seed=1, options={"win_scor": "10"})


def test_option_needs_a_number(rules: Ruleset) -> None:
    with pytest.raises(UsageError):
        rules.new_game(4, seed=1, options={"win_score": "many"})


def test_scripted_chance_outcome_out_of_range(rules: Ruleset) -> None:
    g = start(rules)
    for bad in ("7", "1", 6, -1):  # the faces are texts: "1-3", "2" .. "6"
        with pytest.raises(UsageError, match="not a possible outcome"):
            g.apply_chance(bad)
    with pytest.raises(UsageError):
        g.chance_index(6)
    with pytest.raises(UsageError):
        g.chance_index(-1)
    assert g.current_player() == CHANCE


def test_shuffle_outcome_must_be_a_permutation(rules: Ruleset) -> None:
    g = rules.new_game(4, seed=1, auto_chance=False)
    perry, schulz, doyle = (g.edit().item("agent", a) for a in AGENTS[:3])
    agents = [g.edit().item("agent", a) for a in AGENTS]
    with pytest.raises(UsageError):
        g.apply_chance([perry, *agents[:-1]])  # Perry twice, Larsson left out
    with pytest.raises(UsageError):
        g.apply_chance([perry, schulz, doyle])
    with pytest.raises(UsageError):
        g.apply_chance(perry)  # one agent is not an order
    with pytest.raises(UsageError):
        g.chance_index((0, 0, 1, 2, 3, 4, 5))
    assert g.current_player() == CHANCE

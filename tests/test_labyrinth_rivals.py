"""The labyrinth's search pictures its rivals in the race (docs/bots.md, "The
labyrinth: rivals who carry a treasure"): on the map it imagines, a rival may carry a
treasure already, and its `estimate` reads the others' state.

Seed: "If you occupy the same tile as another adventurer ... you may choose to attack
the other player ... The loser becomes injured, drops any treasure they are holding,
and becomes unable to pick up any more treasure unless they are healed." A search
whose pictured rivals never carry a treasure, and whose estimate reads no rival, sees
nothing to gain in a fight but the risk of an injury.
"""

from __future__ import annotations

import random
from typing import Any

from labyrinth_support import fixed, rules, scenario  # noqa: F401 - fixtures

from rulelang import Game, Ruleset

AROUND = [f"{x},{y}" for x in (-1, 0, 1) for y in (-1, 0, 1)]
NOTES = {"at": "2,2", "spot": [0, 0], "box": [-1, 1, -1, 1], "visited": AROUND}
WORLDS = 40


def played_to(rules: Ruleset, rounds: int) -> Game:
    """A 4-player game of the explorers, stopped at a decision of seat 1 once
    `rounds` rounds have been played."""
    game = rules.new_game(4, seed=7)
    while game.is_over() or game.current_player() != 0 or game.round_number < rounds:
        assert not game.is_over(), "the explorers ended the game before the round"
        game.apply(game.bot_choice(None))
    return game


def carriers(game: Game, seed: int) -> list[int]:
    """How many rivals of seat 1 carry a treasure in each of WORLDS pictures."""
    rng = random.Random(seed)
    counts = []
    for _ in range(WORLDS):
        world = game.determinize(0, rng)
        counts.append(sum(bool(world.attribute("treasure", q)) for q in (1, 2, 3)))
    return counts


def test_a_pictured_rival_may_carry_a_treasure_the_likelier_later(rules: Ruleset) -> None:  # noqa: F811
    """Late in the game a pictured rival carries a treasure in some worlds (none did
    before: a fight could win nothing); early, seldom; never more than the piles."""
    early = carriers(played_to(rules, 1), 1)
    late = carriers(played_to(rules, 40), 1)
    assert sum(late) > sum(early)
    assert sum(c > 0 for c in late) >= WORLDS // 5
    assert max(early + late) <= 2  # two piles on the default map


def test_the_piles_the_seat_was_told_of_stay_on_the_picture(rules: Ruleset) -> None:  # noqa: F811
    """A rival's treasure is a pile taken off the pictured map where the seat's notes
    do not reach: a pile the seat was told of (here, where it stands) stays where it
    saw it, though late in the game rivals carry one in many pictures."""
    game = played_to(rules, 40)
    spot = game.view(0)["players"][0]["spot"]
    game.edit().set("treasure_seen", [f"{spot[0]},{spot[1]}"], of=0)
    rng = random.Random(2)
    carried = 0
    for _ in range(WORLDS):
        world = game.determinize(0, rng)
        at = world.view(None)["players"][0]["at"]
        assert world.view(None)["board_state"]["maze"]["treasure"][at] == 1
        carried += sum(bool(world.attribute("treasure", q)) for q in (1, 2, 3))
    assert carried > 0


def estimate(rules: Ruleset, **p2: Any) -> float:
    game = scenario(rules, p1=NOTES, p2=p2)
    figures = game.estimate()
    assert figures is not None
    return figures[0]


def test_a_rival_with_a_treasure_lowers_the_estimate(fixed: Ruleset) -> None:  # noqa: F811
    """Seed: "When the first adventurer finds a treasure and successfully exits the
    labyrinth with the treasure wins": a rival holding one is nearer the goal than
    anyone empty-handed, so the others' chances are the smaller."""
    assert estimate(fixed, treasure=True) < estimate(fixed)


def test_an_injured_rival_raises_the_estimate(fixed: Ruleset) -> None:  # noqa: F811
    """Seed: an injured player "becomes unable to pick up any more treasure unless they
    are healed": a rival out of the race for a while leaves the others more chance."""
    assert estimate(fixed, injured=True) > estimate(fixed)

"""The labyrinth's `estimate` (the search bots' reading of a position, docs/bots.md):
its levels keep the order of the goal and count what the notebook holds.

Seed: "When the first adventurer finds a treasure and successfully exits the labyrinth
with the treasure wins." A search
that scores a position by the estimate must never find that picking up a treasure, or
keeping its notes, lowers it.
"""

from __future__ import annotations

from typing import Any

from labyrinth_support import fixed, scenario  # noqa: F401 - fixed is a fixture

from rulelang import Ruleset

# P1 on the fixed map's 2,2, having walked the 3 x 3 square round it (its frame's 0,0)
AROUND = [f"{x},{y}" for x in (-1, 0, 1) for y in (-1, 0, 1)]
NOTES = {"at": "2,2", "spot": [0, 0], "box": [-1, 1, -1, 1], "visited": AROUND}


def estimate(rules: Ruleset, **p1: Any) -> float:
    game = scenario(rules, p1={**NOTES, **p1})
    figures = game.estimate()
    assert figures is not None
    return figures[0]


def test_holding_beats_standing_on_a_treasure_beats_exploring(fixed: Ruleset) -> None:
    """Holding the treasure, far from any tile not walked on, scores above standing on
    the treasure it knows (a draft of the estimate took the treasure for worse, and a
    search seat left it lying on seed 137); standing on it scores above exploring (the
    estimate before counted the treasure it stands on as out of reach, 12 steps)."""
    by_it = estimate(fixed, treasure_seen=["0,0"])
    holding = estimate(fixed, treasure=True)
    assert holding > by_it > estimate(fixed)


def test_the_notes_kept_count(fixed: Ruleset) -> None:
    """A river or a portal wipes the notebook (a new frame): the way back to what was
    found is lost, so nine tiles known score above a fresh frame of one."""
    kept = estimate(fixed)
    wiped = estimate(fixed, visited=["0,0"], box=[0, 0, 0, 0])
    assert kept > wiped


def test_an_injury_lowers_the_estimate(fixed: Ruleset) -> None:
    """Seed: the loser of a battle "becomes injured, drops any treasure they are holding,
    and becomes unable to pick up any more treasure unless they are healed"."""
    assert estimate(fixed, injured=True) < estimate(fixed)

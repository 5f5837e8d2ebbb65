"""The labyrinth's `estimate` (the search bots' reading of a position, docs/bots.md):
its levels keep the order of the goal and count what the notebook holds.

Seed (the goal): "The first adventurer to exit the maze with treasure wins." A search
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


def test_picking_up_the_treasure_never_lowers_the_estimate(fixed: Ruleset) -> None:
    """Holding the treasure, far from any tile not walked on, still beats standing
    by it: the old estimate (60 less 3 a step to the next new tile, against 55) took
    the treasure for worse, and a search seat left it lying (seed 137)."""
    by_it = estimate(fixed, treasure_seen=["0,0"])
    holding = estimate(fixed, treasure=True)
    assert holding > by_it


def test_the_notes_kept_count(fixed: Ruleset) -> None:
    """A river or a portal wipes the notebook (a new frame): the way back to what was
    found is lost, so nine tiles known score above a fresh frame of one."""
    kept = estimate(fixed)
    wiped = estimate(fixed, visited=["0,0"], box=[0, 0, 0, 0])
    assert kept > wiped


def test_an_injury_lowers_the_estimate(fixed: Ruleset) -> None:
    """Seed: an injured player cannot pick up treasure until healed."""
    assert estimate(fixed, injured=True) < estimate(fixed)

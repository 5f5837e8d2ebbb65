"""Shared helpers of the labyrinth tests: the compiled rules, a scripted game on the
fixed map of tests/labyrinth/fixed.rules, and the map read back from the referee's view.

The map is read only through the public API (`Game.view(None)`, `Game.attribute`), in
one place (`Map.of`), so that the tests say what the reference requires and not how
the rule file stores it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import CHANCE, Game, Ruleset

ROOT = Path(__file__).resolve().parent.parent
LABYRINTH = ROOT / "rulesets" / "labyrinth.rules"
FIXED = ROOT / "tests" / "labyrinth" / "fixed.rules"
DIRS = ["up", "right", "down", "left"]
STEP = [(0, 1), (1, 0), (0, -1), (-1, 0)]


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_file(LABYRINTH)


@pytest.fixture(scope="module")
def fixed() -> Ruleset:
    return rulelang.compile_file(FIXED, allow=[ROOT / "rulesets"])


def scenario(
    rules: Ruleset,
    players: int = 3,
    options: dict[str, str] | None = None,
    order: list[str] | None = None,
    **seats: Any,
) -> Game:
    """A game on the fixed map, dice scripted by the test. Keyword arguments set player
    attributes before the first turn: `p1={"at": "2,2", "item": "rusty_bullet"}`."""
    game = rules.new_game(players, seed=1, options=options, auto_chance=False)
    edit = game.edit()
    for key, attrs in seats.items():
        seat = int(key[1:]) - 1
        for name, value in attrs.items():
            edit.set(name, value, of=seat)
    game.apply("start")
    decision = game.pending()  # the random turn order: the seat order unless given
    assert decision is not None and decision.name == "turn order", decision
    game.apply_chance(order or list(game.player_names))
    return game


@dataclass
class Map:
    """A generated map as the referee sees it. Cells are (x, y); sides are (cell, d)."""

    width: int
    height: int
    kind: dict[tuple[int, int], str]
    flow: dict[tuple[int, int], int]
    portal: dict[tuple[int, int], str]
    portal_to: dict[tuple[int, int], tuple[int, int]]
    treasure: dict[tuple[int, int], int]
    walls: set[tuple[tuple[int, int], int]]  # every side with a wall, seen from both cells
    exits: set[tuple[tuple[int, int], int]]  # rim sides
    starts: list[tuple[int, int]]

    @staticmethod
    def of(game: Game) -> Map:
        view = game.view(None, only={"pieces", "players"})
        width, height = game.value("width"), game.value("height")
        assert isinstance(width, int) and isinstance(height, int)
        m = Map(width, height, {}, {}, {}, {}, {}, set(), set(), [])
        for row in view["pieces"]["tile"]:
            c = cell_of(row["name"])
            m.kind[c] = row["kind"]
            m.flow[c] = row["flow"]
            m.portal[c] = row["portal"]
            if row["portal_to"] is not None:
                m.portal_to[c] = cell_of(row["portal_to"])
            m.treasure[c] = row["treasure"]
            m.walls |= {(c, d) for d in range(4) if row["walls"][d]}
            m.exits |= {(c, d) for d in range(4) if row["exits"][d]}
        m.starts = [cell_of(p["at"]) for p in view["players"]]
        return m

    def cells(self) -> list[tuple[int, int]]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def neighbour(self, c: tuple[int, int], d: int) -> tuple[int, int] | None:
        x, y = c[0] + STEP[d][0], c[1] + STEP[d][1]
        return (x, y) if 0 <= x < self.width and 0 <= y < self.height else None


def cell_of(name: str) -> tuple[int, int]:
    x, y = name.split(",")
    return int(x), int(y)


def tile_attr(game: Game, name: str, at: str) -> Any:
    """An attribute of the map at a cell, as the referee reads it."""
    return game.attribute(name, of=game.node("maze", at), kind="tile")


def others_never_heard(game: Game, seat: int, *words: str) -> None:
    """No player but `seat` read a line containing any of `words` (the public line of
    the turn order aside)."""
    for other in range(game.players):
        if other != seat:
            for line in game.history(other)[1:]:
                assert not line.startswith("Turn order:")
                assert not any(w in line for w in words), (other, line)


def chance_pending(game: Game) -> bool:
    return game.current_player() == CHANCE

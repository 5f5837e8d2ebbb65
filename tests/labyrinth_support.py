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
        view = game.view(None, only={"board_state", "players"})
        state = view["board_state"]["maze"]
        width, height = game.value("width"), game.value("height")
        assert isinstance(width, int) and isinstance(height, int)
        m = Map(width, height, {}, {}, {}, {}, {}, set(), set(), [])
        for name, kind in state["kind"].items():
            c = cell_of(name)
            m.kind[c] = kind
            m.flow[c] = state["flow"][name]
            m.portal[c] = state["portal"][name]
            if state["portal_to"][name] >= 0:
                m.portal_to[c] = divmod(state["portal_to"][name], width)[::-1]
            m.treasure[c] = state["treasure"][name]
        for name, up in state["wall"].items():  # each side once, named from one cell
            c, d = side_of(name)
            n = m.neighbour(c, d)
            if up and n is not None:
                m.walls |= {(c, d), (n, (d + 2) % 4)}
        for name, open_ in state["exit"].items():
            if open_:
                m.exits.add(side_of(name))
        # the outer wall: every rim side but the exits
        m.walls |= {(c, d) for c in m.cells() for d in range(4)
                    if m.neighbour(c, d) is None and (c, d) not in m.exits}  # fmt: skip
        m.starts = [cell_of(p["at"]) for p in view["players"]]
        return m

    def cells(self) -> list[tuple[int, int]]:
        return [(x, y) for y in range(self.height) for x in range(self.width)]

    def neighbour(self, c: tuple[int, int], d: int) -> tuple[int, int] | None:
        x, y = c[0] + STEP[d][0], c[1] + STEP[d][1]
        return (x, y) if 0 <= x < self.width and 0 <= y < self.height else None


def side_of(name: str) -> tuple[tuple[int, int], int]:
    """A side as the views name it ("3,4 north") as (cell, direction)."""
    cell, direction = name.split(" ")
    return cell_of(cell), ["north", "east", "south", "west"].index(direction)


def cell_of(name: str) -> tuple[int, int]:
    x, y = name.split(",")
    return int(x), int(y)


def tile_attr(game: Game, name: str, at: str) -> Any:
    """A state of the map at a cell, as the referee reads it."""
    return game.view(None, only={"board_state"})["board_state"]["maze"][name][at]


def others_never_heard(game: Game, seat: int, *words: str) -> None:
    """No player but `seat` read a line containing any of `words` (the public lines of
    the turn order and of whose turn it is aside)."""
    for other in range(game.players):
        if other != seat:
            for line in game.history(other)[1:]:
                assert not line.startswith("Turn order:")
                if line.endswith("'s turn.") and len(line.split()) == 2:
                    continue
                assert not any(w in line for w in words), (other, line)


def chance_pending(game: Game) -> bool:
    return game.current_player() == CHANCE

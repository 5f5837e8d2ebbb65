"""One Python object per cell of a grid without bounds (runtime/open_grid.py, switch
`open_grid.CANONICAL`): a cell's number (about 2·10^18) is handed out as the same
object by `cell(x, y)` and by every neighbour row, so that dicts and sets holding cells
find them by identity instead of comparing their digits. Shown firing, off when
switched off, and the games the same either way."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import rulelang
from rulelang.runtime import open_grid
from rulelang.runtime.open_grid import OpenGrid

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


def grids() -> Iterator[tuple[bool, OpenGrid]]:
    was = open_grid.CANONICAL
    try:
        for on in (True, False):
            open_grid.CANONICAL = on
            yield on, OpenGrid("maze", 1000)
    finally:
        open_grid.CANONICAL = was


def test_a_cell_is_one_object_from_cell_and_from_its_neighbours() -> None:
    for on, grid in grids():
        home = grid.cell(0, 0)
        east = grid.cell(1, 0)
        assert home is not None and east is not None
        west_of_east = grid.neighbour[east][3]
        assert west_of_east == home  # the same cell either way
        assert (west_of_east is home) == on  # the same object only when on
        assert (grid.cell(0, 0) is home) == on
        north_of_home = grid.neighbour[home][0]
        assert (grid.neighbour[north_of_home][2] is home) == on


def test_past_the_reach_is_no_cell_either_way() -> None:
    for _on, grid in grids():
        edge = grid.cell(open_grid.REACH, 0)
        assert edge is not None and grid.neighbour[edge][1] == -1
        assert grid.cell(open_grid.REACH + 1, 0) is None


def test_the_same_games_either_way() -> None:
    was = open_grid.CANONICAL
    games = []
    try:
        for on in (True, False):
            open_grid.CANONICAL = on
            rules = rulelang.compile_file(SABOTEUR)
            played = []
            for seed in (1, 2, 3):
                game = rules.new_game(4, seed)
                game.playout(random.Random(seed), max_decisions=5000)
                played.append((game.record(), game.results(), game.view(rulelang.PUBLIC)))
            games.append(played)
    finally:
        open_grid.CANONICAL = was
    assert games[0] == games[1]

"""The reach of a grid without bounds (runtime/open_grid.py, switch
`open_grid.DERIVED_REACH`): its coordinates run from -R to R, R the larger of 16383
(cells of one CPython digit) and the most pieces or cards of the kind it holds; a
cell past R asked for (`cell`, `neighbour`) and a tile laid on the rim are R046 at
the rule's line, not a traceback. Shown firing, off when switched off (the reach of
before, 10^9), and Saboteur's games the same either way."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulelang
from rulelang.diagnostics import GameRuntimeError
from rulelang.limits import Limits
from rulelang.runtime import open_grid

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"

RULES = """
players 2..2
card tunnel count COUNT { edges: list(bool) = [true, true, true, true] }
zone pile: tunnel visible to all
board maze = grid() tiles tunnel
global { x: int = 0 }

setup {
  add pieces(tunnel) to pile
}

turn {
  choose n in 0..1
  TURN
}

end when turn_number > 3 { win [current] }
"""


def compiled(turn: str, count: str = "200", items: int = 1_000_000) -> rulelang.Ruleset:
    text = RULES.replace("COUNT", count).replace("TURN", turn)
    return rulelang.compile_source(text, "reach.rules", limits=Limits(items=items))


def failure(rules: rulelang.Ruleset) -> GameRuntimeError:
    game = rules.new_game(2, seed=1)
    with pytest.raises(GameRuntimeError) as caught:
        game.apply(game.legal_actions()[0].text)
    return caught.value


def reach(rules: rulelang.Ruleset) -> int:
    return rules.new_game(2, seed=1).state.cfg.boards["maze"].reach  # type: ignore[attr-defined]


def test_the_reach_is_16383_or_the_tiles_the_grid_may_hold() -> None:
    assert reach(compiled('say "x"')) == 16_383  # 200 tunnels
    assert reach(compiled('say "x"', count="20000")) == 20_000  # a line of all of them fits
    # a count worked out when the game is set up may reach the limit of items
    assert reach(compiled('say "x"', count="player_count * 10", items=50_000)) == 50_000


def test_a_cell_past_the_reach_is_r046_at_its_line() -> None:
    rules = compiled("set x = maze.x[cell(maze, 16384, 0)]")
    error = failure(rules)
    assert error.code == "R046"
    assert "the cell 16384,0 lies beyond the reach of board 'maze'" in error.message
    assert "-16383 to 16383" in error.message
    assert (error.span.line, error.span.col) == (14, 18)  # the turn's `cell(...)`
    ok = compiled("set x = maze.x[cell(maze, 16383, -16383)]").new_game(2, seed=1)
    ok.apply(ok.legal_actions()[0].text)  # the last cell of the reach is a cell
    assert ok.state.vars[0] == 16_383


@pytest.mark.parametrize("d", [1, 4, 5])  # east, and the diagonals that step east
def test_a_neighbour_past_the_rim_is_r046(d: int) -> None:
    rules = compiled(f"set x = maze.x[neighbour(maze, cell(maze, 16383, 0), {d})]")
    error = failure(rules)
    assert error.code == "R046"
    assert f"the cell beyond 16383,0 in direction {d}" in error.message


def test_a_tile_on_the_rim_is_r046_and_one_inside_it_is_laid() -> None:
    rim = compiled("place first(pile) on maze at cell(maze, -16383, 5)")
    error = failure(rim)
    assert error.code == "R046"
    assert "a tile on -16383,5 would lie on the rim of board 'maze'" in error.message
    inside = compiled("place first(pile) on maze at cell(maze, -16382, 5)")
    game = inside.new_game(2, seed=1)
    game.apply(game.legal_actions()[0].text)
    assert game.tile("maze", "-16382,5") is not None


@pytest.fixture
def reach_off() -> Iterator[None]:
    was = open_grid.DERIVED_REACH
    open_grid.DERIVED_REACH = False
    try:
        yield
    finally:
        open_grid.DERIVED_REACH = was


def test_switched_off_the_reach_is_the_old_one(reach_off: None) -> None:
    rules = compiled("set x = maze.x[cell(maze, 16384, 0)]")
    assert reach(rules) == open_grid.FAR
    game = rules.new_game(2, seed=1)
    game.apply(game.legal_actions()[0].text)  # no error: 16384 is well inside
    assert game.state.vars[0] == 16_384


def play_saboteur() -> list[object]:
    rules = rulelang.compile_file(SABOTEUR)
    played: list[object] = []
    for players, seed in ((3, 1), (5, 2), (10, 3)):
        game = rules.new_game(players, seed)
        game.playout(random.Random(seed), max_decisions=5000)
        played.append((game.record(), game.results(), game.view(rulelang.PUBLIC)))
        played.append(game.state.cfg.boards["maze"].reach)  # type: ignore[attr-defined]
    return played


def test_saboteur_plays_the_same_games_either_way() -> None:
    on = play_saboteur()
    was = open_grid.DERIVED_REACH
    open_grid.DERIVED_REACH = False
    try:
        off = play_saboteur()
    finally:
        open_grid.DERIVED_REACH = was
    assert on[1::2] == [16_383] * 3 and off[1::2] == [open_grid.FAR] * 3
    assert on[0::2] == off[0::2]

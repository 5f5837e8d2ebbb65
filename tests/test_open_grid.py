"""A grid without bounds (`grid()`): tiles go as far as the rules let them, in every
direction; the cell functions, `path_length`, views, saves and the text map keep up;
what needs every cell is refused (E257), a path search too wide is R044."""

from __future__ import annotations

import random

import pytest

import rulelang
from rulelang import Game, Ruleset, replay
from rulelang.diagnostics import GameRuntimeError, RuleError, Span
from rulelang.render.text import render_view
from rulelang.runtime import board_build, boards

# Crosses laid one at a time at a spot the player names: the maze can be steered.
RULES = """
players 2..2
card tunnel count 200 {
  edges: list(bool) = [true, true, true, true]
}
zone pile: tunnel visible to all
board maze = grid() tiles tunnel

def home() = cell(maze, 0, 0)

setup {
  add pieces(tunnel) to pile
  place first(pile) on maze at home()
}

turn {
  choose s in spots(maze, home()) prompt "Where?"
  place first(pile) on maze at s
  say "{s}: x {maze.x[s]}, y {maze.y[s]}, {distance(maze, s, home())} from home, \
{count(d for d in 0..3 where neighbour(maze, s, d) in placed(maze))} card(s) beside it"
}

end when turn_number > 150 { win [current] }
"""

SPAN = Span("open.rules", 1, 1)
WAYS = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_source(RULES, "open.rules")


def walk(g: Game, dx: int, dy: int, steps: int) -> list[str]:
    """Lay a straight line of `steps` cards from the last one laid; their names."""
    laid = []
    x, y = (0, 0) if not g.history(None)[-1:] else last_cell(g)
    for _ in range(steps):
        x, y = x + dx, y + dy
        spot = f"{x},{y}"
        assert spot in [a.text for a in g.legal_actions()], f"{spot} is not offered"
        g.apply(spot)
        laid.append(spot)
    return laid


def last_cell(g: Game) -> tuple[int, int]:
    said = [line for line in g.history(None) if ": x " in line][-1]
    x, y = said.split(":")[0].split(",")
    return int(x), int(y)


@pytest.mark.parametrize("way", WAYS)
def test_cards_go_far_in_every_direction(rules: Ruleset, way: str) -> None:
    """Forty cards in a line from the start, in each direction (negative coordinates
    too): every spot is offered, the cell functions name and place each one."""
    g = rules.new_game(2, seed=1)
    dx, dy = WAYS[way]
    laid = walk(g, dx, dy, 40)
    assert laid[-1] == f"{40 * dx},{40 * dy}"
    assert set(g.view(None)["boards"]["maze"]) == {"0,0", *laid}
    assert g.history(None)[-1] == (
        f"{40 * dx},{40 * dy}: x {40 * dx}, y {40 * dy}, 40 from home, 1 card(s) beside it"
    )
    # the next spot out, and the three beside the last card, are offered
    offered = {a.text for a in g.legal_actions()}
    assert f"{41 * dx},{41 * dy}" in offered
    assert f"{40 * dx + dy},{40 * dy + dx}" in offered


def test_a_maze_round_a_corner_joins_up(rules: Ruleset) -> None:
    """A square walk of 12 a side comes back beside the start: the spots reflect every
    card, the last card has two neighbours, and the spots lie all round."""
    g = rules.new_game(2, seed=1)
    walk(g, 0, 1, 12)
    walk(g, -1, 0, 12)
    walk(g, 0, -1, 12)
    walk(g, 1, 0, 11)
    assert g.history(None)[-1].endswith("1 from home, 2 card(s) beside it")
    offered = {a.text for a in g.legal_actions()}
    assert {"0,13", "-13,0", "0,-1", "1,0", "-1,5"} <= offered
    assert "-1,0" not in offered  # laid


def test_cells_sort_row_by_row_from_the_south(rules: Ruleset) -> None:
    """The spots come in the order a bounded grid gives them: by row from the south,
    west to east in a row (so a game plays as it did on a bounded grid)."""
    g = rules.new_game(2, seed=1)
    assert [a.text for a in g.legal_actions()] == ["0,-1", "-1,0", "1,0", "0,1"]


def test_views_clones_determinizations_and_replays_keep_far_cards(rules: Ruleset) -> None:
    g = rules.new_game(2, seed=3)
    walk(g, 0, -1, 15)
    walk(g, -1, 0, 15)
    cells = set(g.view(0)["boards"]["maze"])
    assert {"0,-15", "-15,-15"} <= cells
    assert set(g.clone().view(1)["boards"]["maze"]) == cells
    assert set(g.determinize(0, random.Random(1)).view(0)["boards"]["maze"]) == cells
    again = replay(rules, 2, 3, g.record())
    assert again.view(None) == g.view(None)
    assert g.tile("maze", "-15,-15") is not None
    assert g.tile("maze", "-16,-15") is None


def test_the_map_is_drawn_around_what_is_laid(rules: Ruleset) -> None:
    """The text map spans the laid cards and one cell round them, however far out."""
    g = rules.new_game(2, seed=1)
    walk(g, 0, 1, 30)
    walk(g, 1, 0, 1)
    text = render_view(g, g.view(0))
    header = next(line for line in text.splitlines() if line.strip().startswith("-1"))
    assert header.split() == ["-1", "0", "1", "2"]  # x from -1 to 2, no more
    drawn = text.split("\n\n")[1].splitlines()[1:]  # the map, below "maze:"
    rows = [int(line[:6]) for line in drawn if line[:6].strip()]
    assert rows == list(range(31, -2, -1))  # y from 31 down to -1: 30 cards and a margin
    assert max(len(line.rstrip()) for line in drawn) <= 6 + 3 * 4
    assert drawn[5] == "   30  · ─┼──┼─ · "  # y 30: the last card up, and 1,30 beside it


def test_path_length_matches_a_large_bounded_grid() -> None:
    """path_length on the open grid gives what a bounded grid far larger than the walls
    gives, for random walls, goals and starts (negative coordinates included)."""
    rng = random.Random(5)
    open_ = board_build.build("m", "grid", [], 1_000_000)
    closed = board_build.build("m", "grid", [-30, 30, -30, 30], 1_000_000)
    assert isinstance(closed, boards.GridBoard)

    def both(x: int, y: int) -> tuple[int, int]:
        a, b = open_.cell(x, y), closed.cell(x, y)  # type: ignore[attr-defined]
        assert a is not None and b is not None
        return a, b

    span = SPAN
    for _ in range(300):
        walls = [both(rng.randint(-6, 6), rng.randint(-6, 6)) for _ in range(rng.randint(0, 40))]
        goals = [both(rng.randint(-8, 8), rng.randint(-8, 8)) for _ in range(rng.randint(1, 3))]
        start = both(rng.randint(-9, 9), rng.randint(-9, 9))
        expected = closed.path_length(start[1], [g[1] for g in goals], [w[1] for w in walls], span)
        got = open_.path_length(
            start[0], tuple(g[0] for g in goals), tuple(w[0] for w in walls), span
        )
        assert got == expected


def test_cell_names_coordinates_and_neighbours() -> None:
    grid = board_build.build("m", "grid", [], 1_000_000)
    c = grid.cell(-7, 12)  # type: ignore[attr-defined]
    assert grid.names[c] == "-7,12"
    assert (grid.attrs["x"][c], grid.attrs["y"][c]) == (-7, 12)
    north, east, south, west = grid.neighbour[c]  # type: ignore[attr-defined]
    assert [grid.names[n] for n in (north, east, south, west)] == [
        "-7,13",
        "-6,12",
        "-7,11",
        "-8,12",
    ]
    assert grid.names.index("-7,12") == c and "-7,12" in grid.names
    assert "seven" not in grid.names
    assert grid.distance(c, grid.cell(3, -2)) == 10 + 14  # type: ignore[attr-defined]
    assert not grid.bounded


LISTED = [
    ("board maze = grid() {\n  state kind: int = 0\n}", "attribute 'kind'"),
    ("board maze = grid() {\n  edge wall: bool = false\n}", "attribute 'wall'"),
    ("board maze = grid() {\n  kind = [1, 2]\n}", "attribute 'kind'"),
    ("board maze = grid()\nturn { choose c in nodes(maze) }", "nodes()"),
    ("board maze = grid()\nturn { say '{side(maze, cell(maze, 0, 0), 0)}' }", "side()"),
    ("board maze = grid()\nsetup { generate cs = cells c on maze count 2 }", "generate"),
]


@pytest.mark.parametrize(("source", "what"), LISTED)
def test_what_needs_every_cell_is_refused(source: str, what: str) -> None:
    text = "players 2..2\n" + source.replace("'", '"') + "\nend when true { win [current] }\n"
    if "turn" not in source:
        text += 'turn { say "x" }\n'
    with pytest.raises(RuleError) as err:
        rulelang.compile_source(text, "open.rules")
    diagnostics = err.value.diagnostics
    assert [d.code for d in diagnostics] == ["E257"], str(err.value)
    assert diagnostics[0].message.startswith(f"{what} needs every cell of board 'maze'")


def test_a_path_search_past_the_limit_is_refused() -> None:
    """Walls a million cells apart would make the searched box endless: R044."""
    grid = board_build.build("m", "grid", [], 1_000_000)
    far, home = grid.cell(0, 900_000), grid.cell(0, 0)  # type: ignore[attr-defined]
    wall = grid.cell(900_000, 0)  # type: ignore[attr-defined]
    with pytest.raises(GameRuntimeError) as caught:
        grid.path_length(home, (far,), (wall,), SPAN)
    assert caught.value.code == "R044"
    assert grid.path_length(home, (far,), (), SPAN) == 900_000  # no walls: no search


@pytest.mark.parametrize("shape", ["grid()", "grid(0, 3, 0, 3)"])
def test_distance_from_none_is_minus_one(shape: str) -> None:
    """As path_length from none: -1 (it was an internal error on a bounded grid)."""
    source = f"""
players 2..2
board maze = {shape}
def c() = cell(maze, 1, 1)
turn {{ say "{{distance(maze, none, c())}} {{distance(maze, c(), none)}}" }}
end when true {{ win [current] }}
"""
    g = rulelang.compile_source(source, "d.rules").new_game(2)
    assert g.history(None)[-1] == "-1 -1"

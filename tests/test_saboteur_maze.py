"""Saboteur's maze has no edge: it grows as far as the cards reach, in every direction.

Reference (/work/shared/reference/saboteur.md, "Start and goal cards"): the goals lie
at (8, 2), (8, 0) and (8, -2), "seven card widths between start and the middle goal
[...]. The maze may grow beyond that pattern." The table of the seed has no edge; the
rule files once had a 21 x 17 grid, where the ninth card straight up was refused.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from saboteur_support import OFFICIAL, SABOTEUR, rules  # noqa: F401 - rules is a fixture
from test_saboteur import GOAL_CELLS, maze, start, texts

import rulelang
from rulelang import Game, Ruleset
from rulelang.render.text import render_view

STONESEEKERS = SABOTEUR.parent / "saboteur-stoneseekers.rules"
UP = ["tunnel N-S", "tunnel N-E-S-W", "tunnel N-E-S"]  # open north and south, face up
ACROSS = ["tunnel W-E", "tunnel N-E-S-W", "tunnel E-S-W"]  # open west and east
# per direction: (dx, dy), the cards to lay the line with, the card played last
WAYS = {
    "up": ((0, 1), UP, "tunnel N-S"),
    "down": ((0, -1), UP, "tunnel N-S"),
    "left": ((-1, 0), ACROSS, "tunnel W-E"),
}


def lay(g: Game, x: int, y: int, names: Sequence[str], keep: int | None = None) -> None:
    """Lay a card of one of these names on (x, y), from the deck or a hand (a scenario
    shortcut), but not the card `keep`."""
    for zone, owner in [("deck", None), ("hand", 0), ("hand", 1), ("hand", 2)]:
        for card in g.items(zone, owner):
            if g.name_of("playcard", card) in names and card != keep:
                g.edit().place("maze", f"{x},{y}", card)
                return
    raise AssertionError(f"no {names} left to lay")


def kept(g: Game, name: str) -> int:
    """The card of that name in P1's hand (the one the scenario plays)."""
    return next(c for c in g.items("hand", 0) if g.name_of("playcard", c) == name)


def line_then_play(rules: Ruleset, way: str, length: int) -> Game:
    """Cards laid in a line from the start, `length - 1` of them; P1 then plays the
    last one through the real choices."""
    (dx, dy), names, last = WAYS[way]
    g = start(rules, 3, hands=[[last]])
    for i in range(1, length):
        lay(g, i * dx, i * dy, names, kept(g, last))
    g.apply(last)
    g.apply("play")
    spot = f"{length * dx},{length * dy}"
    assert spot in texts(g), f"{spot} is not offered: {texts(g)}"
    g.apply(spot)
    g.apply("0")
    return g


def test_the_ninth_card_straight_up_is_laid(rules: Ruleset) -> None:
    """Seed: "You can play a path card on the maze if all sides of that card are allowed
    and does fit all the sides with the positions that its siblings." Nothing else:
    the ninth card up (refused by the old 21 x 17 table) is laid like the first."""
    g = line_then_play(rules, "up", 9)
    assert maze(g)["0,9"]["tile"] == "tunnel N-S"
    assert g.history(0)[-1] == "P1 lays tunnel N-S at 0,9"
    assert set(GOAL_CELLS) <= set(maze(g))  # the goals stay where the seed puts them


@pytest.mark.parametrize("way", WAYS)
def test_twelve_cards_out_in_each_direction(rules: Ruleset, way: str) -> None:
    """Twelve cards from the start, up, down and to the left (negative coordinates):
    the twelfth is offered and laid, every seat sees it, the map draws it."""
    g = line_then_play(rules, way, 12)
    (dx, dy), _names, _last = WAYS[way]
    far = f"{12 * dx},{12 * dy}"
    assert maze(g)[far]["tile"] in UP + ACROSS
    for seat in range(3):
        assert maze(g, seat)[far]["open"] == maze(g)[far]["open"]
    assert far in maze(g.clone())
    assert far in maze(g.determinize(1, random.Random(2)), 1)
    text = render_view(g, g.view(0))
    drawn = text.split("\n\n")[1].splitlines()[1:]  # the map, below "maze:"
    # it spans the laid cards plus a margin of one: x from -1 (or -13) to 9, y from
    # 3 (or 13) down to -3 (or -13); labels of 3 characters go on every other column
    west = min(0, 12 * dx) - 1
    assert drawn[0].split() == [str(x) for x in range(west, 10, 2 if west < -9 else 1)]
    assert {len(line) for line in drawn if line[:6].strip()} == {6 + 3 * (10 - west)}
    rows = [int(line[:6]) for line in drawn if line[:6].strip()]
    assert rows == list(range(max(2, 12 * dy) + 1, min(-2, 12 * dy) - 2, -1))


def test_a_card_that_does_not_fit_far_out_is_refused_with_the_reason(rules: Ruleset) -> None:
    """Far from the start the one rule is still "does fit all the sides": a W-E tunnel
    above a N-S line is refused, and the refusal says why (not that the table ends)."""
    g = start(rules, 3, hands=[["tunnel W-E"]])
    for y in range(1, 12):
        lay(g, 0, y, UP, kept(g, "tunnel W-E"))
    g.apply("tunnel W-E")
    g.apply("play")
    assert "0,12" not in texts(g)
    assert g.why_not("0,12").reason == "tunnel W-E does not fit there, either way up"


def away_from_the_goals(g: Game, rng: random.Random) -> str:
    """A random option, but a card is played rather than discarded, and a path card
    goes to the spot farthest from the goals."""
    options = [a.text for a in g.legal_actions()]
    decision = g.pending()
    if decision is not None and decision.name == "spot":
        return max(options, key=lambda s: abs(int(s.split(",")[0]) - 8) + abs(int(s.split(",")[1])))
    if "play" in options:
        return "play"
    return options[int(rng.random() * len(options))]


@pytest.mark.parametrize("path", [SABOTEUR, OFFICIAL, STONESEEKERS], ids=lambda p: p.stem)
def test_games_that_lay_away_from_the_goals_go_past_the_old_table(path: object) -> None:
    """Games whose players lay each path card as far from the goals as they can (and
    choose the rest at random) end as usual, the maze well past the old 21 x 17 table
    (x -6..14, y -8..8), which the rules no longer know of."""
    rules = rulelang.compile_file(str(path))
    beyond = 0
    for seed in range(6):
        g = rules.new_game(4, seed=seed)
        rng = random.Random(seed)
        farthest = 0
        while not g.is_over():
            g.apply(away_from_the_goals(g, rng))
            cells = [tuple(map(int, c.split(","))) for c in maze(g)]
            farthest = max(farthest, *(max(x - 14, -6 - x, abs(y) - 8) for x, y in cells))
        assert g.results() is not None
        beyond += farthest > 0
    assert beyond >= 3

"""`imagine { ... }`: how a player pictures what it cannot see (runtime/imagine.py).

A determinization for a seat forgets every value the seat may not see, then runs the
block with `me` the seat: so what the search reads is the picture, never the truth.
The labyrinth pictures its hidden map from the player's notebook.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang import Game
from rulelang.diagnostics import RuleError
from rulelang.runtime.determinize import not_redealt
from rulelang.search import bot_action

ROOT = Path(__file__).resolve().parent.parent

# A secret number, drawn in setup; each player also holds a secret of its own. The
# players guess; a player pictures the number as any of 1-6, and knows its own secret.
GUESS = """game "Guess"
players 2..3
global { secret: int = 0 visible to none }
player { mine: int = 0 visible to owner }
setup {
  pick n in [1, 2, 3, 4, 5, 6]
  set secret = n
  for p in players { set p.mine = seat(p) + 10 }
}
imagine {
  pick n in [1, 2, 3, 4, 5, 6]
  set secret = n
  say "{me} pictures {n}."
}
turn {
  choose guess in 1..6 prompt "Guess"
  if guess == secret { set secret = 0 }
}
end when secret == 0 { win [current] }
"""


@pytest.fixture(scope="module")
def guess() -> rulelang.Ruleset:
    return rulelang.compile_source(GUESS)


def pictured(game: Game, seat: int, k: int) -> tuple[object, ...]:
    twin = game.determinize(seat, random.Random(k))
    return (twin.view(None)["globals"]["secret"], *(twin.attribute("mine", of=p) for p in range(3)))


def test_a_determinization_pictures_what_is_hidden_and_never_carries_the_truth(
    guess: rulelang.Ruleset,
) -> None:
    games = [guess.new_game(3, seed=s) for s in range(12)]
    truths = {g.view(None)["globals"]["secret"] for g in games}
    assert len(truths) > 2  # the secret differs between these games...
    for k in range(6):  # ...but what seat 1 pictures, with the same generator, does not
        assert len({pictured(g, 1, k) for g in games}) == 1
    drawn = {pictured(games[0], 1, k)[0] for k in range(30)}
    assert drawn == {1, 2, 3, 4, 5, 6}  # drawn anew from the caller's generator
    # its own secret it knows; the others' are forgotten (back to the default)
    assert pictured(games[0], 1, 0)[1:] == (0, 11, 0)
    # nothing of the block reaches the log, and the original game is untouched
    twin = games[0].determinize(1, random.Random(0))
    assert twin.history() == games[0].history()
    assert not any("pictures" in line for line in twin.history())
    assert games[0].attribute("mine", of=0) == 10


def test_rules_that_imagine_are_searched(guess: rulelang.Ruleset) -> None:
    assert not_redealt(guess.program) == []
    game = guess.new_game(2, seed=3)
    choices = {bot_action(game, "ismcts:30").text for _ in range(2)}
    assert len(choices) == 1  # reproducible
    while not game.is_over():
        game.apply(bot_action(game, "ismcts:20"))
    assert "win" in game.results()


@pytest.mark.parametrize(
    ("line", "code", "message"),
    [
        ('  choose x in 1..2 prompt "x"\n', "E305", "choose cannot be used in an imagine block"),
        ("  do ask\n", "E311", "'ask' asks a player to choose, which an imagine block cannot do"),
    ],
)
def test_an_imagine_block_asks_no_one(line: str, code: str, message: str) -> None:
    source = GUESS.replace("imagine {\n", "imagine {\n" + line)
    source += 'proc ask { choose z in 1..2 prompt "z" }\n'
    with pytest.raises(RuleError) as caught:
        rulelang.compile_source(source)
    assert f"error[{code}]" in str(caught.value) and message in str(caught.value)


def test_an_option_that_only_asks_again_is_not_taken() -> None:
    """A move refused (a wall the player knows of) asks the same question again: every
    option scores the same, but the search takes the one that does something."""
    source = """game "Door"
players 2..2
global { moves: int = 0 }
turn {
  let done = false
  while not done {
    choose way in ["wall", "door"] prompt "Which way?"
    if way == "door" { set done = true }
  }
  set moves += 1
}
end when moves >= 4 { draw players }
"""
    game = rulelang.compile_source(source).new_game(2, seed=1)
    for bot in ("mcts:40", "ismcts:40"):
        assert bot_action(game, bot).text == "door"


# ------------------------------------------------------------------ the labyrinth
@pytest.fixture(scope="module")
def labyrinth() -> rulelang.Ruleset:
    return rulelang.compile_file(ROOT / "rulesets" / "labyrinth.rules")


def test_the_labyrinth_pictures_a_map_that_fits_the_notebook(
    labyrinth: rulelang.Ruleset,
) -> None:
    """Each picture puts the player somewhere its frame fits, with the walls it found
    and the tiles it walked on as it was told; where it stands is drawn, not read."""
    game = labyrinth.new_game(3, seed=2)
    while True:  # random players, until one who found walls and walked a while decides
        game.apply(game.bot_choice("random"))
        seat = game.current_player()
        notes = game.view(seat)["players"][seat]
        if len(notes["walls_seen"]) > 2 and len(notes["visited"]) > 3:
            break
    sx, sy = notes["spot"]
    compass = {"up": "north", "right": "east", "down": "south", "left": "west"}
    places = set()
    for k in range(10):
        state = game.determinize(seat, random.Random(k)).view(None)
        at = state["players"][seat]["at"]
        places.add(at)
        ax, ay = (int(v) for v in at.split(","))
        ox, oy = ax - sx, ay - sy  # where the frame's 0,0 lies in this picture
        maze = state["board_state"]["maze"]
        for wall in notes["walls_seen"]:
            tile, way = wall.split()
            x, y = (int(v) for v in tile.split(","))
            cell = f"{x + ox},{y + oy}"
            dx, dy = {"up": (0, 1), "right": (1, 0), "down": (0, -1), "left": (-1, 0)}[way]
            if cell in maze["kind"]:  # a side of a tile of the board
                side = f"{cell} {compass[way]}"
                beyond = f"{x + ox + dx},{y + oy + dy}"
                if beyond in maze["kind"]:  # an inner wall, named from either side
                    back = {"up": "south", "right": "west", "down": "north", "left": "east"}
                    shut = maze["wall"].get(side, maze["wall"].get(f"{beyond} {back[way]}"))
                    assert shut is True, side
                else:
                    assert maze["exit"][side] is False, side  # the outer wall
        for tile in notes["visited"]:
            x, y = (int(v) for v in tile.split(","))
            kind = maze["kind"][f"{x + ox},{y + oy}"]  # the frame fits on the board
            assert kind in ("safe", "marsh", "shop", "hospital")
    assert len(places) > 1  # where it stands is pictured, not read


def test_the_labyrinth_pictures_the_exits_found_in_the_outer_wall(
    labyrinth: rulelang.Ruleset,
) -> None:
    """An exit found is pictured where it was found: in the outer wall, open. (Laid
    anywhere the frame fitted, it was an open way inside the maze, which a search bot
    without the treasure tried again and again.)"""
    game = labyrinth.new_game(4, seed=3)
    while True:  # random players, until one who found an exit and walked on decides
        game.apply(game.bot_choice("random"))
        seat = game.current_player()
        notes = game.view(seat)["players"][seat]
        if notes["exits_seen"] and len(notes["visited"]) > 2:
            break
    sx, sy = notes["spot"]
    compass = {"up": "north", "right": "east", "down": "south", "left": "west"}
    step = {"up": (0, 1), "right": (1, 0), "down": (0, -1), "left": (-1, 0)}
    for k in range(10):
        state = game.determinize(seat, random.Random(k)).view(None)
        ax, ay = (int(v) for v in state["players"][seat]["at"].split(","))
        maze = state["board_state"]["maze"]
        for found in notes["exits_seen"]:
            tile, way = found.split()
            x, y = (int(v) for v in tile.split(","))
            cell = f"{x + ax - sx},{y + ay - sy}"
            beyond = f"{x + ax - sx + step[way][0]},{y + ay - sy + step[way][1]}"
            assert cell in maze["kind"] and beyond not in maze["kind"], (k, found)
            assert maze["exit"][f"{cell} {compass[way]}"] is True, (k, found)


def test_a_search_bot_plays_the_labyrinth(labyrinth: rulelang.Ruleset) -> None:
    """It walks on: its notes grow beyond the tile it started on. (Read over the whole
    game, not at its 40th decision alone: a river that flushes it starts its notes
    again, as on this seed, where it ends its 40 decisions in a stretch of river.)"""
    game = labyrinth.new_game(3, seed=4)
    decisions = most = 0
    while not game.is_over() and decisions < 40:
        if game.current_player() == 0:
            game.apply(bot_action(game, "ismcts:10"))
            decisions += 1
            most = max(most, len(game.view(0)["players"][0]["visited"]))
        else:
            game.apply(game.bot_choice("random"))
    assert decisions == 40 or game.is_over()
    assert most >= 4 or game.is_over()

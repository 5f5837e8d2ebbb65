"""The labyrinth's notebook and its bot (rulesets/labyrinth.rules, "computer players").

The notebook is what the game master's messages told a player, kept in attributes
`visible to owner`; the bot `explorer` reads only it (the checker's proof, E247), so
what is hidden from its player and not yet found out never changes its choice. The
scenarios run on the fixed map of tests/labyrinth/fixed.rules (drawn in
tests/test_labyrinth.py): P1 starts on 2,1 with walls above and to the left, the
treasure and an exit (below) on 2,0, and a river flowing right on 3,1.
"""

from __future__ import annotations

import random

import pytest
from labyrinth_support import LABYRINTH, ROOT, fixed, rules, scenario  # noqa: F401

import rulelang
from rulelang import CHANCE, Game, RuleError, Ruleset
from rulelang.simulation.run import run_games
from rulelang.simulation.summary import Summary

NOTEBOOK = ("spot", "box", "visited", "walls_seen", "exits_seen", "ways_out", "treasure_seen",
            "shops_seen", "hospitals_seen", "marshes_seen", "fresh", "rim")  # fmt: skip


def notes(game: Game, seat: int) -> dict[str, object]:
    own = game.view(seat)["players"][seat]
    return {k: own[k] for k in NOTEBOOK}


def wait(game: Game, *seats_ways: str) -> None:
    """The other players' turns: each walks the way given (along row 4)."""
    for way in seats_ways:
        assert game.current_player() != 0
        game.apply(way)


def test_the_notebook_writes_down_what_the_messages_said(fixed: Ruleset) -> None:
    game = scenario(fixed)
    start = notes(game, 0)
    assert start["spot"] == [0, 0] and start["visited"] == ["0,0"] and start["walls_seen"] == []
    game.apply("up")
    game.apply("left")
    assert notes(game, 0)["walls_seen"] == ["0,0 up", "0,1 down", "0,0 left", "-1,0 right"]
    game.apply("down")  # 2,0: the treasure, left lying
    game.apply("leave it")
    n = notes(game, 0)
    assert n["spot"] == [0, -1] and n["visited"] == ["0,0", "0,-1"]
    assert n["box"] == [0, 0, -1, 0] and n["treasure_seen"] == ["0,-1"]
    wait(game, "left", "left")
    game.apply("move")
    game.apply("down")  # the exit, without treasure
    n = notes(game, 0)
    assert n["exits_seen"] == ["0,-1 down"] and n["ways_out"] == ["0,-1"]
    assert n["rim"] == [99, 99, -1, 99]  # the bottom row of the maze is the frame's y = -1
    game.apply("up")
    wait(game, "right", "right")
    game.apply("right")  # the river on 3,1 pushes P1 on: where is P1 now? A new frame
    n = notes(game, 0)
    assert n["spot"] == [0, 0] and n["visited"] == ["0,0"]
    assert n["walls_seen"] == n["exits_seen"] == n["treasure_seen"] == []
    assert n["rim"] == [99, 99, 99, 99]


def test_the_notebook_is_its_owners_alone(fixed: Ruleset) -> None:
    game = scenario(fixed)
    game.apply("up")
    for seat in (1, 2):
        assert not set(NOTEBOOK) & set(game.view(seat)["players"][0])
    assert "walls_seen" in game.view(0)["players"][0]


def test_the_explorer_heads_for_the_exit_it_knows(fixed: Ruleset) -> None:
    game = scenario(fixed)
    game.apply("down")
    game.apply("leave it")
    wait(game, "left", "left")
    game.apply("move")
    game.apply("down")  # found the exit, without treasure
    game.apply("up")
    wait(game, "right", "right")
    game.apply("down")
    game.apply("pick up the treasure")
    wait(game, "left", "left")
    assert game.pending().name == "way" and game.current_player() == 0
    assert game.bot_choice("explorer").text == "down"


def test_the_explorer_never_tries_a_wall_it_knows(fixed: Ruleset) -> None:
    for seed in range(12):  # the bot's ties are drawn from the seed's generator
        game = fixed.new_game(3, seed=seed, auto_chance=False)
        game.apply("start")
        game.apply_chance(["P1", "P2", "P3"])
        game.apply("up")
        game.apply("left")
        assert game.bot_choice("explorer").text in ("right", "down")


def test_the_explorer_takes_and_fetches_treasure(fixed: Ruleset) -> None:
    game = scenario(fixed)
    game.apply("down")
    assert game.pending().name == "take"
    assert game.bot_choice("explorer").text == "pick up the treasure"


def test_an_injured_explorer_uses_its_kit(fixed: Ruleset) -> None:
    game = scenario(fixed, p1={"injured": True, "item": "first_aid_kit"})
    assert game.pending().name == "action"
    assert game.bot_choice("explorer").text == "use the first aid kit"


def perturbed(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy where what `seat` cannot see has changed: where everyone stands (its own
    player too: a player never knows where they are), and the other players' treasure,
    items and injuries."""
    other = game.clone()
    edit = other.edit()
    cells = [f"{x},{y}" for x in range(8) for y in range(8)]
    for p in range(other.players):
        edit.set("at", rng.choice(cells), of=p)
        if p != seat:
            edit.set("treasure", rng.random() < 0.5, of=p)
            edit.set("injured", rng.random() < 0.5, of=p)
            edit.set("item", rng.choice([None, "rusty_bullet", "first_aid_kit"]), of=p)
    return other


def test_what_its_player_has_not_found_out_never_changes_the_explorers_choice(
    rules: Ruleset,
) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        game = rules.new_game(4, seed=seed)
        for _ in range(600):
            if game.is_over():
                break
            if game.current_player() == CHANCE:
                game.resolve_chance()
                continue
            seat = game.current_player()
            if seat == 0:
                choice = game.clone().bot_choice("explorer")
                for _ in range(2):
                    assert perturbed(game, 0, rng).bot_choice("explorer") == choice
                checked += 1
            game.apply(game.bot_choice())
    assert checked > 200


def test_a_bot_that_reads_where_its_player_is_is_refused() -> None:
    cheat = 'extends "../../rulesets/labyrinth.rules"\n' + (
        "bot cheat { when choosing way { prefer exit_at(me.at, dir_of(way)) } }\n"
    )
    with pytest.raises(RuleError, match="E247"):
        rulelang.compile_source(
            cheat, str(ROOT / "tests" / "labyrinth" / "cheat.rules"), allow=[ROOT / "rulesets"]
        )


def test_the_explorer_beats_random_players() -> None:
    """One explorer against three random players wins more than its fair quarter: the
    95% interval lies above 25%."""
    summary = Summary(players=4)
    seats = (None, "random", "random", "random")
    for chunk in run_games(str(LABYRINTH), 4, 60, 1, {}, 1, seat_bots=seats):
        for record in chunk:
            summary.add(record)
    assert summary.cut_off == 0 and summary.games == 60
    explorer = summary.as_json()["seats"][0]
    assert explorer["win_ci95"][0] > 0.25, explorer


# ---------------------------------------------------------------- the notebook, from the log
DIRS = ["up", "right", "down", "left"]
STEP = [(0, 1), (1, 0), (0, -1), (-1, 0)]
ARRIVAL = (
    "walks into a SAFE", "enters a SHOP", "enters a HOSPITAL", "sinks into a MARSH",
    "enters and exits a portal", "is flushed by the river", "The river tries",
    "stumbles across", "cannot pick it up", "already carries", "picks up the treasure",
    "in the shop", " gets ", "already holds an item", "is healed, and will lose",
)  # fmt: skip


class Notebook:
    """The notebook written again from a seat's history alone, in Python."""

    def __init__(self) -> None:
        self.fresh = False  # the last step found a tile not walked on (kept when lost)
        self.lost()

    def lost(self) -> None:
        self.x = self.y = 0
        self.box = [0, 0, 0, 0]
        self.visited = ["0,0"]
        self.walls: list[str] = []
        self.exits: list[str] = []
        self.rim = [99, 99, 99, 99]  # the outer wall's row or column, by direction
        self.places: dict[str, list[str]] = {
            k: []
            for k in (
                "ways_out",
                "treasure_seen",
                "shops_seen",
                "hospitals_seen",
                "marshes_seen",
            )  # fmt: skip
        }

    def here(self) -> str:
        return f"{self.x},{self.y}"

    def note(self, where: str) -> None:
        if self.here() not in self.places[where]:
            self.places[where].append(self.here())

    def as_view(self) -> dict[str, object]:
        return {
            "spot": [self.x, self.y], "box": self.box, "visited": self.visited,
            "walls_seen": self.walls, "exits_seen": self.exits, **self.places,
            "fresh": self.fresh, "rim": self.rim,
        }  # fmt: skip


def notebook_from(history: list[str], me: str) -> dict[str, object]:
    nb = Notebook()
    way: int | None = None
    arriving = False  # the messages of an arrival: (river or portal, treasure told)
    plain, told = True, False
    for line in history:
        mine = line.startswith(me) or line.startswith("The river")
        if arriving and not (mine and any(a in line for a in ARRIVAL)):
            arriving = False  # the arrival's messages are over: no treasure told, none here
            if plain and not told and nb.here() in nb.places["treasure_seen"]:
                nb.places["treasure_seen"].remove(nb.here())
        if not mine:
            continue
        if line.startswith(f"{me} tries to go "):
            way = DIRS.index(line.split()[-1].rstrip("."))
            continue
        if way is not None and "Blocked by wall" in line:
            dx, dy = STEP[way]
            nb.walls += [f"{nb.here()} {DIRS[way]}", f"{nb.x + dx},{nb.y + dy} {DIRS[way - 2]}"]
            way = None
        elif way is not None and "has found an exit, but has no treasure" in line:
            nb.exits.append(f"{nb.here()} {DIRS[way]}")
            nb.rim[way] = nb.y if way % 2 == 0 else nb.x  # up/down: a row; right/left: a column
            nb.note("ways_out")
            way = None
        elif way is not None:  # the move was made: this line is the first of the arrival
            nb.x, nb.y = nb.x + STEP[way][0], nb.y + STEP[way][1]
            nb.box = [min(nb.x, nb.box[0]), max(nb.x, nb.box[1]),
                      min(nb.y, nb.box[2]), max(nb.y, nb.box[3])]  # fmt: skip
            nb.fresh = nb.here() not in nb.visited
            if nb.fresh:
                nb.visited.append(nb.here())
            way, arriving, plain, told = None, True, True, False
        if "enters and exits a portal" in line or "is flushed by the river one tile" in line:
            plain = False
            nb.lost()
        elif line.startswith("The river tries"):
            plain = False
            if "out through an exit" in line:
                nb.note("ways_out")
        elif "sinks into a MARSH" in line:
            nb.note("marshes_seen")
        elif "enters a SHOP" in line:
            nb.note("shops_seen")
        elif "enters a HOSPITAL" in line:
            nb.note("hospitals_seen")
        elif "stumbles across a pile of TREASURE" in line or "drops the treasure" in line:
            told = told or "stumbles" in line
            nb.note("treasure_seen")
        elif "picks up the treasure" in line and nb.here() in nb.places["treasure_seen"]:
            nb.places["treasure_seen"].remove(nb.here())
    if arriving and plain and not told and nb.here() in nb.places["treasure_seen"]:
        nb.places["treasure_seen"].remove(nb.here())
    return nb.as_view()


def test_the_notebook_holds_what_the_messages_said_and_nothing_more(rules: Ruleset) -> None:
    """Rewritten from each seat's own history, the notebook is the same, all game long."""
    compared = 0
    for seed in range(4):
        game = rules.new_game(4, seed=seed)
        for step in range(3000):
            if game.is_over():
                break
            if game.current_player() == CHANCE:
                game.resolve_chance()
                continue
            if step % 7 == 0:
                for seat in range(4):
                    own = game.view(seat)["players"][seat]
                    again = notebook_from(game.history(seat), f"P{seat + 1}")
                    assert {k: own[k] for k in again} == again, (seed, step, seat)
                    compared += 1
            game.apply(game.bot_choice())
    assert compared > 500

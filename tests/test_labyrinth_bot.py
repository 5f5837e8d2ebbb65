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
from rulelang.cli.simulate import Summary, run_games

NOTEBOOK = ("spot", "box", "visited", "walls_seen", "exits_seen", "ways_out",
            "treasure_seen", "shops_seen", "hospitals_seen", "marshes_seen")  # fmt: skip


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
    game.apply("up")
    wait(game, "right", "right")
    game.apply("right")  # the river on 3,1 pushes P1 on: where is P1 now? A new frame
    n = notes(game, 0)
    assert n["spot"] == [0, 0] and n["visited"] == ["0,0"]
    assert n["walls_seen"] == n["exits_seen"] == n["treasure_seen"] == []


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

"""A search bot that finds no world fitting what its seat saw (NoBelief: three players
of Liar's Dice, whatever the budget, `ismcts:5` or `ismcts:100`) stopped `simulate`
with exit code 64, and every game played before it was lost. Now the rules' declared
bots play that seat from that decision on (they read no more than the seat sees), the
game's record says so, and the summary counts those games, with their seeds, in the
table, the JSON, the page and a warning. Where the search finds a world, nothing
changes: it is asked, and chooses, as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang import search
from rulelang.runtime.belief import NoBelief
from rulelang.simulation import worker

LIARS_DICE = Path(__file__).resolve().parents[1] / "rulesets" / "examples" / "liars-dice.rules"


def test_simulate_keeps_every_game_and_says_where_the_search_gave_up(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ("simulate", LIARS_DICE, "-p", "3", "-n", "3", "--bots", "1:ismcts:5")
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    no_traceback(out, err)
    data = json.loads(out)
    assert data["games"] == 3 and sum(s["wins"] for s in data["seats"]) == 3
    gave_up = data["search_gave_up"]
    assert 1 <= gave_up["games"] <= 3 and gave_up["seats"] == [
        {"seat": 1, "games": gave_up["games"]}
    ]
    assert set(gave_up["seeds"]) <= {0, 1, 2}
    assert err.startswith("warning: search found no world that fits what its seat saw")
    page = tmp_path / "r.html"
    code, out, err = cli(capsys, *args, "--report", page)
    assert code == 0 and "from there the rules' bots played seat 1" in out
    assert "<h2>Search bots that found no world</h2><p class='note'>Search found" in (
        page.read_text(encoding="utf-8")
    )


def test_the_seat_plays_on_with_the_rules_bots_once_the_search_gave_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = rulelang.compile_file(LIARS_DICE)
    game = rules.new_game(2, seed=3)
    asked = []

    def no_world(g: rulelang.Game, name: str | None) -> rulelang.Action:
        asked.append(name)
        raise NoBelief("the search found no world")

    monkeypatch.setattr(search, "bot_action", no_world)
    gave_up: set[int] = set()
    seat = game.current_player()
    twin = rules.new_game(2, seed=3)
    assert worker.seat_action(game, seat, "ismcts:5", gave_up) == twin.bot_choice(None)
    assert gave_up == {seat} and asked == ["ismcts:5"]
    worker.seat_action(game, seat, "ismcts:5", gave_up)
    assert asked == ["ismcts:5"]  # not asked again in that game: it would fail again


def test_where_the_search_finds_a_world_it_chooses(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rulelang.compile_file(LIARS_DICE)
    game = rules.new_game(2, seed=3)
    gave_up: set[int] = set()
    chosen = search.bot_action(game, "ismcts:5")
    assert worker.seat_action(game, game.current_player(), "ismcts:5", gave_up) == chosen
    assert gave_up == set()

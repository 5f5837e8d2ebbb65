"""Why a game ended and what it measured: `Game.end_reason()` names the end rule that
fired, `measure NAME [per player] = EXPR` declares a number the reports give for every
finished game (docs/language.md, "Measures"; docs/api.md)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.api import compile_source
from rulelang.diagnostics import GameRuntimeError, RuleError
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.runtime.engine import Game, replay
from rulelang.runtime.ruleset import Ruleset

# Each player adds 1..3 to their points; 10 points win, four full rounds draw.
RACE = """game "Race"
players 2..3
player { points: int = 0 }
global { rounds: int = 0 }
turn {
  choose n in 1..3
  set current.points += n
  if current == players[len(players) - 1] { set rounds += 1 }
}
end when any(p.points >= 10 for p in players) {
  win [p for p in players where p.points >= 10]
}
end when rounds >= 4 { draw players }
"""


def race(measures: str = "", limits: Limits = DEFAULT_LIMITS) -> Ruleset:
    return compile_source(RACE + measures + "\n", "race.rules", limits=limits)


def play(rules: Ruleset, moves: list[str], players: int = 2) -> Game:
    game = rules.new_game(players, seed=1)
    for m in moves:
        game.apply(m)
    return game


def test_the_end_reason_names_the_end_rule_that_fired_and_its_line() -> None:
    rules = race()
    won = play(rules, ["3", "1", "3", "1", "3", "1", "3"])  # seat 1 reaches 12
    assert won.results() == ["win", "loss"]
    reason = won.end_reason()
    assert reason is not None
    assert reason.rule == "end when any(p.points >= 10 for p in players)"
    assert reason.where == "race.rules:10" and reason.index == 0
    drawn = play(rules, ["1"] * 8)  # four rounds, nobody near 10
    reason = drawn.end_reason()
    assert reason is not None and drawn.results() == ["draw", "draw"]
    assert (reason.rule, reason.where, reason.index) == ("end when rounds >= 4", "race.rules:13", 1)
    assert str(reason) == "end when rounds >= 4 (race.rules:13)"


def test_no_end_reason_before_the_end_and_clones_and_replays_keep_it() -> None:
    rules = race()
    game = play(rules, ["1"] * 7)
    assert game.end_reason() is None
    twin = game.clone()
    game.apply("1")
    assert game.end_reason() is not None and twin.end_reason() is None
    assert game.clone().end_reason() == game.end_reason()
    again = replay(rules, 2, 1, game.record())
    assert again.end_reason() == game.end_reason()


def test_a_long_end_rule_is_cut_and_written_on_one_line() -> None:
    long_rule = (
        "end when rounds >= 99\n   and rounds >= 98 and rounds >= 97 and rounds >= 96"
        " and rounds >= 95 { draw players }"
    )
    rules = race(long_rule)
    reason = rules.end_reasons[2]
    assert "\n" not in reason.rule and len(reason.rule) == 72 and reason.rule.endswith("…")
    assert reason.rule.startswith("end when rounds >= 99 and rounds >= 98")


def test_measures_per_game_per_player_and_yes_no() -> None:
    rules = race(
        "measure margin = max(p.points for p in players) - min(p.points for p in players)"
        ' "the gap"\n'
        "measure points per player = me.points\n"
        "measure drawn = rounds >= 4\n"
    )
    game = play(rules, ["3", "1", "3", "2", "3", "1", "3"])
    assert game.measures() == {"margin": 8, "points": [12, 4], "drawn": False}
    assert list(rules.measures) == ["margin", "points", "drawn"]
    margin, points, drawn = rules.measures.values()
    assert margin.doc == "the gap" and not margin.per_player and not margin.boolean
    assert points.per_player and drawn.boolean


def test_a_measure_may_read_what_no_player_sees_and_may_be_none() -> None:
    rules = compile_source(
        RACE.replace("points: int = 0", "points: int = 0\n  hid: int = 7 visible to none")
        + "measure hidden = players[0].hid\n"
        + "measure first_to_ten = if rounds >= 4 then none else 1\n"
    )
    game = play(rules, ["1"] * 8)
    assert game.measures() == {"hidden": 7, "first_to_ten": None}


def test_a_measure_must_be_a_number_or_yes_no() -> None:
    with pytest.raises(RuleError) as err:
        race('measure name = "{current}"')
    codes = [d.code for d in err.value.diagnostics]
    assert codes == ["E260"]
    assert "measure 'name' must be a number or yes/no, not text" in str(err.value)


def test_me_is_known_only_in_a_measure_per_player() -> None:
    with pytest.raises(RuleError) as err:
        race("measure mine = me.points")
    assert [d.code for d in err.value.diagnostics] == ["E101"]
    race("measure mine per player = me.points")  # compiles


def test_a_measure_declared_twice_is_refused() -> None:
    with pytest.raises(RuleError) as err:
        race("measure m = 1\nmeasure m = 2")
    assert [d.code for d in err.value.diagnostics] == ["E102"]


def test_a_variant_overrides_a_measure(tmp_path: Path) -> None:
    base = tmp_path / "race.rules"
    base.write_text(RACE + "measure m = 1\n", encoding="utf-8")
    variant = 'extends "race.rules"\ngame "Race, scored"\noverride measure m = 2\n'
    rules = compile_source(variant, str(tmp_path / "variant.rules"))
    game = play(rules, ["1"] * 8)
    assert game.measures() == {"m": 2}
    with pytest.raises(RuleError) as err:
        compile_source(variant.replace("override ", ""), str(tmp_path / "variant.rules"))
    assert "E1" in err.value.diagnostics[0].code


def test_a_measure_that_loops_stops_with_its_own_budget() -> None:
    rules = race(
        "def spin() {\n  let i = 0\n  while true { set i += 1 }\n  return i\n}\nmeasure m = spin()",
        limits=Limits(steps=500),
    )
    game = play(rules, ["1"] * 8)
    with pytest.raises(GameRuntimeError, match="R031.*measure 'm' ran more than 500"):
        game.measures()


def test_measures_of_random_games_add_up() -> None:
    rules = race(
        "measure total = sum(p.points for p in players)\nmeasure each per player = me.points"
    )
    for seed in range(5):
        game = rules.new_game(3, seed)
        game.playout(random.Random(seed))
        m = game.measures()
        assert m["total"] == sum(m["each"]) and len(m["each"]) == 3


SHIPPED = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.rules"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.stem for p in SHIPPED])
def test_every_shipped_game_declares_measures_with_one_per_player(path: Path) -> None:
    """Every shipped game declares what a designer of it would look at (issue 18), one
    per player first (the most lopsided game is read from it)."""
    rules = compile_source(path.read_text(encoding="utf-8"), str(path))
    first = next(iter(rules.measures.values()))
    assert first.per_player and not first.boolean
    assert len(rules.measures) >= 3
    game = rules.new_game(rules.min_players, seed=3)
    game.playout(random.Random(3), max_decisions=3000)
    assert game.is_over()
    assert game.end_reason() is not None and game.end_reason() in rules.end_reasons
    for name, value in game.measures().items():
        values = value if rules.measures[name].per_player else [value]
        assert all(isinstance(v, int) for v in values), (name, value)

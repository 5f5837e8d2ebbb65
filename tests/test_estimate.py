"""`estimate [after N decisions [by bots]] = EXPR`: the rules' own score of a position,
which search bots use where their playouts stop, and who plays those playouts
(docs/language.md)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from rulelang.api import compile_source
from rulelang.diagnostics import GameRuntimeError, RuleError
from rulelang.limits import Limits
from rulelang.runtime.engine import Game
from rulelang.search import bot_action
from rulelang.search.mcts import Budget, search_root

RACE = """game "Race"
players 2..2
player { pos: int = 0 }
turn {
  choose step in [1, 2, 3]
  set current.pos += step
}
end when any(p.pos >= 10 for p in players) { win [p for p in players where p.pos >= 10] }
"""


def race(estimate: str = "") -> str:
    return RACE + estimate + "\n"


def test_the_estimate_scores_every_seat_in_percent_held_to_0_100() -> None:
    rules = compile_source(race("estimate = 50 + 30 * (me.pos - 1) - 20 * seat(me)"))
    game = rules.new_game(2, seed=1)
    assert rules.estimate is not None and rules.estimate.after == 0
    assert game.estimate() == [0.2, 0.0]  # 50 - 30 and 50 - 30 - 20
    game.apply("3")
    assert game.estimate() == [1.0, 0.0]  # 50 + 60 = 110 is held to 100
    while not game.is_over():
        game.apply("3")
    assert game.estimate() == game.returns() == [1.0, 0.0]  # the result, once over


def test_without_an_estimate_there_is_none() -> None:
    assert compile_source(race()).new_game(2).estimate() is None


def test_the_search_uses_the_estimate_where_its_playouts_stop() -> None:
    # random playouts to the end favour 3 steps; an estimate that rewards being behind
    # makes the search take 1 step: so the playouts are scored by the estimate
    plain = compile_source(race()).new_game(2, seed=3)
    assert bot_action(plain, "mcts:300").text == "3"
    perverse = compile_source(race("estimate = 50 - 10 * me.pos")).new_game(2, seed=3)
    assert bot_action(perverse, "mcts:300").text == "1"
    assert bot_action(perverse, "ismcts:300").text == "1"


def test_after_n_decisions_plays_on_at_random_before_scoring(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked: list[int | None] = []
    playout = Game.playout

    def recorded(
        self: Game,
        rng: random.Random,
        max_decisions: int | None = None,
        bots: bool = False,
        quiet: bool = False,
    ) -> int:
        assert not bots  # no `by bots`: at random
        assert quiet  # a search reads no playout's log
        asked.append(max_decisions)
        return playout(self, rng, max_decisions, quiet=quiet)

    monkeypatch.setattr(Game, "playout", recorded)
    for text, expected in [
        ("", {Limits().decisions}),  # no estimate: to the end (the limit)
        ("estimate after 3 decisions = 20 + 5 * me.pos", {3}),
        ("estimate = 20 + 5 * me.pos", set()),  # after 0: scored where the tree ends
    ]:
        asked.clear()
        rules = compile_source(race(text))
        assert bot_action(rules.new_game(2, seed=5), "mcts:50").text == "3"
        assert set(asked) == expected, text
        if expected:
            assert len(asked) >= 40  # about one playout per iteration


def test_a_variant_overrides_the_estimate(tmp_path: Path) -> None:
    base = tmp_path / "race.rules"
    base.write_text(race("estimate = 50"))
    variant = tmp_path / "variant.rules"
    variant.write_text('extends "race.rules"\noverride estimate after 1 decisions = 70\n')
    from rulelang.api import compile_file

    assert compile_file(variant).new_game(2).estimate() == [0.7, 0.7]
    again = tmp_path / "again.rules"
    again.write_text('extends "race.rules"\nestimate = 10\n')
    with pytest.raises(RuleError, match="override"):
        compile_file(again)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ('estimate = "high"', r"E2\d\d.*"),
        ("estimate = 1\nestimate = 2", "E102"),
        ("estimate = you.pos", "E101"),
        ("estimate after x decisions = 1", "E001"),
        ("estimate after 2 decisions by bots = 1", "E256"),
        ("estimate after 2 decisions by chance = 1", "E001"),
        # a number too long for Python's int() (the fuzzer's): one message, no traceback
        ("estimate after " + "9" * 4400 + " decisions = 1", "E005"),
    ],
)
def test_bad_estimates_are_refused(extra: str, message: str) -> None:
    with pytest.raises(RuleError, match=message):
        compile_source(race(extra))


def test_its_words_stay_usable_as_names() -> None:
    rules = compile_source(
        RACE.replace(
            "set current.pos += step", "let estimate = step\n  set current.pos += estimate"
        )
        + "def after(decisions: int) = decisions\ndef by(bots: int) = bots\n"
        + "estimate = after(by(40))\n"
    )
    game = rules.new_game(2)
    game.apply("2")
    assert game.attribute("pos", 0) == 2 and game.estimate() == [0.4, 0.4]


def test_an_estimate_that_loops_stops_with_its_own_budget() -> None:
    rules = compile_source(
        race("def spin() {\n  let i = 0\n  while true { set i += 1 }\n  return i\n}\n")
        + "estimate = spin()",
        limits=Limits(steps=500),
    )
    game = rules.new_game(2)
    with pytest.raises(GameRuntimeError, match="R031.*estimate ran more than 500"):
        game.estimate()


# The payoff of "risky" needs the player's right pick out of 50 on a later turn: random
# playouts rarely find it (safe is worth more to them), the declared bot always does.
GAMBLE = """game "Gamble"
players 2..2
player {
  score: int = 0
  risky: bool = false
}
turn {
  if round_number == 1 {
    choose plan in ["safe", "risky"]
    if plan == "safe" {
      set current.score += 5
    } else {
      set current.risky = true
    }
  } else {
    choose n in 1..50
    if current.risky and n == 50 {
      set current.score += 20
    }
  }
}
end when round_number > 2 { win [p for p in players where p.score >= 20] }
bot sharp { when choosing n { prefer n == 50 } }
estimate after 4 decisions by bots = 4 * me.score
"""


@pytest.mark.parametrize("seed", range(4))
def test_by_bots_the_declared_bots_play_the_playouts(seed: int) -> None:
    by_bots = compile_source(GAMBLE)
    assert by_bots.estimate is not None and by_bots.estimate.by_bots
    at_random = compile_source(GAMBLE.replace(" by bots", ""))
    assert at_random.estimate is not None and not at_random.estimate.by_bots
    for name in ("mcts:40", "ismcts:40"):
        assert bot_action(by_bots.new_game(2, seed=seed), name).text == "risky"
        assert bot_action(at_random.new_game(2, seed=seed), name).text == "safe"


def test_playout_with_bots_takes_the_declared_bots_choices() -> None:
    rules = compile_source(GAMBLE)
    game = rules.new_game(2, seed=1)
    game.apply("risky")
    game.apply("risky")
    bots = game.clone()
    assert bots.playout(random.Random(1), bots=True) == 2 and bots.is_over()
    assert bots.results() == ["win", "win"]  # both picked 50
    randomly = game.clone()
    randomly.playout(random.Random(1))
    assert randomly.results() == ["loss", "loss"]  # 1 in 50, twice: not with this seed


LAZY = """game "Lazy"
players 2..2
turn {
  choose k in 1..5
}
end when round_number > 3 { win players }
bot fourth { when choosing k { prefer k == 4 } }
estimate after 2 decisions by bots = 50
"""


def test_by_bots_the_search_tries_the_bots_choice_first() -> None:
    # every option scores the same: with `by bots` the declared bot's guess gets the
    # most visits (progressive bias); without, the visits are even, and the final
    # choice falls back on the declared bot (docs/bots.md); with no bot, the first
    for seed in range(4):
        guided = compile_source(LAZY).new_game(2, seed=seed)
        visits = [n for _v, n, _t in search_root(guided, Budget(30), random.Random(seed), True)]
        assert visits[3] == max(visits) and visits.count(max(visits)) == 1
        assert bot_action(guided, "ismcts:30").text == "4"
        unguided = compile_source(LAZY.replace(" by bots", "")).new_game(2, seed=seed)
        visits = [n for _v, n, _t in search_root(unguided, Budget(30), random.Random(seed), True)]
        assert visits == [6] * 5
        assert bot_action(unguided, "ismcts:30").text == "4"
        botless = LAZY.replace(" by bots", "").replace("bot fourth", "# bot fourth")
        alone = compile_source(botless).new_game(2, seed=seed)
        assert bot_action(alone, "ismcts:30").text == "1"  # a tie: the first option


SHOW = """game "Show"
players 2..2
global { show: int = 0 }
turn {
  choose card in [1, 2] prompt "How many?"
  set show += card
}
end when turn_number > 2 { say "The show scores {show}." }
bot careful { when choosing card { prefer card == 1 } }
"""


def test_an_end_nobody_wins_is_scored_by_the_estimate_of_where_it_ended() -> None:
    """A cooperative show that ends without a win is a loss for everyone, however big;
    its estimate still tells a big show from a small one, and scores it."""
    rules = compile_source(SHOW + "estimate after 0 decisions by bots = 10 * show\n")
    game = rules.new_game(2, seed=1)
    game.apply("2")
    game.apply("1")
    assert game.is_over() and game.returns() == [0.0, 0.0]
    assert game.estimate() == [0.3, 0.3]
    # a result with a winner stays the result (the race above)


def test_the_search_plays_for_the_bigger_show_when_nobody_wins() -> None:
    """The bot keeps 1; the search sees the end of the game at once, where every
    player loses: only the estimate of the ended show tells 2 from 1."""
    rules = compile_source(SHOW + "estimate after 0 decisions by bots = 10 * show\n")
    game = rules.new_game(2, seed=1)
    game.apply("1")
    assert bot_action(game, "careful").text == "1"
    assert bot_action(game, "ismcts:50").text == "2"

"""The belief's opponent model (docs/bots.md, "What a search bot does not see"):
another player's secret choice is weighed, in each world, by how likely that
player's declared bot was to make it there, so the worlds come to believe what the
players' choices tell (a hidden side that the bot's card betrays)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.runtime import belief
from rulelang.runtime.engine import Game
from rulelang.search import bot_action

ROOT = Path(__file__).resolve().parent.parent

TELLS = """game "Tells"
players 2..2
enum colour { red, blue }
const sides = [colour.red, colour.red, colour.blue, colour.blue]
card badge count 4 { name: text = "{sides[index]} badge"  side: colour = sides[index] }
card chip count 4 { name: text = "{sides[index]} chip"  colour: colour = sides[index] }
zone badges: badge visible to none
zone badge_of: badge per player visible to owner
zone chips: chip visible to all
zone hand: chip per player visible to owner
zone table: chip visible to all
player { side: colour visible to owner  played: int = 0 }
setup {
  add pieces(badge) to badges
  shuffle badges
  for p in players {
    move last(badges) from badges to badge_of[p]
    set p.side = first(badge_of[p]).side
  }
  add pieces(chip) to chips
  for p in players {
    move first([c for c in chips where c.colour == red]) from chips to hand[p]
    move first([c for c in chips where c.colour == blue]) from chips to hand[p]
  }
}
turn {
  choose c in hand[current] secret
  move c from hand[current] to table
  say "{current} plays {c}"
  set current.played += 1
}
end when all(p.played >= 2 for p in players) { win [p for p in players] }
bot tell { when choosing c { prefer c.colour == first(badge_of[me]).side } }
"""


def _belief_in_truth(game: Game, seat: int, other: int) -> float:
    """The weight the seat's worlds give the other player's true side (a test may
    read the truth; the belief never does)."""
    b = belief.current(game, seat)
    truth = game.attribute("side", other)
    right = sum(
        w
        for q, w in zip(b.particles, b.weights, strict=True)
        if q.attribute("side", other) == truth
    )
    return right / sum(b.weights)


def test_a_secret_choice_weighs_the_worlds_by_what_the_players_bot_would_choose() -> None:
    """Seat 2's bot plays the chip of its hidden side first: once seen, the worlds
    where its side is that colour are the likely ones (0.82 to 0.95, as Bayes's rule
    with the bot mixed with a random player gives), where before every world weighed
    alike (about 1/3 or 2/3: only seat 1's own badge told anything)."""
    rules = rulelang.compile_source(TELLS, "tells.rules")
    for seed in range(6):
        game = rules.new_game(2, seed)
        while game.current_player() != 1 or game.attribute("played", 1) != 0:
            game.apply(game.bot_choice(None))
        game.apply(game.bot_choice(None))  # seat 2 plays its side's chip
        assert _belief_in_truth(game, 0, 1) > 0.8


def test_a_fresh_start_deals_anew_what_the_others_hold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resampled copies keep what the other players hold (their bots chose by it); a
    fresh start, where every world was rejected, must still deal it anew, or its copies
    of worlds that all failed fail alike: base Saboteur, one round, seed 121, seat 1
    searched by `ismcts:300` against the declared bots refused (NoBelief, 8,000 worlds
    tried) before its round was over. And a fresh start asks no bot (the opponent
    model): its worlds are counted against RETRY_WORK at the cost of a world without
    the model's questions, which bounds a decision's CPU (one took 0.996 s with them)."""
    fresh = {"starts": 0, "asked": 0, "asked_before": 0}
    start_again, kept_by_bot = belief._start_again, belief._kept_by_bot

    def counted_start(b: belief.Belief, game: Game) -> None:
        fresh["starts"] += 1
        fresh["asked_before"] = fresh["asked"]
        start_again(b, game)
        assert fresh["asked"] == fresh["asked_before"], "a fresh start asked a bot"

    def counted_ask(q: Game) -> object:
        fresh["asked"] += 1
        return kept_by_bot(q)

    monkeypatch.setattr(belief, "_start_again", counted_start)
    monkeypatch.setattr(belief, "_kept_by_bot", counted_ask)
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    game = rules.new_game(4, 121, {"rounds": "1"})
    while not game.is_over():
        name = "ismcts:300" if game.current_player() == 0 else "dwarf"
        game.apply(bot_action(game, name))
    assert game.is_over()
    assert fresh["starts"] > 0 and fresh["asked"] > 0  # the model is asked elsewhere

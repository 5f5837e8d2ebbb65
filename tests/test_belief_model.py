"""The belief's opponent model (docs/bots.md, "What a search bot does not see"):
another player's secret choice is weighed, in each world, by how likely that
player's declared bot was to make it there, so the worlds come to believe what the
players' choices tell (a hidden side that the bot's card betrays)."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang import Ruleset
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


def _after_the_tell(rules: Ruleset, seed: int) -> float:
    """The weight seat 1's worlds give seat 2's true side once seat 2 played a chip."""
    game = rules.new_game(2, seed)
    while game.current_player() != 1 or game.attribute("played", 1) != 0:
        game.apply(game.bot_choice(None))
    game.apply(game.bot_choice(None))  # seat 2 plays its side's chip
    return _belief_in_truth(game, 0, 1)


def test_a_secret_choice_weighs_the_worlds_by_what_the_players_bot_would_choose(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 2's bot plays the chip of its hidden side first: once seen, the worlds
    where its side is that colour weigh more than without the model (a random player,
    RANDOM_SHARE 1: only seat 1's own badge tells anything), as Bayes's rule with the
    bot mixed with a random player gives; never less."""
    rules = rulelang.compile_source(TELLS, "tells.rules")
    modelled = [_after_the_tell(rules, seed) for seed in range(6)]
    monkeypatch.setattr(belief, "RANDOM_SHARE", 1.0)
    plain = [_after_the_tell(rules, seed) for seed in range(6)]
    assert all(m >= p for m, p in zip(modelled, plain, strict=True)), (modelled, plain)
    assert sum(m > p + 0.05 for m, p in zip(modelled, plain, strict=True)) >= 4, (modelled, plain)


def test_a_fresh_start_asks_no_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh start of the belief (every world rejected) weighs no choice by the
    opponent model: its worlds are counted against RETRY_WORK at the cost of a world
    without the model's questions to the bots (about 0.17 ms each, up to 8 a world),
    which bounds a decision's CPU (one took 0.996 s with them). Base Saboteur, one
    round, the declared bots: seat 1's belief after 40 decisions, started again."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    game = rules.new_game(4, 121, {"rounds": "1"})
    for _ in range(40):
        game.apply(bot_action(game, "dwarf"))
    b = belief.current(game, 0)
    assert b.marks, "no hidden event to start again from"
    asked = []
    kept_by_bot = belief._kept_by_bot
    monkeypatch.setattr(belief, "_kept_by_bot", lambda q: asked.append(1) or kept_by_bot(q))
    tried = b.tried
    belief._start_again(b, game)
    assert b.tried > tried  # it started again, and took the events since
    assert not asked

"""Shared by the tests of rulelang.interop: the shipped rulesets with a player count,
and a small game that ends quickly, with a secret hand and a die."""

from __future__ import annotations

from pathlib import Path

from rulelang import Ruleset

ROOT = Path(__file__).resolve().parent.parent
# every shipped game, whatever is added to rulesets/ later
SHIPPED = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").rglob("*.rules"))


def table_size(ruleset: Ruleset) -> int:
    """Four players where the game allows it, else the nearest count it allows."""
    return max(ruleset.min_players, min(4, ruleset.max_players))


# Each player holds two secret cards; on a turn a die is rolled and a card played.
DUEL = """
game "Duel"
players 2..3
import dice

card number count 6 {
  name: text = "card {index + 1}"
  points: int = index + 1
}
zone deck: number visible to none
zone hand: number per player visible to owner
zone table: number visible to all
player { score: int = 0 }

setup {
  add pieces(number) to deck
  shuffle deck
  deal 2 from deck to hand
}

turn {
  roll bonus = d6
  choose c in hand[current] prompt "Play which card? (bonus {bonus})"
  move c from hand[current] to table
  set current.score += c.points + bonus
}

end when all(len(hand[p]) == 0 for p in players) {
  let best = max(p.score for p in players)
  win [p for p in players where p.score == best]
}
"""

"""A belief follows a game that deals unseen items into sight and tells them in a line
(`say "On sale: {market}"`): the world's items are swapped in before the event, so that
its line names what the seat read. Before, they were swapped in after it, the line
still named the world's own draws, and every world was rejected: the search bots
refused such games ("found no world that fits what its seat saw", in every game of an
auction game written from the docs)."""

from __future__ import annotations

import random

import pytest

import rulelang
from rulelang.runtime import belief

# Properties and cheques are numbered per kind (property 3 and cheque 3 are both item 3):
# a swap must look for its items among the zones of their own kind.
MARKET = """game "Market"
players 2..3
card property count 40 { value: int = index + 1 }
card cheque count 40 { worth: int = index / 2 }
zone deck: property visible to none
zone market: property
zone owned: property per player visible to owner
zone cheques: cheque visible to none
zone paid: cheque per player visible to owner
setup {
  add pieces(property) to deck
  shuffle deck
  add pieces(cheque) to cheques
  shuffle cheques
}
turn {
  if len(market) == 0 {
    repeat 4 { move last(deck) from deck to market }
    say "On sale: {[c.value for c in market by c.value]}"
  }
  choose c in market prompt "Take which?"
  move c from market to owned[current]
  move last(cheques) from cheques to paid[current]
  say "{current} is paid {first(paid[current]).worth}"
}
end when len(deck) == 0 and len(market) == 0 { win players }
"""


@pytest.fixture(scope="module")
def market() -> rulelang.Ruleset:
    return rulelang.compile_source(MARKET, "market.rules")


def play(rules: rulelang.Ruleset, seed: int) -> tuple[int, int] | None:
    """The first (decision, seat) of a game at which determinize(seat) failed, if any."""
    game = rules.new_game(2, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not game.is_over():
        for seat in (0, 1):
            try:
                world = game.determinize(seat, random.Random(n))
            except belief.NoBelief:
                return (n, seat)
            assert world.view(seat) == game.view(seat)  # what the seat saw, and no more
        game.apply(rng.choice(game.legal_actions()))
        n += 1
    return None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_market_told_in_a_line_is_believed_all_game(market: rulelang.Ruleset, seed: int) -> None:
    assert play(market, seed) is None


def test_the_world_is_drawn_again_not_copied(market: rulelang.Ruleset) -> None:
    """The items the seat never saw are not the truth's: across worlds the rest of the
    deck differs (they are swapped in only where the seat saw them)."""
    game = market.new_game(2, seed=4)
    game.apply(game.legal_actions()[0])
    decks = {
        tuple(game.determinize(0, random.Random(i)).view(None)["zones"]["deck"]) for i in range(6)
    }
    assert len(decks) > 1


def test_without_the_swap_before_the_worlds_are_rejected(
    market: rulelang.Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the test above rests on: with the items swapped in after the event only
    (as before), the line names other items and the search finds no world."""
    monkeypatch.setattr(belief, "_shown_before", lambda *args: None)
    assert play(market, 1) is not None

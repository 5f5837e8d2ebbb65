"""`detach` reads the hinted place in place (runtime/helpers.py: the zone's index found
in one scan, a board's cell read from its layer, no call of `_take` or `cell_of`), and
the zones an item of a kind may be in are kept per player count (`Places.zones`).
Shown: a good hint takes the item from where it lies, a stale one (another zone, a
slot past the zones, a board that no longer holds it) falls back to the search."""

from __future__ import annotations

import pytest
from test_reveal_to import PEEK

import rulelang
from rulelang import Ruleset
from rulelang.runtime import helpers, hints


@pytest.fixture(scope="module")
def peek() -> Ruleset:
    return rulelang.compile_source(PEEK)


def _places(rules: Ruleset) -> list[helpers.Places]:
    env = rules.code.ops[0].__globals__
    return [v for v in env.values() if isinstance(v, helpers.Places)]


@pytest.mark.parametrize("stale", [None, 1, 10_000, -1])
def test_detach_takes_the_item_where_it_lies_whatever_the_hint(
    peek: Ruleset, stale: int | None
) -> None:
    game = peek.new_game(2, seed=4)
    st = game.state
    coin = game.items("bag")[-1]
    places = next(p for p in _places(peek) if hints.of(p.hint, coin) is not None)
    bag = hints.of(places.hint, coin)
    assert bag is not None
    before = st.zones[bag]
    if stale is not None:
        places.hint[coin] = bag + stale if stale > 0 else stale  # another zone, none, a board
    try:
        helpers.detach(st, coin, places)
    finally:
        places.hint[coin] = bag
    assert st.zones[bag] == tuple(x for x in before if x != coin)
    assert coin not in sum(st.zones, ())


def test_the_zones_of_a_kind_are_kept_per_player_count(peek: Ruleset) -> None:
    places = _places(peek)[0]
    places.zones.clear()
    want = (*places.slots, *(s for b in places.player_slots for s in range(b, b + 3)))
    assert helpers._zones_of(places, 3) == want
    assert places.zones == {3: want}

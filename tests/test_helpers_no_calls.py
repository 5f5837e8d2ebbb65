"""`detach` (a good zone hint), `deal` and `add_from` run without a Python call
(runtime/helpers.py: the index read and the hints written in place, not by `_index`
and `_hint`), and still do what they did: the items moved in order, each hinted to
where it went."""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest
from test_reveal_to import PEEK

import rulelang
from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.runtime import helpers
from rulelang.runtime.state import State


@pytest.fixture(scope="module")
def peek() -> Ruleset:
    return rulelang.compile_source(PEEK)


def _calls(fn: Callable[[], None]) -> list[str]:
    """The Python functions the one that `fn` (a lambda) calls calls in turn."""
    seen: list[str] = []

    def profile(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "call":
            seen.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return seen[2:]


def _setup(rules: Ruleset) -> tuple[State, helpers.Places, int, int]:
    """A game, the coins' places, and the slots of the bag and the first purse."""
    st = rules.new_game(2, seed=4).state
    env = rules.code.ops[0].__globals__
    places = next(v for v in env.values() if isinstance(v, helpers.Places))
    bag = places.hint[st.zones[places.slots[0]][0]]
    return st, places, bag, places.player_slots[0]


def test_detach_with_a_good_hint_calls_nothing(peek: Ruleset) -> None:
    st, places, bag, _purse = _setup(peek)
    before = st.zones[bag]
    coin = before[3]
    assert _calls(lambda: helpers.detach(st, coin, places)) == []
    assert st.zones[bag] == before[:3] + before[4:]


def test_a_stale_zone_hint_falls_back_to_the_search(peek: Ruleset) -> None:
    st, places, bag, purse = _setup(peek)
    coin = st.zones[bag][0]
    places.hint[coin] = purse  # an empty zone: the item is not there
    helpers.detach(st, coin, places)
    assert coin not in sum(st.zones, ()) and places.hint[coin] == bag


def test_deal_hints_each_share_to_its_player_in_place(peek: Ruleset) -> None:
    st, places, bag, purse = _setup(peek)
    pile = st.zones[bag]
    # the top coin was shown to the player to move (`reveal`): its record, no `_hint`
    assert _calls(lambda: helpers.deal(st, 2, bag, purse, places)) == ["left"]
    assert st.zones[purse] == (pile[-1], pile[-2]) and st.zones[purse + 1] == (pile[-3], pile[-4])
    assert st.zones[bag] == pile[:-4]
    assert [places.hint[c] for c in pile[-4:]] == [purse + 1] * 2 + [purse] * 2


def test_add_from_hints_the_items_in_place(peek: Ruleset) -> None:
    st, places, bag, purse = _setup(peek)
    pile = st.zones[bag]
    some = (pile[1], pile[5])
    # `_without` filters the zone in C; no `_hint`
    assert _calls(lambda: helpers.add_from(st, some, bag, purse, places)) == ["_without"]
    assert st.zones[purse] == some and st.zones[bag] == tuple(c for c in pile if c not in some)
    assert places.hint[pile[1]] == places.hint[pile[5]] == purse


@pytest.mark.parametrize("n", [1, 2, 6, 40])
def test_an_item_taken_out_leaves_the_others_in_order(n: int) -> None:
    zone = tuple(range(100, 100 + n))
    for i, item in enumerate(zone):
        assert helpers._less(zone, item) == zone[:i] + zone[i + 1 :]
    with pytest.raises(ValueError):
        helpers._less(zone, 99)


def test_move_takes_an_item_from_under_the_top_and_refuses_one_not_there(peek: Ruleset) -> None:
    st, places, bag, purse = _setup(peek)
    pile = st.zones[bag]
    span = Span("t.rules", 1, 1)
    assert _calls(lambda: helpers.move(st, pile[2], bag, purse, span, "bag", places)) == []
    assert st.zones[bag] == pile[:2] + pile[3:] and st.zones[purse] == (pile[2],)
    assert places.hint[pile[2]] == purse
    with pytest.raises(GameRuntimeError, match="not in zone 'bag'"):
        helpers.move(st, pile[2], bag, purse, span, "bag", places)

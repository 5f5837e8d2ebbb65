"""A deal takes every share from the pile it read and leaves the pile's rest once
(runtime/helpers.py `deal`, switch `helpers.DEAL_ONCE`), not a copy of the pile after
each player's share. Shown firing, dealing exactly what the deal player by player
dealt (shares, the pile left, hints, the records of items shown), staying off where
the pile is itself a zone dealt to, and playing the same games with the switch off."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_helpers_no_calls import _setup
from test_reveal_to import PEEK

import rulelang
from rulelang.runtime import helpers, hints

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


class Spied(list):  # type: ignore[type-arg]
    """`State.zones`, counting the writes of each slot."""

    def __init__(self, zones: list[Any]) -> None:
        super().__init__(zones)
        self.writes: list[int] = []

    def __setitem__(self, slot: Any, value: Any) -> None:
        self.writes.append(slot)
        super().__setitem__(slot, value)


def dealt(on: bool, count: int, src_of: str, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, ...]:
    """What `deal` leaves of a game of PEEK (its top coin shown to a player): the
    zones, the hints and the records of items shown; and the writes of each slot."""
    monkeypatch.setattr(helpers, "DEAL_ONCE", on)
    rules = rulelang.compile_source(PEEK)
    st, places, bag, purse = _setup(rules)
    src = bag if src_of == "bag" else purse + 1  # the second purse: a zone dealt to
    if src_of != "bag":
        st.zones[src] = st.zones[bag]
    st.zones = Spied(st.zones)
    helpers.deal(st, count, src, purse, places)
    known = hints.known(places.hint)
    return list(st.zones), known, st.shown, st.zones.writes.count(src)


@pytest.mark.parametrize("count", [-1, 0, 1, 2, 5, 6, 9])
def test_a_deal_gives_what_it_gave_player_by_player(
    monkeypatch: pytest.MonkeyPatch, count: int
) -> None:
    *once, writes = dealt(True, count, "bag", monkeypatch)
    *each, before = dealt(False, count, "bag", monkeypatch)
    assert once == each
    assert writes == 1  # the pile's rest left once
    assert before == (2 if count > 0 else 0)  # off: after each of the two shares
    if count == 2:  # the top coin (shown before) left the bag: its record
        assert once[2] is not None and once[2][:3][0] is None


def test_a_pile_that_is_dealt_to_is_dealt_player_by_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    *on, writes = dealt(True, 2, "purse", monkeypatch)
    *off, _ = dealt(False, 2, "purse", monkeypatch)
    assert on == off
    assert writes == 3  # the pile sliced after the first share, then dealt to itself


@pytest.mark.parametrize("players", [3, 10])
def test_games_are_the_same_with_the_switch_off(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    rules = rulelang.compile_file(SABOTEUR)

    def play() -> list[object]:
        out = []
        for seed in range(3):
            game = rules.new_game(players, seed)
            game.playout(random.Random(seed))
            out.append((game.history(None), game.results()))
        return out

    on = play()
    monkeypatch.setattr(helpers, "DEAL_ONCE", False)
    assert play() == on

"""A round's reset of a card game, asked at once (runtime/helpers.py, issue 21):

- `helpers.SHOWN_AT_ONCE`: `add` of a zone's items and `deal` ask whether one of the
  items was shown before (`reveal ... to`) of the whole zone or share, in C, before the
  loop that records each shown item leaving (`left`).
- `helpers.TAKE_AT_ONCE`: `add` of many items takes those lying on a tiled board off
  it in one call (`TileOps.take`), not two calls per tile (and a round's reset gives
  every tile back by one `add`: gathered.py).

Shown firing, leaving the same zones, hints, boards and records as item by item, and
Saboteur playing the same games with the switches (and sifted.py's and
gathered.py's) off."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_helpers_no_calls import _setup
from test_reveal_to import PEEK

import rulelang
from rulelang.runtime import gathered, helpers, hints, sifted
from rulelang.runtime.state import State
from rulelang.runtime.tiles import TileOps

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


class Counted(frozenset):  # type: ignore[type-arg]
    """`State.shown_items`, counting the items asked of it one by one."""

    asked = 0

    def __contains__(self, item: object) -> bool:
        Counted.asked += 1
        return super().__contains__(item)


@pytest.mark.parametrize("on", [True, False])
def test_a_zone_with_no_item_shown_is_passed_at_once(
    monkeypatch: pytest.MonkeyPatch, on: bool
) -> None:
    monkeypatch.setattr(helpers, "SHOWN_AT_ONCE", on)
    st, places, bag, purse = _setup(rulelang.compile_source(PEEK))
    assert st.zones[bag][-1] in st.shown_items  # the turn began by showing the top coin
    st.shown_items = Counted(st.shown_items)
    Counted.asked = 0
    helpers.add_from(st, st.zones[bag][:5], bag, purse, places)  # not the top coin
    assert Counted.asked == (0 if on else 5)  # off: each coin that leaves
    Counted.asked = 0
    helpers.deal(st, 2, bag, purse, places)
    # the first share (the top coin's) asked coin by coin, and by `left`; the second,
    # none of whose coins was shown, at once
    assert Counted.asked == (3 if on else 5)


@pytest.mark.parametrize("whole", [True, False])
def test_add_from_records_what_it_recorded_item_by_item(
    monkeypatch: pytest.MonkeyPatch, whole: bool
) -> None:
    def gathered(on: bool) -> tuple[object, ...]:
        monkeypatch.setattr(helpers, "SHOWN_AT_ONCE", on)
        st, places, bag, purse = _setup(rulelang.compile_source(PEEK))
        zone = st.zones[bag]
        items = zone if whole else zone[1:]  # with the shown top coin both ways
        helpers.add_from(st, items, bag, purse, places)
        first = st.shown
        helpers.add_from(st, st.zones[purse][:2], purse, bag, places)  # none shown
        return tuple(st.zones), hints.known(places.hint), first, st.shown

    on, off = gathered(True), gathered(False)
    assert on == off
    assert on[2] is not None and on[2][:3][0] is None  # the top coin's `left` record


def _tiles_state(rules: rulelang.Ruleset) -> State:
    """A Saboteur position with tunnels laid and a goal a player was shown (a map)."""
    for seed in range(200):
        game = rules.new_game(3, seed)
        game.playout(random.Random(seed), max_decisions=120)
        st = game.state
        on_board = [cell[0] for cell in st.layers[0].values()]
        if len(on_board) > 6 and any(t in st.shown_items for t in on_board):
            return st
    raise AssertionError("no position with a shown tile")


def test_many_tiles_are_taken_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rulelang.compile_file(SABOTEUR)
    start = _tiles_state(rules)
    env = rules.code.ops[0].__globals__
    places = next(v for v in env.values() if isinstance(v, helpers.Places) and v.boards)
    box = places.slots[0]
    taken: list[int] = []
    monkeypatch.setattr(TileOps, "take", _counting(taken))

    def gathered(on: bool) -> tuple[object, ...]:
        monkeypatch.setattr(helpers, "TAKE_AT_ONCE", on)
        st = start.clone()
        items = [st.layers[0][s][0] for s in sorted(st.layers[0])] + list(st.zones[box + 1][:2])
        helpers.add(st, items, box, places)
        return tuple(st.zones), st.layers, st.reach, st.shown, hints.known(places.hint)

    on = gathered(True)
    assert taken == [1]  # one call for every tile
    assert on == gathered(False) and taken == [1]
    assert on[1] == [{}, {}] and on[2] == {}  # the board cleared, its networks dropped
    assert on[3] is not start.shown  # the shown goal's record of leaving the board


def _counting(taken: list[int]):  # type: ignore[no-untyped-def]
    real = TileOps.take

    def take(self, st, items):  # type: ignore[no-untyped-def]
        taken.append(1)
        return real(self, st, items)

    return take


@pytest.mark.parametrize("players", [3, 8])
def test_games_are_the_same_with_the_switches_off(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    def play() -> list[object]:
        rules = rulelang.compile_file(SABOTEUR)
        out = []
        for seed in range(3):
            game = rules.new_game(players, seed)
            game.playout(random.Random(seed))
            out.append((game.history(None), game.results(), game.state.shown))
        return out

    on = play()
    monkeypatch.setattr(helpers, "SHOWN_AT_ONCE", False)
    monkeypatch.setattr(helpers, "TAKE_AT_ONCE", False)
    monkeypatch.setattr(sifted, "SIFTED", False)
    monkeypatch.setattr(gathered, "GATHERED", False)
    assert play() == on

"""`State.shown` records an item leaving a place only where the item was shown to
someone before (`reveal ... to`): a record for an item nobody was shown voids nothing
(state.known_places), and every card moved in a game wrote one (issue 21, item 1: about
2% of a random Saboteur match). What each seat knows stays the same: the answer is
checked against the whole history read as it was first written, with a record for
every move (tests/test_known_kept.py's `plain_known`)."""

from __future__ import annotations

import random
from typing import Any

import rulelang
from rulelang.runtime.state import State, known_places, known_records
from tests.interop_support import ROOT
from tests.test_known_kept import plain_known, play


def left_records(st: State) -> list[tuple[Any, Any, Any]]:
    return [r for r in known_records(st.shown) if r[0] is None and r[2] is not None]


def shown_before(st: State) -> list[bool]:
    """For each record of an item leaving a place (oldest first): was that item shown
    to someone by an older record?"""
    seen: set[object] = set()
    out = []
    for audience, _place, item in reversed(list(known_records(st.shown))):
        if audience is not None:
            seen.add(item)
        elif item is not None:
            out.append(item in seen)
    return out


def test_only_an_item_shown_before_leaves_a_record() -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    rng = random.Random(3)
    records = 0
    for seed in range(4):
        game = rules.new_game(5, seed=seed)
        play(game, rng, 400)
        st = game.state
        assert all(shown_before(st))
        records += len(left_records(st))
    assert records > 0  # goal cards that were shown came and went


def test_what_each_seat_was_shown_is_the_same() -> None:
    """The same games played by the API, the plain history read at every step."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    rng = random.Random(11)
    known = 0
    for seed in range(3):
        game = rules.new_game(4, seed=seed)
        others = []
        for step in range(50):
            play(game, rng, 6)
            if step % 12 == 5:
                others.append(game.clone())
            for other in others:
                play(other, rng, 2)
            for g in (game, *others):
                for seat in range(4):
                    assert known_places(g.state, seat) == plain_known(g.state, seat)
                    known += bool(plain_known(g.state, seat))
    assert known > 20

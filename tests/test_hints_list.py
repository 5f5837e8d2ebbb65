"""Where items lie kept as a list indexed by item (runtime/hints.py, switch
`hints.LIST`), not a dict keyed by it. Shown firing (a list, grown as items come), an
item the list does not reach keeping no hint and still found, a stale hint still
costing a search and not a wrong answer, and the same games with the switch off."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_reveal_to import PEEK

import rulelang
from rulelang.runtime import helpers, hints

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


def places_of(rules: rulelang.Ruleset) -> list[helpers.Places]:
    env = rules.code.ops[0].__globals__
    return [v for v in env.values() if isinstance(v, helpers.Places)]


def test_hints_are_a_list_grown_to_the_items_written() -> None:
    places = helpers.Places((0, 1), (2,), ())
    assert places.hint == []
    helpers._hint(places, (3, 1), 1)
    assert places.hint == [hints.NONE, 1, hints.NONE, 1]
    helpers._hint(places, (9,), 0)  # grown at least twice over: few growths for many items
    assert len(places.hint) == 10 and hints.known(places.hint) == {1: 1, 3: 1, 9: 0}
    assert hints.of(places.hint, 9) == 0 and hints.of(places.hint, 2) is None


def test_an_item_the_list_does_not_reach_keeps_no_hint_and_is_found() -> None:
    places = helpers.Places((0, 1), (), ())
    hints.put(places.hint, "a text", 1)
    hints.put(places.hint, hints.ROOM, 1)
    assert places.hint == [] and hints.of(places.hint, "a text") is None

    class St:  # the two zones of a state, enough for `detach`
        zones = [(), ("a text", 5)]
        shown = None
        cfg = type("Cfg", (), {"n": 2})()

    st = St()
    helpers.detach(st, "a text", places)  # type: ignore[arg-type]
    assert st.zones == [(), (5,)]


def test_a_stale_hint_still_costs_a_search_not_a_wrong_answer() -> None:
    rules = rulelang.compile_source(PEEK)
    game = rules.new_game(2, seed=4)
    coin = game.items("bag")[-1]
    places = next(p for p in places_of(rules) if hints.of(p.hint, coin) is not None)
    bag = hints.of(places.hint, coin)
    assert bag is not None and isinstance(places.hint, list)  # fired: a list
    places.hint[coin] = bag + 1  # wrong: another zone of the kind
    before = game.state.zones[bag]
    helpers.detach(game.state, coin, places)
    assert game.state.zones[bag] == tuple(x for x in before if x != coin)
    assert hints.of(places.hint, coin) == bag  # the search found it, and noted where


def played(source: str | Path, players: int) -> list[object]:
    rules = (
        rulelang.compile_file(source)
        if isinstance(source, Path)
        else (rulelang.compile_source(source))
    )
    kinds = {type(p.hint) for p in places_of(rules)}
    assert kinds == {list if hints.LIST else dict}
    out = []
    for seed in range(4):
        game = rules.new_game(players, seed)
        game.playout(random.Random(seed))
        out.append((game.history(None), game.results()))
    return out


@pytest.mark.parametrize(("source", "players"), [(SABOTEUR, 3), (SABOTEUR, 9), (PEEK, 2)])
def test_the_same_games_with_hints_in_a_dict(
    monkeypatch: pytest.MonkeyPatch, source: str | Path, players: int
) -> None:
    listed = played(source, players)
    monkeypatch.setattr(hints, "LIST", False)
    assert played(source, players) == listed

"""Where items lie, kept in `Places.hint` (runtime/helpers.py): `reveal ... to` asks an
item's hint before searching every zone of its kind (`helpers.HINTED`), and the hints
of many items are written one by one (`helpers.HINT_LOOP`). Each is shown firing,
falling back where the hint is stale, and playing the very games (records, results and
every seat's view) of the code without it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_reveal_to import PEEK

import rulelang
from rulelang import Ruleset
from rulelang.runtime import helpers, hints

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


@pytest.fixture(scope="module")
def peek() -> Ruleset:
    return rulelang.compile_source(PEEK)


@pytest.fixture(scope="module")
def saboteur() -> Ruleset:
    return rulelang.compile_file(SABOTEUR)


def switched(name: str) -> Iterator[bool]:
    was = getattr(helpers, name)
    try:
        for on in (True, False):
            setattr(helpers, name, on)
            yield on
    finally:
        setattr(helpers, name, was)


def played(rules: Ruleset, players: int, seed: int) -> tuple[object, ...]:
    game = rules.new_game(players, seed)
    game.playout(random.Random(seed), max_decisions=5000)
    views = [game.view(p) for p in (rulelang.PUBLIC, *range(players))]
    return (game.record(), game.results(), views)


def counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(helpers, name)

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(helpers, name, counted)
    return calls


# ---------------------------------------------------------------- reveal asks the hint
def test_a_reveal_asks_the_hint_and_searches_no_zone(
    peek: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    searched = counting(monkeypatch, "_search")
    for on in switched("HINTED"):
        searched.clear()
        played(peek, 2, 3)
        assert (searched == []) == on  # 12 reveals a game, each a search when off
        assert on or len(searched) >= 12


def test_a_stale_hint_falls_back_to_the_search(peek: Ruleset) -> None:
    """A hint naming a zone the item is not in (a clone, an edit or a redeal may have
    moved it without a word) is not trusted: the search finds it where it is."""
    game = peek.new_game(2, seed=4)
    st = game.state
    coin = game.items("bag")[-1]
    places = next(p for p in _places(peek) if hints.of(p.hint, coin) is not None)
    bag = hints.of(places.hint, coin)
    assert bag is not None
    places.hint[coin] = bag + 1  # wrong: another zone of the kind
    try:
        assert helpers._hinted(st, coin, places) is None
        assert helpers._search(st, coin, places) == ("zone", bag)
        places.hint[coin] = bag
        assert helpers._hinted(st, coin, places) == ("zone", bag)
    finally:
        places.hint[coin] = bag


def _places(rules: Ruleset) -> list[helpers.Places]:
    env = rules.code.ops[0].__globals__
    return [v for v in env.values() if isinstance(v, helpers.Places)]


def test_a_tile_revealed_on_a_board_is_found_by_its_hint(
    saboteur: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A map card shows a face-down goal on the maze: its hint names the board, so no
    zone is searched (before, every zone of its kind was scanned first)."""
    searched = counting(monkeypatch, "_search")
    revealed = counting(monkeypatch, "_hinted")
    for seed in range(1, 4):
        played(saboteur, 5, seed)
    assert revealed and not searched


def test_the_same_games_with_and_without_the_hint(peek: Ruleset, saboteur: Ruleset) -> None:
    for rules, players in ((peek, 2), (saboteur, 3), (saboteur, 6)):
        games = []
        for _on in switched("HINTED"):
            games.append([played(rules, players, seed) for seed in range(1, 4)])
        assert games[0] == games[1]


# ---------------------------------------------------------------- many hints written
def test_hints_written_one_by_one_are_the_dict_of_the_old_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same hints in the same order, an item named twice included (hints kept in a
    dict, `hints.LIST` off: the list has no order of writing to compare)."""
    monkeypatch.setattr(hints, "LIST", False)
    made = []
    for _on in switched("HINT_LOOP"):
        places = helpers.Places((0, 1), (2,), ())
        places.hint.update({5: 0, 7: 1})
        helpers._hint(places, (7, 8, 9, 8, 5), 2)
        made.append(list(places.hint.items()))
    assert made[0] == made[1] == [(5, 2), (7, 2), (8, 2), (9, 2)]


def test_a_deal_and_a_gathering_write_hints_and_play_the_same_games(
    saboteur: Ruleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    hinted = counting(monkeypatch, "_hint")
    games = []
    for _on in switched("HINT_LOOP"):
        games.append([played(saboteur, 4, seed) for seed in (1, 2)])
    assert games[0] == games[1]
    assert len(hinted) > 20  # deals and each round's reset, both ways

"""A choice whose option sets seldom come again is kept by value only (runtime/engine.py,
`BY_VALUE`), and kept texts are read by subscript (`SUBSCRIPT`): the actions offered,
their texts, the records and the results stay those of every choice kept by set."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang.runtime import engine
from rulelang.runtime.state import BY_PC

ROOT = Path(__file__).resolve().parent.parent
HAND = ROOT / "rulesets" / "saboteur.rules"  # a hand that changes by a card each turn


def played(rules: Any, players: int, seed: int, quiet: bool = False) -> list[Any]:
    """Each decision's actions (values and texts), then the record and the results."""
    game = rules.new_game(players, seed, quiet=quiet)
    rng = random.Random(seed)
    seen: list[Any] = []
    while not game.is_over():
        if game.current_player() == rulelang.CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        spec = game.state.pending
        assert [a.text for a in actions] == [
            "pass" if v is None else spec.show(game.state, v) for v in game.state.options
        ]
        seen.append([(a.value, a.text) for a in actions])
        game.apply(actions[int(rng.random() * len(actions))])
    seen.append(None if quiet else game.record())
    seen.append(game.results())
    return seen


@pytest.fixture
def switches(monkeypatch: pytest.MonkeyPatch) -> Any:
    def set_to(by_value: bool, subscript: bool) -> None:
        monkeypatch.setattr(engine, "BY_VALUE", by_value)
        monkeypatch.setattr(engine, "SUBSCRIPT", subscript)

    return set_to


def test_a_churning_choice_is_kept_by_value_and_the_table_is_not_reset(switches: Any) -> None:
    """The hand's sets fill the table's bound (KEPT_ACTIONS) every few matches, which
    throws away every choice's kept actions; kept by value, they do not (without
    BY_VALUE the table is reset: the test's other half)."""
    for on in (True, False):
        switches(on, on)
        rules = rulelang.compile_file(HAND)
        tables = set()
        for seed in range(12):
            game = rules.new_game(3, seed)
            played(rules, 3, seed)
            tables.add(id(game.state.cfg.actions))
        by_pc = game.state.cfg.actions[BY_PC]
        by_value = [pc for pc in rules.code.choices if by_pc[pc] is None]
        if on:
            assert len(tables) == 1  # one table's kept actions throughout
            assert by_value  # the hand's choice (at least) kept by value
            assert len(by_value) < len(rules.code.choices)  # not every choice
        else:
            assert len(tables) > 1 and not by_value


PICK = """
game "t"
players 3..3
turn {
  choose p in players prompt "Whom?"
  choose n in 1..3 prompt "How many?"
}
end when turn_number > 400 { draw players }
"""


def test_a_choice_whose_sets_come_again_stays_kept_by_set() -> None:
    """A guard: 400 turns of the same few sets keep them by set (a dict each)."""
    rules = rulelang.compile_source(PICK, "t.rules")
    game = rules.new_game(3, seed=1)
    while not game.is_over():
        game.apply(game.legal_actions()[game.state.turn % 2])
    assert all(game.state.cfg.actions[BY_PC][pc] for pc in rules.code.choices)


@pytest.mark.parametrize("players", [3, 5, 10])
def test_the_games_are_those_of_every_choice_kept_by_set(switches: Any, players: int) -> None:
    """The same seeds and picks, each switch off and on, loud and quiet: the same actions
    at every decision, the same texts, records and results."""
    games = {}
    for on in (False, True):
        switches(on, on)
        rules = rulelang.compile_file(HAND)
        for i in range(12):
            rules.new_game(players, 100 + i).playout(random.Random(i), quiet=True)
        games[on] = [played(rules, players, seed, quiet=seed % 3 == 0) for seed in range(10)]
    assert games[True] == games[False]


def test_texts_seen_before_are_read_without_making_any(
    switches: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SUBSCRIPT, `_made` (the loop that makes a new value's text) runs only where
    a value is new, not at every decision kept by value (off: at every one)."""
    made = []
    plain = engine._made

    def counted(*args: Any) -> Any:
        made.append(1)
        return plain(*args)

    monkeypatch.setattr(engine, "_made", counted)
    calls = {}
    for subscript in (True, False):
        switches(True, subscript)
        rules = rulelang.compile_file(HAND)
        for seed in range(3):  # the hand's choice kept by value from the second match
            played(rules, 3, seed)
        made.clear()
        decisions = sum(len(played(rules, 3, seed)) - 2 for seed in range(3, 6))
        calls[subscript] = len(made)
    assert calls[True] < decisions / 10 < decisions / 3 < calls[False]

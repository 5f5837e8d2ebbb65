"""The API's own calls made cheaper (runtime/engine.py): a choice's kept option sets
read by subscript (`SETS_BY_SUBSCRIPT`), and `apply` reading what it needs to run on
after a resume only where the resume does not pause (`_onward`). Each must play the
same games, texts and records as before, for every shipped rule file and example."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from conftest import sample
from test_api_resume import RULESETS, played

import rulelang
from rulelang.runtime import engine
from rulelang.runtime.state import BY_PC

ROOT = Path(__file__).resolve().parent.parent


class Counted(dict[Any, Any]):
    """A choice's kept sets, noting how `legal_actions` reads them."""

    reads: list[str]

    def get(self, key: Any, default: Any = None) -> Any:
        self.reads.append("get")
        return super().get(key, default)

    def __getitem__(self, key: Any) -> Any:
        self.reads.append("subscript")
        return super().__getitem__(key)


@pytest.mark.parametrize("on", [True, False])
def test_kept_sets_are_read_by_subscript(on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """On, a set kept is read by subscript, never with `.get` (off: the other way)."""
    monkeypatch.setattr(engine, "SETS_BY_SUBSCRIPT", on)
    rules = rulelang.compile_file(ROOT / "rulesets" / "heimlich.rules")
    game = rules.new_game(4, seed=2)
    game.legal_actions()  # the table's kept sets made
    by_pc = game.state.cfg.actions[BY_PC]
    reads: list[str] = []
    for pc in rules.code.choices:
        if by_pc[pc] is not None:
            by_pc[pc] = Counted(by_pc[pc])
            by_pc[pc].reads = reads
    rng = random.Random(2)
    while not game.is_over():
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
    assert reads and set(reads) == {"subscript" if on else "get"}


@pytest.mark.parametrize("name", RULESETS)
def test_the_api_plays_the_same_games_with_its_calls_made_cheaper(
    name: str, full: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each shipped rule file and example, the switch off and on: the same actions at
    each decision, the same record, histories and results."""
    path = ROOT / "rulesets" / name
    games = {}
    for on in (False, True):
        monkeypatch.setattr(engine, "SETS_BY_SUBSCRIPT", on)
        rules = rulelang.compile_file(path)
        players = rules.min_players
        games[on] = [
            played(rules.new_game(players, seed), seed, sample(full, 3000, 300))
            for seed in range(1, sample(full, 6, 2) + 1)
        ]
    assert games[True] == games[False]

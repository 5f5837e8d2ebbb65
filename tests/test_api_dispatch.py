"""The API's calls in fewer steps (heimapi5): `legal_actions` tries a kept set first in
a short `try` (runtime/engine.py, `SHORT_LEGAL`), and the generated `apply` finds the
copied resume by the pending spec itself (runtime/inlined.py, `BY_SPEC`). Each must
fire where it should, keep out where it must, and play the same games, texts and
records as before for every shipped rule file and example."""

from __future__ import annotations

import dataclasses
import inspect
import random
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from conftest import sample
from test_api_inlined import calls_of_resumes, random_games
from test_api_resume import RULESETS, played

import rulelang
from rulelang import Game
from rulelang.runtime import codegen, engine, inlined

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"


def lines_run(game: Game, calls: int) -> set[int]:
    """The lines of `Game.legal_actions` run over `calls` decisions of a game."""
    code = Game.legal_actions.__code__
    seen: set[int] = set()

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code is not code:
            return None
        if event == "line":
            seen.add(frame.f_lineno)
        return tracer

    rng = random.Random(3)
    for _ in range(calls):
        sys.settrace(tracer)
        try:
            actions = game.legal_actions()
        finally:
            sys.settrace(None)
        game.apply(actions[int(rng.random() * len(actions))])
    return seen


def line_of(text: str) -> int:
    """The line of `Game.legal_actions` that holds `text` (its first)."""
    source, first = inspect.getsourcelines(Game.legal_actions)
    return first + next(i for i, line in enumerate(source) if text in line)


@pytest.mark.parametrize("on", [True, False])
def test_a_kept_set_is_answered_before_the_whole_way(
    on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On, once a table keeps Heimlich's sets, no decision goes past the short `try`
    (off: every decision takes the whole way, as before)."""
    monkeypatch.setattr(engine, "SHORT_LEGAL", on)
    rules = rulelang.compile_file(HEIMLICH)
    random_games(rules, 5)  # the table's sets kept (games of 4 share a table)
    game = rules.new_game(4, seed=11, quiet=True)
    game.legal_actions()  # (the game's own first call finds the table's kept actions)
    whole_way = line_of("spec = st.pending")
    seen = lines_run(game, 60)
    assert (whole_way not in seen) == on
    assert (line_of("return kept[st.options].copy()") in seen) == on  # the short way's
    assert not game.is_over()


def test_the_short_way_leaves_the_rest_to_the_whole_way() -> None:
    """A new game (no kept table read yet), a chance event and the end: the whole way
    answers as it did."""
    rules = rulelang.compile_file(HEIMLICH)
    game = rules.new_game(3, seed=2)
    assert game._offered is None
    first = game.legal_actions()
    assert first and game._offered is not None
    game.auto_chance = False
    while game.current_player() != engine.CHANCE and not game.is_over():
        game.apply(game.legal_actions()[0])
    assert [a.value for a in game.legal_actions()] == ["1-3", "2", "3", "4", "5", "6"]
    game.auto_chance = True
    game.playout(random.Random(1))
    assert game.is_over() and game.legal_actions() == []


@pytest.mark.parametrize("on", [True, False])
def test_the_copied_resume_is_found_by_its_spec(on: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """On, the generated `apply` tests the pending spec itself, and a spec equal to
    the choice's but not it (a reaction's twin is one) is called as another choice's
    resume is; the game goes on the same either way. Off: tested by pc, as before."""
    monkeypatch.setattr(codegen, "RUN_ON_HOT", 3)
    monkeypatch.setattr(inlined, "BY_SPEC", on)
    rules = rulelang.compile_file(HEIMLICH)
    random_games(rules, 10)
    assert set(rules.game_class.inlined) == set(rules.code.choices)  # type: ignore[attr-defined]
    source = "".join(inspect.getsourcelines(rules.game_class.apply)[0])
    assert ("spec is _spec" in source) == on and ("_at == " in source) != on
    called: list[int] = []
    calls_of_resumes(rules, called)
    games = []
    for twin in (False, True):
        game = rules.new_game(4, seed=7, quiet=True)
        rng = random.Random(7)
        for _ in range(40):
            st = game.state
            if twin:
                st.pending = dataclasses.replace(st.pending)  # equal, not the same
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
        games.append((game.state.loc[:], [c[:] for c in game.state.cols], game.results()))
        assert (len(called) == 40) == (twin and on) and (called == []) == (not twin or not on)
        called.clear()
    assert games[0] == games[1]


@pytest.mark.parametrize("name", RULESETS)
def test_the_api_plays_the_same_games_in_fewer_steps(
    name: str, full: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each shipped rule file and example, both switches off and on, its resumes
    settled by a few games first: the same actions at each decision, the same record,
    histories and results."""
    monkeypatch.setattr(codegen, "RUN_ON_HOT", 3)
    path = ROOT / "rulesets" / name
    games = {}
    for on in (False, True):
        monkeypatch.setattr(engine, "SHORT_LEGAL", on)
        monkeypatch.setattr(inlined, "BY_SPEC", on)
        rules = rulelang.compile_file(path)
        players = rules.min_players
        for seed in range(3):
            played(rules.new_game(players, 50 + seed), seed, sample(full, 3000, 300))
        games[on] = [
            played(rules.new_game(players, seed), seed, sample(full, 3000, 300))
            for seed in range(1, sample(full, 6, 2) + 1)
        ]
    assert games[True] == games[False]

"""`Game.apply` generated per rule file with each settled resume's code in it
(runtime/inlined.py, switch `INLINED`): a decision through the API runs in one frame,
not two. It must play the games, texts and records of the resumes it copies, for
every shipped rule file and example, and place errors where they placed them."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import sample
from test_api_resume import RULESETS, played

import rulelang
from rulelang import Game, Ruleset
from rulelang.diagnostics import GameRuntimeError, UsageError
from rulelang.runtime import codegen, inlined

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """Resumes settle (their last version compiled) after their first 3 calls."""
    monkeypatch.setattr(codegen, "RUN_ON_HOT", 3)


def random_games(rules: Ruleset, games: int, players: int = 4) -> None:
    rng = random.Random(games)
    for seed in range(games):
        game = rules.new_game(players, seed, quiet=True)
        while not game.is_over():
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])


def calls_of_resumes(rules: Ruleset, called: list[int]) -> None:
    """Each generated resume notes its pc in `called` when it is called."""
    for pc, resume in enumerate(rules.code.resumes):
        if resume is not None:

            def noted(st: object, spec: object, value: object, resume=resume, pc=pc) -> int:  # type: ignore[no-untyped-def]
                called.append(pc)
                return resume(st, spec, value)  # type: ignore[no-any-return]

            rules.code.resumes[pc] = noted


@pytest.mark.parametrize("on", [True, False])
def test_settled_resumes_run_inside_apply(
    soon: None, on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once Heimlich's resumes settle, `apply` is the rule file's own and calls none of
    them (off: Game.apply, which calls them at every decision)."""
    monkeypatch.setattr(inlined, "INLINED", on)
    rules = rulelang.compile_file(ROOT / "rulesets" / "heimlich.rules")
    random_games(rules, 10)
    assert set(rules.code.settled) == set(rules.code.choices)
    called: list[int] = []
    calls_of_resumes(rules, called)
    random_games(rules, 3)
    assert (rules.game_class.apply is not Game.apply) == on
    assert (called == []) == on


def test_a_resume_not_settled_or_not_generated_is_not_copied(soon: None) -> None:
    """Saboteur's choices with a line for the others have no generated resume: `apply`
    holds the code of the others only, before any settles it is Game.apply, and it
    holds the first `MOST` to settle (a rarer one settling later is left to its resume,
    which the generated `apply` calls)."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    assert rules.game_class.apply is Game.apply
    random_games(rules, 6, players=3)
    copied = rules.game_class.inlined  # type: ignore[attr-defined]
    hidden = [pc for pc in rules.code.choices if rules.code.resumes[pc] is None]
    assert hidden and copied and not set(hidden) & set(copied)
    assert len(rules.code.settled) > inlined.MOST  # (more settled than it copies)
    assert list(copied) == rules.code.settled[: inlined.MOST]
    called: list[int] = []
    calls_of_resumes(rules, called)
    random_games(rules, 3, players=3)
    assert called and not set(called) & set(copied)  # the rest called from `apply`


def test_a_text_or_an_illegal_action_takes_game_apply(soon: None) -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / "heimlich.rules")
    random_games(rules, 10)
    game = rules.new_game(3, seed=5)
    assert game.legal_actions()  # (the first choice waits)
    first = game.legal_actions()[0]
    with pytest.raises(UsageError, match="not one of the options"):
        game.apply(first._replace(value=99))
    game.apply(first.text)  # by its text, as Game.apply takes it
    assert game.state.pending is not None or game.is_over()
    assert type(game.clone()) is type(game)


@pytest.mark.parametrize("name", RULESETS)
def test_the_inlined_apply_plays_the_games_of_the_resumes(
    soon: None, name: str, full: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each shipped rule file and example, INLINED off and on, its resumes settled by
    a few games first: the same actions at each decision, the same record, histories
    and results."""
    path = ROOT / "rulesets" / name
    games = {}
    for on in (False, True):
        monkeypatch.setattr(inlined, "INLINED", on)
        rules = rulelang.compile_file(path)
        players = rules.min_players
        for seed in range(3):
            played(rules.new_game(players, 50 + seed), seed, sample(full, 3000, 300))
        games[on] = [
            played(rules.new_game(players, seed), seed, sample(full, 3000, 300))
            for seed in range(1, sample(full, 6, 2) + 1)
        ]
    assert games[True] == games[False]


LATE = """game "t"
players 2..4
global {
  total: int = 0
  who: player = none
  word: text = none
}
player { score: int = 0 }
def tail(t: int) = if t > 20 then word else ""
turn {
  choose z in 1..3 log "{current} takes {z}{tail(total)}"
  set total += z
  if total > 12 { set who.score += z }
}
end when total > 40 { win [current] }
"""


@pytest.mark.parametrize("where", ["after", "line"])
def test_an_error_in_copied_code_is_placed_as_the_resume_placed_it(
    soon: None, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`none` used after the choice (line 13), or in its log line (line 11), once the
    resume is copied into `apply`: the same error, place and record as with it off."""
    source = LATE if where == "after" else LATE.replace("total > 12", "total > 99")
    seen = []
    for on in (True, False):
        monkeypatch.setattr(inlined, "INLINED", on)
        rules = rulelang.compile_source(source, "t.rules")
        game = rules.new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            for _ in range(40):
                game.apply(game.legal_actions()[0])
        assert (rules.game_class.apply is not Game.apply) == on
        seen.append((info.value.code, str(info.value.span), game.record()))
    assert seen[0] == seen[1]
    assert seen[0][0] == "R030" and (":13:" if where == "after" else ":11:") in seen[0][1]

"""A resume that runs on to the next pause (chaining.resumed, switch chaining.RUN_ON):
once a generated resume has been called `codegen.RUN_ON_HOT` times and some of those
calls ran on past the op after its choice, it is compiled again with the ops it ran
on into copied in, as a chained op copies them; a return from a pausing proc pushed
in an earlier call (`return st.stack.pop()`) runs on into a copy of the op it was
seen returning to. And `Game.apply` runs an op as first compiled, not the chained
version a playout made of it (Code.paused_ops, switch codegen.PAUSED_PLAIN). Both
must play the engine's games, texts and records, and place errors as it does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from conftest import sample
from test_api_resume import RULESETS, engine_resumes, played

import rulelang
from rulelang import Game, Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import chaining, codegen

ROOT = Path(__file__).resolve().parent.parent

# a turn is a proc that pauses: its return (a pop of what the turn pushed where it
# began, in the call before) ends every decision, and runs on into the next turn
TAKING = """game "t"
players 2..4
global {
  total: int = 0
  who: player = none
}
player { score: int = 0 }
proc take {
  choose z in 1..3 log "{current} takes {z}"
  set total += z
}
turn {
  do take
  set current.score += 1
  if total > LIMIT { set who.score += 1 }
}
end when total > 60 { win [current] }
"""


@pytest.fixture
def soon(monkeypatch: pytest.MonkeyPatch) -> None:
    """A resume's version that runs on compiled after its first 3 calls."""
    monkeypatch.setattr(codegen, "RUN_ON_HOT", 3)


def taking(limit: int = 99) -> Ruleset:
    return rulelang.compile_source(TAKING.replace("LIMIT", str(limit)), "t.rules")


def ops_called(rules: Ruleset, calls: list[int]) -> None:
    """Each op Game.apply runs after a resume notes its pc in calls."""
    ops = rules.code.paused_ops
    for pc, op in enumerate(ops):

        def noted(st: object, op=op, pc=pc) -> int:  # type: ignore[no-untyped-def]
            calls.append(pc)
            return op(st)  # type: ignore[no-any-return]

        ops[pc] = noted


def play(game: Game, decisions: int, pick: int = 0) -> None:
    for _ in range(decisions):
        if game.is_over():
            return
        game.apply(game.legal_actions()[pick])


@pytest.mark.parametrize("on", [True, False])
def test_a_resume_runs_on_into_the_next_turn(
    soon: None, on: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every decision ends the turn (the proc returns, popped); after the resume's
    first calls, no op is run after it: the next turn runs inside the resume."""
    monkeypatch.setattr(chaining, "RUN_ON", on)
    rules = taking()
    game = rules.new_game(2, seed=1)
    play(game, 4)  # its first calls: each ran on (into the op the pop returned to)
    calls: list[int] = []
    ops_called(rules, calls)
    play(game, 6)
    resume = next(r for r in rules.code.resumes if r is not None)
    assert ("_popped" in resume.__code__.co_varnames) is on
    assert (calls == []) is on, calls


def test_a_resume_that_always_pauses_is_kept_as_it_was(soon: None) -> None:
    """Heimlich's choice of an agent always pauses at the distance: its resume is not
    compiled again; the distance's resume, which runs on where the move points are
    spent (into the next turn), is."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "heimlich.rules")
    play(rules.new_game(4, seed=2), 200, pick=-1)
    code = rules.code
    ran_on = {
        code.choices[pc].name: "_popped" in r.__code__.co_varnames
        for pc, r in enumerate(code.resumes)
        if r is not None
    }
    assert ran_on["mover"] is False and ran_on["steps"] is True, ran_on


@pytest.mark.parametrize("name", RULESETS)
def test_the_resumes_that_run_on_play_the_engines_games(soon: None, name: str, full: bool) -> None:
    """The same actions offered at every decision, the same record, every viewer's
    history and the results, as the engine's own resume (which runs the ops one call
    each), for every shipped rule file."""
    path = ROOT / "rulesets" / name
    rules, plain = rulelang.compile_file(path), engine_resumes(rulelang.compile_file(path))
    players = rules.min_players
    for seed in range(1, sample(full, 6, 2) + 1):
        decisions = sample(full, 3000, 400)
        mine = played(rules.new_game(players, seed), seed, decisions)
        assert mine == played(plain.new_game(players, seed), seed, decisions)


def test_an_error_in_the_turn_run_on_into_is_placed_as_the_engine_places_it(soon: None) -> None:
    """`who` is none: the turn after the total passes 6 fails on line 15, inside the
    copy of the turn's op in the resume: the same error, place and record."""
    seen = []
    for rules in (taking(6), engine_resumes(taking(6))):
        game = rules.new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            play(game, 40, pick=-1)
        seen.append((info.value.code, str(info.value.span), game.record()))
    assert seen[0] == seen[1]
    assert seen[0][0] == "R030" and ":15:" in seen[0][1]


@pytest.mark.parametrize("plain", [True, False])
def test_apply_runs_an_op_as_first_compiled_not_its_chained_version(
    plain: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A playout chains Saboteur's turn (its op then reads a dozen of the state's
    attributes into locals where it starts, for a playout's many decisions); a game
    played through the API runs the op as first compiled (with PAUSED_PLAIN off, the
    chained one), and plays the same games."""
    monkeypatch.setattr(codegen, "PAUSED_PLAIN", plain)
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    for seed in range(3):
        rules.new_game(3, seed).playout(random.Random(seed), quiet=True)
    code = rules.code
    chained = [pc for pc, op in enumerate(code.ops) if "budget" in op.__code__.co_varnames]
    assert chained
    for pc in chained:
        assert ("budget" in code.paused_ops[pc].__code__.co_varnames) is not plain
        assert (code.paused_ops[pc] is code.ops[pc]) is not plain
    plain = engine_resumes(rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules"))
    assert played(rules.new_game(3, 5), 5, 600) == played(plain.new_game(3, 5), 5, 600)

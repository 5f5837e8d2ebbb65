"""Ops that run on into the ops that follow them (issue 21, item 1;
runtime/chaining.py, switch `chaining.CHAIN`): the op after a choice is copied into the
choice's playout branch whatever its size, and a return from a pausing proc whose push
lies before it in the same op is a jump to a known op, copied there in turn, so that a
playout runs turn after turn in one call of an op that loops. The ops, longer now, are
compiled when first called (`codegen.LAZY`).

Shown firing on the generated source and on the count of ops a playout calls, staying
off where a pop's value is not known, bounded in size, raising what it raised on the
rule lines it did, and playing the games and views of the code without it and of the
plain code (`exprgen.OPTIMISED` off); tests/test_compiler_opts.py plays every shipped
game both ways."""

from __future__ import annotations

import inspect
import random
from collections import Counter
from pathlib import Path

import pytest
from compile_support import with_optimised

import rulelang
from rulelang import CHANCE, Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import chaining, codegen

ROOT = Path(__file__).resolve().parent.parent
RELAY = """game "Relay"
players 2..4
enum use { play, discard }
card chip count 30 {
  value: int = index % 5
}
zone deck: chip visible to none
zone hand: chip per player visible to owner
zone pile: chip visible to all
zone bank: chip per player visible to all
setup {
  add pieces(chip) to deck
  shuffle deck
  deal 3 from deck to hand
}
proc bank_one(c: chip) {
  choose p in players prompt "who banks it?"
  move c from hand[current] to bank[p]
}
turn {
  choose c in hand[current] prompt "which"
  choose action in use require action == discard or c.value > 0 else "worthless"
  if action == discard {
    move c from hand[current] to pile
    if len(hand[current]) > 0 and c.value == 4 {
      do bank_one(first(hand[current]))
    }
  } else {
    do bank_one(c)
  }
  if len(deck) > 0 {
    move last(deck) from deck to hand[current]
  }
}
end when len(deck) == 0 or turn_number > 40 { win [current] }
"""


def chained(on: bool, text: str = RELAY, optimised: bool = True) -> Ruleset:
    """The rules compiled with chaining on or off (every op compiled at once, so
    that ops_called counts every call)."""
    was = chaining.CHAIN, codegen.LAZY
    chaining.CHAIN, codegen.LAZY = on, False
    try:
        return with_optimised(optimised, lambda: rulelang.compile_source(text, "t.rules"))
    finally:
        chaining.CHAIN, codegen.LAZY = was


def ops_called(rules: Ruleset, seed: int) -> tuple[int, int]:
    """(ops the run loop called, decisions taken) in a quiet playout."""
    called = [0]
    ops = rules.code.ops
    originals = list(ops)

    def counting(op: codegen.Op) -> codegen.Op:
        def run(st: object) -> int:
            called[0] += 1
            return op(st)  # type: ignore[arg-type]

        return run  # type: ignore[return-value]

    ops[:] = [counting(op) for op in originals]
    try:
        decisions = rules.new_game(3, seed).playout(random.Random(seed), quiet=True)
    finally:
        ops[:] = originals
    return called[0], decisions


def record_of(rules: Ruleset, players: int, seed: int) -> tuple[object, ...]:
    game = rules.new_game(players, seed)
    game.playout(random.Random(seed), max_decisions=3000)
    views = [game.view(p) for p in (rulelang.PUBLIC, *range(players))]
    return (game.record(), game.results(), views)


def test_a_playout_runs_on_from_choice_to_choice_in_one_op() -> None:
    """Without chaining, most decisions return to the run loop (the op after a choice
    is called anew); with it, a whole playout takes a handful of calls."""
    calls_on, decisions = ops_called(chained(True), 5)
    calls_off, same = ops_called(chained(False), 5)
    assert decisions == same and decisions > 40
    assert calls_off > decisions * 3 // 4
    assert calls_on <= 5


def test_the_turn_loops_in_python_and_returns_are_jumps() -> None:
    """The turn's op is a `while True:` loop; the proc's return pops the stack and
    jumps on, written out (`st.stack.pop()` then the copy of the op it returns to)."""
    on = "\n".join(chained(True).code.source)
    off = "\n".join(chained(False).code.source)
    assert "while True:" in on and "while True:" not in off
    assert any(line.strip().startswith("st.stack.pop()") for line in on.splitlines())
    assert not any(line.strip().startswith("st.stack.pop()") for line in off.splitlines())


def test_the_op_after_a_choice_is_copied_whatever_its_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With no op small enough to copy (codegen.INLINE_LINES 0), the plain way leaves
    a jump after each choice taken in a playout; chaining copies the next op there."""
    monkeypatch.setattr(codegen, "INLINE_LINES", 0)
    off = chained(False)
    on = chained(True)
    assert ops_called(on, 3)[0] < ops_called(off, 3)[0] * 0.6
    assert [record_of(on, 3, s) for s in (1, 2)] == [record_of(off, 3, s) for s in (1, 2)]


@pytest.mark.parametrize("seed", [1, 2, 3, 7])
@pytest.mark.parametrize("players", [2, 4])
def test_chained_code_plays_the_same_games(players: int, seed: int) -> None:
    on, off, plain = chained(True), chained(False), chained(False, optimised=False)
    assert record_of(on, players, seed) == record_of(off, players, seed)
    assert record_of(on, players, seed) == record_of(plain, players, seed)


def api_played(rules: Ruleset, seed: int) -> list[object]:
    """Decisions taken one by one through the API (each a pause and a resume): the
    actions offered at each, then the record and the results."""
    game, rng, seen = rules.new_game(3, seed), random.Random(seed), []
    while not game.is_over():
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        seen.append([tuple(a) for a in actions])
        game.apply(actions[int(rng.random() * len(actions))])
    return [*seen, game.record(), game.results()]


def test_the_api_path_plays_the_same_games() -> None:
    on, off = chained(True), chained(False)
    for seed in (1, 2):
        assert api_played(on, seed) == api_played(off, seed)


def test_an_error_in_copied_code_is_placed_on_its_rule_line() -> None:
    """`first(hand[current])` of an empty hand, in code copied after a choice: the same
    error on the same rule line as without chaining."""
    text = RELAY.replace("len(hand[current]) > 0 and c.value == 4", "true")
    errors = []
    for on in (True, False):
        game = chained(on, text).new_game(2, 1)
        with pytest.raises(GameRuntimeError) as caught:
            game.playout(random.Random(1), max_decisions=3000)
        errors.append((caught.value.code, str(caught.value)))
    assert errors[0] == errors[1] and errors[0][0] == "R004"


def test_no_op_grows_past_the_bound() -> None:
    saboteur = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    sizes = [len(s.splitlines()) for s in saboteur.code.source]
    assert max(sizes) <= chaining.MAX_LINES + 8  # the prelude and a loop's line


def test_ops_are_compiled_when_first_called() -> None:
    """Each op but the first, and each resume, is a stub until it is first called
    (its function then compiled into the generated code's globals): a playout
    compiles the few it runs, and the same game is played."""
    rules = rulelang.compile_source(RELAY, "t.rules")
    ops, resumes = rules.code.ops, rules.code.resumes
    env = ops[0].__globals__
    assert ops[0].__name__ == "_op0"
    assert all(op.__name__ == f"_op{pc}_stub" for pc, op in enumerate(ops) if pc > 0)
    assert {r.__name__ for r in resumes if r is not None} <= {
        f"_resume{pc}_stub" for pc in range(len(resumes))
    }
    record = record_of(rules, 3, 2)
    run = [pc for pc in range(len(ops)) if f"_op{pc}" in env]
    assert 1 < len(run) < len(ops)  # the rest never compiled
    assert record == record_of(chained(True), 3, 2)  # compiled at once
    api_played(rules, 1)
    # compiled at its first call; its stub stays, counting what it returns, for its
    # first codegen.RUN_ON_HOT calls (test_api_run_on.py)
    called = [pc for pc, r in enumerate(resumes) if r is not None and f"_resume{pc}" in env]
    assert called and all(resumes[pc] is not None for pc in called)


# ---------------------------------------------------------------- known returns
def resolved(*lines: str) -> list[str]:
    return chaining.known_returns(list(lines))


def test_a_pop_after_its_push_is_a_jump() -> None:
    assert resolved("st.stack.append(7)", "if x:", "    return st.stack.pop()", "return 3") == [
        "st.stack.append(7)",
        "if x:",
        "    st.stack.pop()",
        "    return 7",
        "return 3",
    ]


def test_a_pop_after_a_pop_is_the_push_before() -> None:
    body = resolved(
        "st.stack.append(7)",
        "st.stack.append(9)",
        "f()",
        "return st.stack.pop()",
    )
    assert body[-2:] == ["st.stack.pop()", "return 9"]
    again = chaining.known_returns([*body[:-1], "return st.stack.pop()"])
    assert again[-2:] == ["st.stack.pop()", "return 7"]


def test_a_pop_not_known_stays() -> None:
    alone = ["f()", "return st.stack.pop()"]
    assert resolved(*alone) == alone
    # the push in a branch that falls out of it: the pop after may pop another value
    fallen = ["if x:", "    st.stack.append(7)", "    f()", "return st.stack.pop()"]
    assert resolved(*fallen) == fallen
    # a push in a branch that returns: the lines after it never follow the push
    other = ["if x:", "    st.stack.append(7)", "    return 4", "return st.stack.pop()"]
    assert resolved(*other) == other


def test_a_pop_inside_a_branch_leaves_the_push_for_the_other_paths() -> None:
    body = resolved(
        "st.stack.append(7)",
        "st.stack.append(9)",
        "if x:",
        "    return st.stack.pop()",
        "if y:",
        "    return st.stack.pop()",
        "return 2",
    )
    assert body[3:5] == ["    st.stack.pop()", "    return 9"]
    assert body[6:8] == ["    st.stack.pop()", "    return 9"]


# ---------------------------------------------------------------- compiled when it pays
def test_a_chained_version_is_compiled_once_the_op_runs_on() -> None:
    """Compiled lazily, the turn's op runs as written for its first calls, which show
    that play goes on through the ops it would copy and back to it: its chained
    version (a loop) then takes its place, and the games are the same."""
    rules = rulelang.compile_source(RELAY, "t.rules")  # LAZY, the default
    records = [record_of(rules, 3, seed) for seed in (1, 2, 3, 4)]
    looping = [op for op in rules.code.ops if "while True:" in inspect.getsource(op)]
    assert len(looping) == 1
    assert records == [record_of(chained(False), 3, seed) for seed in (1, 2, 3, 4)]


def test_no_chained_version_where_play_leaves_through_a_jump_it_keeps() -> None:
    """runs_on: from the op's most frequent jump, through what each op returned in its
    first calls; a jump to an op not copied ends it (no chained version), a jump back
    to the op or a pause after a copy runs on."""
    gen = codegen.Codegen.__new__(codegen.Codegen)
    gen.returns = {5: Counter({7: 10, 9: 1}), 7: Counter({8: 9}), 8: Counter({5: 9})}
    assert gen.runs_on(5, {7, 8})
    assert not gen.runs_on(5, {7})  # 8 is left a jump: back to the run loop
    gen.returns[8] = Counter({-11: 9})
    assert gen.runs_on(5, {7, 8})  # a pause after running on
    gen.returns[5] = Counter({-11: 9})
    assert not gen.runs_on(5, {7, 8})  # the op pauses at once: nothing to run on to
    assert not gen.runs_on(6, {7, 8})  # never seen

"""Four more optimisations of the code generator (issue 21, item 1): tests that a
choice's value decides written out of its options (`exprgen.FOLD`, runtime/folds.py),
`any(v in xs for v in vs)` as one test of two collections (`exprgen.HOIST`, the same
file), `move last(z) from z to ...` as one call (`_h.move_top`), and `add [x for x in
z ...] to d` taking the items out of z alone (`_h.add_from`).

Each is shown to fire on the generated source, to stay off where the rules read
otherwise, to raise what the plain code raises, and the optimised code to play the very
games of the plain code (`exprgen.OPTIMISED` off); tests/test_compiler_opts.py plays
every shipped game both ways."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from compile_support import both_of_source, with_loops, with_optimised

import rulelang
from rulelang import Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import codegen, exprgen

GEAR = """game "Gear"
players 2..4
enum tool { pick, lamp, cart }
enum use { play, discard }
const kits = [[tool.pick], [tool.lamp, tool.cart], [], [tool.cart]]
card gear count 24 {
  name: text = "g{index}"
  tools: list(tool) = kits[index % 4]
}
zone deck: gear visible to none
zone hand: gear per player visible to owner
zone front: gear per player visible to all
zone pile: gear visible to all
def broken(p: player) = [b.tools[0] for b in front[p] where len(b.tools) > 0]
def mends(c: gear, p: player) = any(t in broken(p) for t in c.tools)
def spare(c: gear) = all(t not in broken(current) for t in c.tools)
def useful(c: gear) = any(mends(c, p) for p in players) or spare(c)
setup {
  add pieces(gear) to deck
  shuffle deck
  deal 3 from deck to hand
}
turn {
  choose c in hand[current] prompt "which"
  choose action in use
    require action == discard or len(c.tools) > 0 else "nothing to do with it"
    require action == discard or useful(c) else "no use now"
  if action == discard {
    move c from hand[current] to pile
  } else {
    move c from hand[current] to front[current]
  }
  if len(deck) > 0 {
    move last(deck) from deck to hand[current]
  }
  if len(deck) > 1 and turn_number % 3 == 0 {
    reveal deck[len(deck) - 2] to current
  }
  if len(deck) < 4 {   # gather the cards played back, the tools first
    add [c for c in front[current] where len(c.tools) > 0] to deck
    add [c for c in pile] to deck
    shuffle deck
  }
}
end when len(deck) == 0 or turn_number > 40 { win [current] }
"""


def source_of(rules: Ruleset, name: str) -> str:
    """The generated Python of a def, or of every op (name "ops")."""
    if name == "ops":
        return "\n".join(rules.code.source)
    return with_loops(rules.code.ops[0].__globals__[name])  # any/all: loops.py


def record_of(rules: Ruleset, players: int, seed: int) -> tuple[object, ...]:
    """What a game played out shows: its record, results, and every seat's view (what
    `reveal ... to` showed each, and what moves since voided)."""
    game = rules.new_game(players, seed)
    game.playout(random.Random(seed), max_decisions=3000)
    views = [game.view(p) for p in (rulelang.PUBLIC, *range(players))]
    return (game.record(), game.results(), views)


def switched(name: str, text: str = GEAR) -> Iterator[Ruleset]:
    """The rules compiled with one switch of exprgen on, then off."""
    was = getattr(exprgen, name)
    try:
        for on in (True, False):
            setattr(exprgen, name, on)
            yield rulelang.compile_source(text, "t.rules")
    finally:
        setattr(exprgen, name, was)


# ---------------------------------------------------------------- a choice's constants
def test_tests_a_choice_value_decides_are_written_out() -> None:
    """`require action == discard or ...` with each value written in: `'play' ==
    'discard'` fails and is left out, `'discard' == 'discard'` holds and makes the
    discard an option without a test; the plain code compares the two texts."""
    on, off = switched("FOLD")
    assert "('discard',))" in source_of(on, "ops")
    assert "'play' == 'discard'" not in source_of(on, "ops")
    assert "'discard' == 'discard'" not in source_of(on, "ops")
    assert "('play' == 'discard')" in source_of(off, "ops")


def test_a_failed_constant_test_after_one_that_runs_stays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A require that runs before the one the value fails keeps its place: it may
    raise first, as it did (here `first(hand[current])` of an empty hand). (Shown on
    the options added value by value: `codegen.BRANCHED_OPTIONS` off.)"""
    monkeypatch.setattr(codegen, "BRANCHED_OPTIONS", False)
    text = GEAR.replace(
        "    require action == discard or len(c.tools) > 0",
        '    require first(pile) == c or action == play else "later"\n'
        "    require action == discard or len(c.tools) > 0",
    )
    ops = source_of(rulelang.compile_source(text, "t.rules"), "ops")
    assert "(('discard',) if (" in ops  # the discard kept behind the test that runs
    assert "(('play',) if (" in ops


# ---------------------------------------------------------------- membership
def test_membership_over_a_list_is_one_test() -> None:
    """`any(t in broken(p) for t in c.tools)` builds `broken(p)` once and tests the two
    lists at once; the plain code builds it again for every tool."""
    on, off = switched("HOIST")
    assert (
        "isdisjoint" in source_of(on, "_d_mends")
        and " for _v" not in source_of(on, "_d_mends").split("isdisjoint")[0].split("return")[-1]
    )
    plain = source_of(off, "_d_mends")  # a loop over the tools: `any(` or loops.py's
    assert ("any(" in plain or "def _loop" in plain) and "isdisjoint" not in plain
    assert "isdisjoint" in source_of(on, "_d_spare")


def test_membership_reading_the_variable_stays_a_loop() -> None:
    text = GEAR.replace(
        "def spare(c: gear) =",
        "def twice(c: gear) = any(t in [t, t] for t in c.tools)\ndef spare(c: gear) =",
    )
    rules = rulelang.compile_source(text, "t.rules")
    assert "isdisjoint" not in source_of(rules, "_d_twice")


def test_membership_over_nothing_works_out_no_list() -> None:
    """`xs` is worked out only when `vs` has an item: over an empty list it raises
    nothing (here `first(pile)` of the empty pile), as the plain code's loop never
    reached it; over a list with an item it raises what the plain code raises."""
    text = GEAR.replace(
        "def spare(c: gear) =",
        "def empty(c: gear) = any(t in [first(pile).tools[0]] for t in [x for x in c.tools"
        " where false])\ndef spare(c: gear) =",
    ).replace("require action == discard or useful(c)", "require not empty(c) and useful(c)")
    rules, plain = both_of_source(text)
    assert "isdisjoint" in source_of(rules, "_d_empty")
    for seed in (3, 4):
        assert record_of(rules, 2, seed) == record_of(plain, 2, seed)
    raising = text.replace("where false])", "where true])")
    errors = []
    for compiled in both_of_source(raising):
        with pytest.raises(GameRuntimeError) as caught:
            record_of(compiled, 2, 3)
        errors.append((caught.value.code, str(caught.value)))
    assert errors[0] == errors[1] and errors[0][0] == "R004"


# ---------------------------------------------------------------- the top item
def test_a_card_drawn_is_one_call() -> None:
    rules, plain = both_of_source(GEAR)
    assert "_h.move_top(st, " in source_of(rules, "ops") and "_h.last(" not in source_of(
        rules, "ops"
    )
    assert "_h.move(st, _h.last(" in source_of(plain, "ops")


def test_the_top_of_another_zone_moves_as_written() -> None:
    text = GEAR.replace("move last(deck) from deck", "move last(pile) from deck")
    rules = rulelang.compile_source(text, "t.rules")
    assert "_h.move_top(" not in source_of(rules, "ops")


def test_a_card_drawn_from_an_empty_zone_raises_what_last_raises() -> None:
    text = GEAR.replace(
        "  if len(deck) > 0 {\n    move last(deck)", "  if true {\n    move last(deck)"
    )
    text = text.replace("end when len(deck) == 0 or", "end when").replace(
        "if len(deck) < 4", "if false"
    )
    errors = []
    for rules in both_of_source(text):
        game = rules.new_game(2, 1)
        with pytest.raises(GameRuntimeError) as caught:
            game.playout(random.Random(1), max_decisions=3000)
        errors.append((caught.value.code, str(caught.value)))
    assert errors[0] == errors[1] and errors[0][0] == "R004"


# ---------------------------------------------------------------- items gathered
def test_items_listed_from_one_zone_are_taken_from_it_alone() -> None:
    """`add [c for c in z where ...] to d` takes the items out of z alone (they were
    just listed from it, each once); the plain code looks for each in every zone."""
    rules, plain = both_of_source(GEAR)
    ops = source_of(rules, "ops")
    assert "_h.add_from(st, " in ops
    assert "_h.add(st, (tuple([" not in ops  # neither the pile nor the player's front
    assert "_h.add_from(" not in source_of(plain, "ops")


def test_items_made_otherwise_are_added_as_written() -> None:
    text = GEAR.replace("add [c for c in pile] to deck", "add [c for c in pile] + [] to deck")
    text = text.replace(
        "add [c for c in front[current] where", "add [first(pile) for c in front[current] where"
    )
    assert "_h.add_from(" not in source_of(rulelang.compile_source(text, "t.rules"), "ops")


# ---------------------------------------------------------------- the same games
def test_the_same_games_with_and_without_them() -> None:
    rules, plain = both_of_source(GEAR)
    fold_on, fold_off = switched("FOLD")
    hoist_on, hoist_off = switched("HOIST")
    for seed in range(1, 13):
        players = 2 + seed % 3
        want = record_of(plain, players, seed)
        for other in (rules, fold_off, hoist_off):
            assert record_of(other, players, seed) == want


def test_plain_code_is_what_optimised_off_gives() -> None:
    plain = with_optimised(False, lambda: rulelang.compile_source(GEAR, "t.rules"))
    assert "isdisjoint" not in source_of(plain, "_d_mends")

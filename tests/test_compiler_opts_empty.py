"""Emptiness tested as truth (`exprgen.EMPTINESS`, runtime/folds.py `emptiness`):
`len(xs) == 0` is `(not xs)`, `len(xs) > 0` and `len(xs) != 0` are `(not not xs)`,
with 0 on either side. Shown firing on the generated source, staying off where the
comparison is not with 0 (or is not the built-in `len`), raising what the plain code
raises, and playing the very games of the code without it."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from compile_support import both_of_source
from test_compiler_opts_folds import GEAR, record_of, source_of, switched

import rulelang
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import folds
from rulelang.syntax import ast as A

SPAN = None
ROOT = Path(__file__).resolve().parent.parent


def test_a_zone_tested_empty_is_its_truth() -> None:
    """`if len(deck) > 0`, `end when len(deck) == 0`, `len(b.tools) > 0`: no `len`
    call left for them; the plain code calls `len` and compares."""
    on, off = switched("EMPTINESS")
    ops = source_of(on, "ops")
    assert "(not not (st.zones[" in ops or "(not not (zones[" in ops
    assert "len(st.zones[0]) > 0" not in ops and "len(zones[0]) > 0" not in ops
    plain = source_of(off, "ops")
    assert "len(st.zones[0]) > 0" in plain or "len(zones[0]) > 0" in plain
    broken = source_of(on, "_d_broken")  # `where len(b.tools) > 0`, and `b.tools[0]`
    column = r"(st\.cols\[1\]|_col1)"  # `_col1`: read once before the loop (loops.HOISTED)
    assert re.search(rf"if \(not not \({column}\[_v", broken) and "len(" not in broken
    assert re.search(rf"if \(_t2 := {column}\[_v5\]\) else _h\.index\(_t2, 0, ", broken)
    assert "len(_t2 := " in source_of(off, "_d_broken")


def test_a_first_item_read_of_an_empty_list_raises_as_before() -> None:
    """`b.tools[0]` checks that the list has an item by its truth: an empty one still
    raises the index error (R003) of the plain code."""
    text = GEAR.replace("for b in front[p] where len(b.tools) > 0]", "for b in pile]")
    errors = []
    for rules in switched("EMPTINESS", text):
        checked = re.search(r"len\(_t\d+ := ", source_of(rules, "_d_broken"))
        assert (checked is None) == (errors == [])  # on first, then off
        with pytest.raises(GameRuntimeError) as caught:
            for seed in range(1, 20):
                record_of(rules, 2, seed)
        errors.append((caught.value.code, str(caught.value)))
    assert errors[0] == errors[1] and errors[0][0] == "R003"


def test_other_comparisons_of_len_stay() -> None:
    """`len(deck) < 4`, `len(deck) > 1` compare a number: left as written."""
    ops = source_of(next(switched("EMPTINESS")), "ops")
    assert "< 4)" in ops and "len(" in ops
    assert "> 1)" in ops


def _binary(op: str, left: A.Expr, right: A.Expr) -> A.Binary:
    return A.Binary(span=SPAN, op=op, left=left, right=right)  # type: ignore[arg-type]


def _len_of(name: str) -> A.Call:
    arg = A.Name(span=SPAN, id=name)  # type: ignore[arg-type]
    return A.Call(span=SPAN, func="len", args=(arg,))  # type: ignore[arg-type]


def _int(n: int) -> A.IntLit:
    return A.IntLit(span=SPAN, value=n)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("op", "flip", "want"),
    [
        ("==", False, "(not (xs))"),
        ("!=", False, "(not not (xs))"),
        (">", False, "(not not (xs))"),
        ("==", True, "(not (xs))"),
        ("!=", True, "(not not (xs))"),
        ("<", True, "(not not (xs))"),
    ],
)
def test_emptiness_on_either_side(op: str, flip: bool, want: str) -> None:
    length, zero = _len_of("xs"), _int(0)
    e = _binary(op, zero, length) if flip else _binary(op, length, zero)
    left, right = ("0", "len(xs)") if flip else ("len(xs)", "0")
    assert folds.emptiness(e, left, right) == want
    # Python agrees for an empty and a full tuple, a text, a dict
    for xs in ((), (1, 2), "", "ab", {}, {1: 2}):
        assert eval(want, {"xs": xs}) == eval(f"{left} {op} {right}", {"xs": xs})


@pytest.mark.parametrize(
    ("op", "left_src", "right_val"),
    [
        ("<", "len(xs)", 0),  # never true: not a test of emptiness, left as written
        (">=", "len(xs)", 0),
        ("==", "len(xs)", 1),
        ("==", "_d_len(xs)", 0),  # a def of the rules, not the built-in
        ("==", "len(xs) + len(ys)", 0),  # `len(` at both ends, not one call
    ],
)
def test_emptiness_stays_off(op: str, left_src: str, right_val: int) -> None:
    e = _binary(op, _len_of("xs"), _int(right_val))
    assert folds.emptiness(e, left_src, str(right_val)) is None


def test_what_the_zone_raises_is_raised_as_before() -> None:
    """`len(hand[first(nobody)]) == 0` raises what `first` raises in both codes: the
    zone is worked out as before, only its length is not taken."""
    text = GEAR.replace(
        "  if len(deck) > 0 {\n    move last(deck)",
        "  let nobody = [p for p in players where false]\n"
        "  if len(hand[first(nobody)]) == 0 {\n    move last(deck)",
    )
    errors = []
    both = both_of_source(text)
    ops = source_of(both[0], "ops")
    assert "(not (st.zones[" in ops or "(not (zones[" in ops
    for rules in both:
        game = rules.new_game(2, 1)
        with pytest.raises(GameRuntimeError) as caught:
            game.playout(random.Random(1), max_decisions=3000)
        errors.append((caught.value.code, str(caught.value)))
    assert errors[0] == errors[1]


def test_the_same_games_with_and_without_it() -> None:
    on, off = switched("EMPTINESS")
    for seed in range(1, 10):
        players = 2 + seed % 3
        assert record_of(on, players, seed) == record_of(off, players, seed)


def test_shipped_saboteur_tests_its_zones_as_truth() -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    assert "(not (" in "\n".join(rules.code.source)

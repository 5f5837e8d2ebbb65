"""A def of fixed value read in place of its call (`exprgen.MEMO_INLINE`): a def with
no parameters whose value is fixed for the table keeps it in `cfg.memo` once worked
out; a call of it is then that list read, `(st.cfg.memo[k] if st.cfg.memo[k] is not
_UNSET else _d_NAME(st))`, not a function called. Shown firing on the generated
source, staying off for a def with parameters, and playing the very games of the code
without it."""

from __future__ import annotations

from pathlib import Path

from test_compiler_opts_folds import record_of, source_of

import rulelang
from rulelang.runtime import exprgen

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


def compiled(on: bool, inline_max: int | None = None) -> rulelang.Ruleset:
    was = exprgen.MEMO_INLINE, exprgen.INLINE_MAX
    exprgen.MEMO_INLINE = on
    exprgen.INLINE_MAX = inline_max or exprgen.INLINE_MAX
    try:
        return rulelang.compile_file(SABOTEUR)
    finally:
        exprgen.MEMO_INLINE, exprgen.INLINE_MAX = was


def test_a_fixed_def_is_read_from_its_slot() -> None:
    """`start()` (`cell(maze, 0, 0)`, fixed) inside `can_play`: read from its slot,
    the def called only while nothing is kept; the plain code calls it every time."""
    on, off = compiled(True), compiled(False)
    slot = on.ex.memo_slots["start"]
    inline = f"(st.cfg.memo[{slot}] if st.cfg.memo[{slot}] is not _UNSET else _d_start(st))"
    assert inline in source_of(on, "_d_can_play")
    plain = source_of(off, "_d_can_play")
    assert "_d_start(st)" in plain and "st.cfg.memo[" not in plain


def test_a_def_with_parameters_or_not_fixed_is_still_called() -> None:
    """`can_break(c, p)` (parameters) and `hidden_goals()` (what lies face down
    changes): called, switched on (defs as short as they once had to be to be written
    in place of their calls, so that they are calls); given no slot either way."""
    rules = compiled(True, inline_max=160)
    can_play = source_of(rules, "_d_can_play")
    assert "_d_can_break(st, _a" in can_play
    assert "(not not (_d_hidden_goals(st)))" in can_play
    for each in (rules, compiled(True)):
        assert not {"can_break", "hidden_goals"} & set(each.ex.memo_slots)


def test_the_same_games_either_way() -> None:
    on, off = compiled(True), compiled(False)
    for players, seed in ((3, 1), (5, 2), (10, 3)):
        assert record_of(on, players, seed) == record_of(off, players, seed)

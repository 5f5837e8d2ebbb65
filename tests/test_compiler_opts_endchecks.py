"""An end test left out where the one before it is known to have run (issue 21, item 1;
runtime/endchecks.py, switch `endchecks.ONCE`): in a chained op, `if st.dirty and
_check_end(st):` before a choice is dropped when every way to it from an earlier test
passes no line that may set `st.dirty`.

Shown firing on lines (its mark carried to the next line), staying off past a write of
the flag or a proc's call (and in a loop holding one, and after a block that falls
through), firing past a block that leaves; and playing the games of the code without
it, Saboteur's included, through playouts stopped part way and the API."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_compiler_opts_locals import RELAY, looping, played

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, endchecks

ROOT = Path(__file__).resolve().parent.parent
TEST = "if st.dirty and _check_end(st):"


def compiled(on: bool, path: Path | None = None) -> Ruleset:
    was = endchecks.ONCE, codegen.LAZY
    endchecks.ONCE, codegen.LAZY = on, False
    try:
        if path is not None:
            return rulelang.compile_file(path)
        return rulelang.compile_source(RELAY, "t.rules")
    finally:
        endchecks.ONCE, codegen.LAZY = was


def test_a_second_test_with_nothing_between_is_dropped() -> None:
    lines = [
        f"{TEST}  # @1",
        "    return -12",
        "x = f(loc[3])",
        f"{TEST}  # @2",
        "    st.budget = budget",
        "    return -12",
        "opts = g(x)",
        "if opts:",
        f"    {TEST}  # @3",
        "        return -12",
        "    y = 1",
        f"    {TEST}  # @4",
        "        return -12",
    ]
    assert endchecks.once(lines) == [
        f"{TEST}  # @1",
        "    return -12",
        "x = f(loc[3])",
        "opts = g(x)  # @2",  # the mark goes on: the line table places it as before
        "if opts:",
        "    y = 1  # @3",
        "    pass  # @4",  # the block's last line
    ]


def test_kept_past_a_write_or_a_proc() -> None:
    written = [TEST, "    return -12", "st.dirty = True", TEST, "    return -12"]
    assert endchecks.once(written) == written
    called = [TEST, "    return -12", "_p_pay(st, 3)", TEST, "    return -12"]
    assert endchecks.once(called) == called
    cleared = [TEST, "    return -12", "st.dirty = False", TEST, "    return -12"]
    assert endchecks.once(cleared) == cleared  # any write: kept simple


def test_kept_after_a_block_that_falls_through_or_a_loop_that_writes() -> None:
    falls = [TEST, "    return -12", "if a:", "    st.dirty = True", "x = 1", TEST, "    return 0"]
    assert endchecks.once(falls) == falls
    loop = [
        TEST,
        "    return -12",
        "for v in s:",
        f"    {TEST}",  # the second round comes after the write below
        "        return -12",
        "    _p_pay(st, v)",
    ]
    assert endchecks.once(loop) == loop
    other_way = [TEST, "    return -12", "if a:", "    x = 1", "else:", "    st.dirty = True"]
    assert endchecks.once([*other_way, TEST, "    return 0"]) == [*other_way, TEST, "    return 0"]
    handled = [TEST, "    return 0", "try:", "    _p_a(st)", "except E:", "    x = 1"]
    assert endchecks.once([*handled, TEST, "    return 0"]) == [*handled, TEST, "    return 0"]


def test_dropped_after_a_block_that_leaves() -> None:
    lines = [
        "while True:",
        f"    {TEST}",
        "        return -12",
        "    if a:",
        "        st.dirty = True",
        "        _p_pay(st, 1)",
        "        continue",  # back to the test above: the lines below are not reached
        "    if b:",
        "        _p_pay(st, 2)",
        "        return 3",
        f"    {TEST}  # @5",
        "        return -12",
        "    x = 1",
    ]
    assert endchecks.once(lines) == [*lines[:10], "    x = 1  # @5"]
    # a `continue` to a loop opened after the first test comes back to what follows it
    inner = [
        TEST,
        "    return -12",
        "for v in s:",
        f"    {TEST}",
        "        return -12",
        "    if a:",
        "        st.dirty = True",
        "        continue",
    ]
    assert endchecks.once(inner) == inner


def test_fires_on_the_chained_op() -> None:
    on, off = looping(compiled(True)), looping(compiled(False))
    assert 0 < sum(TEST in line for line in on) < sum(TEST in line for line in off)


@pytest.mark.parametrize("limit", [1, 5, 17, 3000])
def test_the_same_games(limit: int) -> None:
    on, off = compiled(True), compiled(False)
    for players in (2, 4):
        for seed in (1, 2):
            assert played(on, players, seed, limit) == played(off, players, seed, limit)


def test_a_tile_game_plays_the_same_games() -> None:
    path = ROOT / "rulesets" / "saboteur.rules"
    on, off = compiled(True, path), compiled(False, path)
    count = [sum(s.count(TEST) for s in r.code.source) for r in (on, off)]
    assert count[0] < count[1]
    for seed in (1, 2, 3):
        assert played(on, 5, seed, 60) == played(off, 5, seed, 60)
        assert played(on, 3, seed, 3000) == played(off, 3, seed, 3000)

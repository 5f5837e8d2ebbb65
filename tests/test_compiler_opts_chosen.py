"""A choice's value read again from a local in a chained op (issue 21, item 1;
runtime/statelocals.py `_chosen`, switch `statelocals.CHOSEN`): after `loc[120] =
value`, the op's later reads of `loc[120]` read `chosen_120`.

Shown firing on the lines that follow the store, staying off past a write of the slot
(and above it in a loop that holds the write), outside the store's block, inside a
comprehension or lambda, and where the value is read once; and playing the games of
the code without it, through playouts stopped part way and the API."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from compile_support import compiled_once
from test_compiler_opts_locals import RELAY, looping, played

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, statelocals

ROOT = Path(__file__).resolve().parent.parent


def compiled(on: bool, path: Path | None = None) -> Ruleset:
    was = statelocals.CHOSEN, codegen.LAZY
    statelocals.CHOSEN, codegen.LAZY = on, False
    try:
        if path is not None:
            return compiled_once(path)
        return rulelang.compile_source(RELAY, "t.rules")
    finally:
        statelocals.CHOSEN, codegen.LAZY = was


def test_reads_after_the_store_read_the_local() -> None:
    lines = [
        "if budget:",
        "    loc[7] = value",
        "    x = f(loc[7])",
        "    if x:",
        "        g(loc[7], loc[8])",
        "    loc[9] = loc[7]  # @3",
        "    h(loc[9], loc[9])",
        "h(loc[7])",  # outside the store's block: not known to follow it
    ]
    assert statelocals._chosen(lines) == [
        "if budget:",
        "    loc[7] = chosen_7 = value",
        "    x = f(chosen_7)",
        "    if x:",
        "        g(chosen_7, loc[8])",
        "    loc[9] = chosen_9 = chosen_7  # @3",  # a copy of it, read twice after
        "    h(chosen_9, chosen_9)",
        "h(loc[7])",
    ]


def test_stays_off_past_a_write_and_in_a_loop_that_writes() -> None:
    written = ["loc[7] = value", "f(loc[7])", "f(loc[7])", "loc[7] = 3", "f(loc[7])"]
    assert statelocals._chosen(written)[1:] == ["f(chosen_7)", "f(chosen_7)", *written[3:]]
    looped = [
        "loc[7] = value",
        "f(loc[7])",
        "while x:",
        "    f(loc[7])",  # the second round comes after the write below
        "    loc[7] = 3",
        "f(loc[7])",
    ]
    assert statelocals._chosen(looped)[1:] == ["f(loc[7])", *looped[2:]]  # one read: left
    once = ["loc[7] = value", "f(loc[7])"]
    assert statelocals._chosen(once) == once
    scoped = ["loc[7] = value", "f(loc[7])", "y = [loc[7] for c in z]", "g = lambda: loc[7]"]
    assert statelocals._chosen(scoped) == scoped  # one plain read; the others keep loc


def test_a_line_holding_a_generator_reads_the_local_outside_it() -> None:
    """`statelocals.CHOSEN_SCOPED`: the reads of the line's own scope read the local,
    those inside a comprehension, a generator or a lambda keep `loc` (a local read
    there would be a cell of the op); off, the whole line keeps `loc`."""
    lines = [
        "loc[7] = value",
        "x = (f(loc[7]) if g(loc[7]) else any(h(loc[7], p) for p in ps))  # @4",
        "y = [loc[7] for c in z] + [loc[7], (lambda: loc[7])()]",
    ]
    assert statelocals._chosen(lines) == [
        "loc[7] = chosen_7 = value",
        "x = (f(chosen_7) if g(chosen_7) else any(h(loc[7], p) for p in ps))  # @4",
        "y = [loc[7] for c in z] + [chosen_7, (lambda: loc[7])()]",
    ]
    was = statelocals.CHOSEN_SCOPED
    statelocals.CHOSEN_SCOPED = False
    try:
        assert statelocals._chosen(lines) == lines
    finally:
        statelocals.CHOSEN_SCOPED = was


def test_fires_on_the_chained_op() -> None:
    on, off = looping(compiled(True)), looping(compiled(False))
    assert any(" = chosen_" in line for line in on)
    assert not any("chosen_" in line for line in off)


@pytest.mark.parametrize("limit", [1, 5, 17, 3000])
def test_the_same_games(limit: int) -> None:
    on, off = compiled(True), compiled(False)
    for players in (2, 4):
        for seed in (1, 2):
            assert played(on, players, seed, limit) == played(off, players, seed, limit)


def test_a_tile_game_plays_the_same_games() -> None:
    path = ROOT / "rulesets" / "saboteur.rules"
    on, off = compiled(True, path), compiled(False, path)
    assert any("chosen_" in s for s in on.code.source)
    # the action test of a card: its kind read from the local, around the `any`s
    assert any(re.search(r"cols_\d+\[chosen_\d+\] != ", s) for s in on.code.source)
    for seed in (1, 2, 3):
        assert played(on, 5, seed, 60) == played(off, 5, seed, 60)

"""A fixed def's kept value read once per chained op (issue 21, item 1;
runtime/statelocals.py, switch `statelocals.MEMO_LOCALS`): `(cfg.memo[0] if cfg.memo[0]
is not _UNSET else _d_start(st))`, asked at every path card of a tile game's turn,
reads a local `memo_0` read where the op starts.

Shown firing on lines, staying off where the value is asked once, where `cfg` is not
read into a local or where the op writes the slot; and playing the games of the code
without it, Saboteur's included (the first game of a table starts with nothing kept:
its calls work the value out as before)."""

from __future__ import annotations

from pathlib import Path

from test_compiler_opts_locals import played

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, statelocals

ROOT = Path(__file__).resolve().parent.parent
KEPT = "(cfg.memo[0] if cfg.memo[0] is not _UNSET else _d_start(st))"


def compiled(on: bool) -> Ruleset:
    was = statelocals.MEMO_LOCALS, codegen.LAZY
    statelocals.MEMO_LOCALS, codegen.LAZY = on, False
    try:
        return rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    finally:
        statelocals.MEMO_LOCALS, codegen.LAZY = was


def test_asked_twice_reads_a_local() -> None:
    lines = ["cfg = st.cfg", f"x = f({KEPT})", "while True:", f"    g({KEPT}, [c for c in {KEPT}])"]
    local = "(memo_0 if memo_0 is not _UNSET else _d_start(st))"
    assert statelocals.hoisted(lines) == [
        "cfg = st.cfg",
        "memo_0 = cfg.memo[0]",
        f"x = f({local})",
        "while True:",
        f"    g({local}, [c for c in {local}])",
    ]


def test_off_where_asked_once_unread_or_written() -> None:
    once = ["cfg = st.cfg", f"return f({KEPT})"]
    assert statelocals.hoisted(once) == once
    unread = [f"x = f(st.cfg.memo[0] if st.cfg.memo[0] is not _UNSET else g(), {KEPT})"]
    assert statelocals.hoisted(unread) == unread  # no `cfg` local: left as it is
    written = ["cfg = st.cfg", "cfg.memo[0] = 3", f"x = f({KEPT}, {KEPT})"]
    assert statelocals.hoisted(written) == written
    was = statelocals.MEMO_LOCALS
    statelocals.MEMO_LOCALS = False
    try:
        twice = ["cfg = st.cfg", f"x = f({KEPT}, {KEPT})"]
        assert statelocals.hoisted(twice) == twice
    finally:
        statelocals.MEMO_LOCALS = was


def test_a_tile_game_plays_the_same_games() -> None:
    on, off = compiled(True), compiled(False)
    assert any("memo_0 = cfg.memo[0]" in s for s in on.code.source)
    assert not any("memo_0" in s for s in off.code.source)
    for seed in (1, 2, 3):
        assert played(on, 5, seed, 60) == played(off, 5, seed, 60)
        assert played(on, 3, seed, 3000) == played(off, 3, seed, 3000)

"""The locals of generated functions kept out of cells (issue 21; runtime/cells.py,
switch `cells.UNCELLED`): a comprehension of an op (a def, a proc) reads the function's
locals as its own variables (`for cols, loc in ((cols, loc),) for c in ...`), a lambda
gets them as defaults, so that no local is a cell read through `LOAD_DEREF` on every
path of the function.

Shown firing on the compiled ops (no cell left), leaving alone what it must, and the
bodies it writes computing what the bodies as written compute; the games are the same
(tests/test_compiler_opts.py plays every shipped game optimised and plain, and the
digests of docs/performance.md are unchanged)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from compile_support import compiled_once

import rulelang
from rulelang.runtime import cells, codegen, exprgen, loops

ROOT = Path(__file__).resolve().parent.parent


def compiled_ops(path: Path, uncelled: bool) -> rulelang.Ruleset:
    """Every op compiled at once; the list comprehensions left as they are (with
    `loops.LISTED` they become functions of their own, and read no cells either), and
    fixed defs called (with `exprgen.MEMO_INLINE`, `hidden_goals()`, longer, is no
    longer written into `can_play` with its comprehension)."""
    was = cells.UNCELLED, codegen.LAZY, loops.LISTED, exprgen.MEMO_INLINE
    cells.UNCELLED, codegen.LAZY, loops.LISTED, exprgen.MEMO_INLINE = uncelled, False, False, False
    try:
        return compiled_once(path)
    finally:
        cells.UNCELLED, codegen.LAZY, loops.LISTED, exprgen.MEMO_INLINE = was


@pytest.mark.parametrize("name", ["saboteur.rules", "labyrinth.rules"])
def test_no_local_of_an_op_is_a_cell(name: str) -> None:
    """The shipped games' ops hold comprehensions that read `st`, `loc`, `cols`: each
    of those locals is a cell of its op, but for the rewriting."""
    on = compiled_ops(ROOT / "rulesets" / name, True)
    off = compiled_ops(ROOT / "rulesets" / name, False)
    celled = [op for op in off.code.ops if set(op.__code__.co_cellvars) & {"st", "loc", "cols"}]
    assert len(celled) >= 3
    left = [op.__code__.co_cellvars for op in on.code.ops]
    assert not any(set(c) & {"st", "loc", "cols", "zones", "cfg"} for c in left)


def test_defs_and_procs_keep_their_locals_out_of_cells_too() -> None:
    """`can_play` asks `any(can_break(c, p) for p in players)`: its `st` and its card
    were cells, read so at each of its tests."""
    path = ROOT / "rulesets" / "saboteur.rules"
    on, off = compiled_ops(path, True), compiled_ops(path, False)

    def cells_of(rules: rulelang.Ruleset, name: str) -> tuple[str, ...]:
        return rules.code.ops[0].__globals__[name].__code__.co_cellvars  # type: ignore[no-any-return]

    assert "st" in cells_of(off, "_d_can_play") and cells_of(on, "_d_can_play") == ()
    assert cells_of(on, "_p_pay") == () != cells_of(off, "_p_pay")


def function(params: str, body: list[str]) -> Any:
    """`def f(params): body`, compiled."""
    scope: dict[str, object] = {}
    exec("def f(" + params + "):\n" + "\n".join("    " + x for x in body), {}, scope)  # noqa: S102
    return scope["f"]


def run(params: str, body: list[str], *args: object) -> object:
    return function(params, body)(*args)


def written(params: str, body: list[str]) -> list[str]:
    """cells.uncelled of the body, given the locals Python found in it."""
    code = function(params, body).__code__
    return cells.uncelled(body, {*code.co_varnames, *code.co_cellvars})


BODY = [
    "loc = st[0]",
    "cols = st[1]",
    "xs = tuple([c for c in cols if c > loc])",
    "ys = {c: loc for c in xs if (_t := c * 2) > loc}",
    "k = sorted(xs, key=lambda c: -c * loc)",
    "return xs, ys, k, any(v == loc for v in cols), sum(v + loc for v in range(loc))",
]


def test_comprehensions_read_the_locals_as_their_own_variables() -> None:
    new = written("st", BODY)
    assert new[2] == "xs = tuple([c for cols, loc in ((cols, loc),) for c in cols if c > loc])"
    assert new[3] == "ys = {c: loc for loc, xs in ((loc, xs),) for c in xs if (_t := c * 2) > loc}"
    assert new[4] == "k = sorted(xs, key=((lambda loc=loc: (lambda c: -c * loc))()))"
    for st in ([2, [1, 3, 5]], [0, [4, 0]], [5, []]):
        assert run("st", new, st) == run("st", BODY, st)
    # left a cell: what `:=` names inside a comprehension (it binds in the function)
    assert function("st", new).__code__.co_cellvars == ("_t",)


def test_what_must_stay_stays() -> None:
    """A comprehension whose variable is also a local of the op (which of the two a
    read means is Python's to say), one reading nothing of the op but its first source
    (worked out outside it, no cell), and one written over two lines."""
    body = [
        "v = st",
        "a = [v for v in range(3) if v != st]",
        "b = [x for x in st]",
        "c = [x for x in range(2)\\",
        "     if x != v]",
        "return a, b, c",
    ]
    assert written("st", body) == body


def test_a_name_given_inside_a_comprehension_is_still_the_ops() -> None:
    """`:=` in a comprehension binds in the op: still so, read after it."""
    body = ["loc = st", "xs = [(_t := c + loc) for c in range(3)]", "return xs, _t"]
    new = written("st", body)
    assert new != body and run("st", new, 4) == run("st", body, 4) == ([4, 5, 6], 6)


def test_the_games_are_the_same_with_and_without() -> None:
    path = ROOT / "rulesets" / "saboteur.rules"
    records = []
    for on in (True, False):
        game = compiled_ops(path, on).new_game(4, 3)
        game.playout(random.Random(3))
        records.append((game.record(), game.results()))
    assert records[0] == records[1]


def test_a_compilation_is_shared_only_under_the_same_switches() -> None:
    """compile_support.compiled_once keeps a shipped game's compilation for the session:
    the same switches give the same Ruleset, any other switch a compilation of its own."""
    path = ROOT / "rulesets" / "saboteur.rules"
    on = compiled_ops(path, True)
    assert compiled_ops(path, True) is on
    assert compiled_ops(path, False) is not on

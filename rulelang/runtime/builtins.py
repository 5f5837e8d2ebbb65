"""Built-in functions, compiled to closures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rulelang.check.scope import TILE_FUNCS
from rulelang.check.symbols import ValueSym
from rulelang.check.types import BOOL
from rulelang.runtime.exprs import Fn, fail
from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.runtime.exprs import ExprCompiler


def compile_builtin(ec: ExprCompiler, e: A.Call) -> Fn:
    """The built-ins pysrc.py does not turn into source: text, first, last, max and min
    of a list (they check for empty lists), distance, without, count, grids and tiles."""
    name, span = e.func, e.span
    args = [ec.compile(a) for a in e.args]
    a0 = args[0]
    if name in TILE_FUNCS or name in ("cell", "neighbour"):
        return _board_call(ec, e, args)
    if name == "text":
        show = ec.fmt(ec.type_of(e.args[0]))
        return lambda st: show(st, a0(st))
    if name in ("max", "min", "first", "last"):
        def pick(st: Any) -> Any:
            seq = a0(st)
            if not seq:
                raise fail("R004", f"{name} of an empty list", span)
            if name == "first":
                return seq[0]
            if name == "last":
                return seq[-1]
            return max(seq) if name == "max" else min(seq)
        return pick
    if name == "distance":
        b, x, y = args
        return lambda st: b(st).distance(x(st), y(st))
    if name == "without":
        a1 = args[1]
        return lambda st: tuple(v for v in a0(st) if v != a1(st))
    assert name == "count", name  # the other built-ins are compiled by pysrc.py
    if ec.type_of(e.args[0]).elem == BOOL:
        return lambda st: sum(1 for x in a0(st) if x)
    return lambda st: len(a0(st))  # count of a list of things: how many there are


def _board_call(ec: ExprCompiler, e: A.Call, args: list[Fn]) -> Fn:
    name = e.func
    board_sym = ec.ref(e.args[0])
    assert isinstance(board_sym, ValueSym)
    board = board_sym.name
    if name == "cell":
        x, y = args[1], args[2]
        return lambda st: st.cfg.boards[board].cell(x(st), y(st))

    if name == "neighbour":
        node, d = args[1], args[2]

        def neighbour(st: Any) -> Any:
            nb = st.cfg.boards[board].neighbour[node(st)][d(st) % 4]
            return None if nb < 0 else nb
        return neighbour
    ops = ec.tiles[board]
    if name == "placed":
        return lambda st: tuple(i for i, t in enumerate(st.layers[ops.layer]) if t is not None)
    a1 = args[1]
    if name == "tile":
        return lambda st: st.layers[ops.layer][a1(st)]
    if name == "turn_of":
        return lambda st: st.layers[ops.layer + 1][a1(st)]
    if name == "secret_at":
        return lambda st: st.layers[ops.layer + 2][a1(st)]
    if name == "open_side":
        a2 = args[2]
        return lambda st: ops.open_side(st, a1(st), a2(st) % 4)
    if name == "fits":
        a2, a3 = args[2], args[3]
        return lambda st: ops.fits(st, a1(st), a2(st), a3(st))
    if name == "joins":
        a2, a3, a4 = args[2], args[3], args[4]
        return lambda st: ops.joins(st, a1(st), a2(st), a3(st), a4(st))
    part = {"reached": 0, "touching": 1, "spots": 2}[name]
    if part == 0:
        return lambda st: tuple(sorted(ops.network(st, a1(st))[0]))
    return lambda st: ops.network(st, a1(st))[part]

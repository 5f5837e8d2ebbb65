"""Where a tile fits: the rules' question over the spots of a network, asked at once.

Rules that lay tiles ask, for a tile in hand, at which empty cells next to the network
joined to a start it joins, either way up:

    any(any(joins(b, s, c, t, start) for t in [0, 2]) for s in spots(b, start))
    [s for s in spots(b, start) where any(joins(b, s, c, t, start) for t in [0, 2])]
    choose s in spots(b, start) require any(joins(b, s, c, t, start) for t in [0, 2])

Written as they read, each is a `joins` call per spot and turn, asked again for every
card of a hand and again for the card chosen. `TileOps.fitting` answers the whole
question from the spots' kept demands and keeps the answer per layout and per the
tile's open sides (two cards alike share it). The spots come in the order `spots`
gives, so a list or a choice built from them is the one the plain code builds, and
`any` gives what it gave: `joins` changes nothing and reads only the board and the
tile, as `fitting` does. Off with `exprgen.OPTIMISED`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.check.symbols import LocalSym, ValueSym
from rulelang.runtime.constants import constant_items
from rulelang.syntax import ast as A
from rulelang.syntax.node import nodes

if TYPE_CHECKING:
    from rulelang.runtime.exprgen import ExprGen

FITTING = True  # off: `joins` asked per spot and turn, as written (to measure it alone)


def fitting_call(ex: ExprGen, source: A.Expr, slot: int, cond: A.Expr) -> str | None:
    """The source of `_tN.fitting(st, start, tile, turns)` for the spots of `source`
    (`spots(b, start)`) whose variable (at `slot`) meets `cond` (`any(joins(b, VAR,
    tile, t, start) for t in CONSTANT NUMBERS)`), or None where they do not read so."""
    if not FITTING:
        return None
    if not (isinstance(source, A.Call) and source.func == "spots" and len(source.args) == 2):
        return None
    if not (isinstance(cond, A.Comp) and cond.func == "any" and cond.where is None):
        return None
    turns = _constant_turns(ex, cond)
    inner = ex.p.locals_of[id(cond)].slot
    call = cond.elem
    if turns is None or not (isinstance(call, A.Call) and call.func == "joins"):
        return None
    board, spot, tile, turn, start = call.args
    if not (_is_local(ex, spot, slot) and _is_local(ex, turn, inner)):
        return None
    if _board_of(ex, board) is None or _board_of(ex, board) != _board_of(ex, source.args[0]):
        return None
    if _reads(ex, tile, {slot, inner}) or _reads(ex, start, {slot, inner}):
        return None
    start_src = ex.src(start)
    if start_src != ex.src(source.args[1]):
        return None  # another start than the spots'
    ops = ex.ns.name_for(ex.tiles[_board_of(ex, board) or ""], "_t")
    return f"{ops}.fitting(st, {start_src}, {ex.src(tile)}, {turns})"


def _constant_turns(ex: ExprGen, cond: A.Comp) -> str | None:
    """`(0, 2)` where the comprehension runs over a constant list of whole numbers."""
    items = constant_items(ex.comp_source(cond))
    return None if items is None else "(" + "".join(f"{n}, " for n in items) + ")"


def _is_local(ex: ExprGen, e: A.Expr, slot: int) -> bool:
    sym = ex.ref(e) if isinstance(e, A.Name) else None
    return isinstance(sym, LocalSym) and sym.slot == slot


def _board_of(ex: ExprGen, e: A.Expr) -> str | None:
    """The name of the tiled board `e` names, or None."""
    sym = ex.ref(e) if isinstance(e, A.Name) else None
    if isinstance(sym, ValueSym) and sym.name in ex.tiles:
        return sym.name
    return None


def _reads(ex: ExprGen, e: A.Expr, slots: set[int]) -> bool:
    """Does `e` read a local at one of `slots` (a variable of the comprehensions)?"""
    for n in nodes(e):
        if isinstance(n, A.Name):
            sym = ex.ref(n)
            if isinstance(sym, LocalSym) and sym.slot in slots:
                return True
    return False

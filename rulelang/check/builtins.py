"""Signatures of the built-in functions, for the checker."""

from __future__ import annotations

from collections.abc import Callable

from rulelang.check.context import Checker
from rulelang.check.types import ANY, BOOL, INT, PLAYER, TEXT, T, compatible, list_of
from rulelang.syntax import ast as A

Sig = tuple[int, int, Callable[[list[T]], T], str]


def _elem(ts: list[T]) -> T:
    return ts[0].elem or ANY if ts and ts[0].name in ("list", "zone") else ANY


def _node(ts: list[T]) -> T:
    return T("node", ts[0].arg) if ts and ts[0].name == "board" else ANY


BUILTINS: dict[str, Sig] = {
    # name: (min args, max args, result type, what the arguments must be)
    "len": (1, 1, lambda ts: INT, "list"),
    "abs": (1, 1, lambda ts: INT, "int"),
    "max": (1, 2, lambda ts: INT, "list of numbers, or two numbers"),
    "min": (1, 2, lambda ts: INT, "list of numbers, or two numbers"),
    "sum": (1, 1, lambda ts: INT, "list of numbers"),
    "any": (1, 1, lambda ts: BOOL, "list of conditions"),
    "all": (1, 1, lambda ts: BOOL, "list of conditions"),
    "count": (1, 1, lambda ts: INT, "list"),
    "first": (1, 1, _elem, "list"),
    "last": (1, 1, _elem, "list"),
    "seat": (1, 1, lambda ts: INT, "player"),
    "next_player": (1, 1, lambda ts: PLAYER, "player"),
    "prev_player": (1, 1, lambda ts: PLAYER, "player"),
    "number": (1, 1, lambda ts: INT, "text"),
    "text": (1, 1, lambda ts: TEXT, "any value"),
    "pieces": (1, 1, lambda ts: list_of(ANY), "piece or card kind"),
    "nodes": (1, 1, lambda ts: list_of(ANY), "board"),
    "step": (3, 3, _node, "board, node, number of steps"),
    "distance": (3, 3, lambda ts: INT, "board, node, node"),
    "without": (2, 2, lambda ts: ts[0], "list, value"),
    # grids and tiles (see docs/language.md, "Grids and tiles")
    "cell": (3, 3, _node, "board, x, y"),
    "neighbour": (3, 3, _node, "board, node, direction 0-3 (N, E, S, W)"),
    "tile": (2, 2, lambda ts: ANY, "board, node"),
    "turn_of": (2, 2, lambda ts: INT, "board, node"),
    "secret_at": (2, 2, lambda ts: BOOL, "board, node"),
    "open_side": (3, 3, lambda ts: BOOL, "board, node, direction"),
    "fits": (4, 4, lambda ts: BOOL, "board, node, tile, quarter turns"),
    "joins": (5, 5, lambda ts: BOOL, "board, node, tile, quarter turns, start node"),
    "reached": (2, 2, lambda ts: list_of(ANY), "board, start node"),
    "touching": (2, 2, lambda ts: list_of(ANY), "board, start node"),
    "spots": (2, 2, lambda ts: list_of(ANY), "board, start node"),
    "placed": (1, 1, lambda ts: list_of(ANY), "board"),
}

ARG_TYPES: dict[str, list[str]] = {
    "len": ["list"], "abs": ["int"], "sum": ["list"], "any": ["list"], "all": ["list"],
    "count": ["list"], "first": ["list"], "last": ["list"], "seat": ["player"],
    "next_player": ["player"], "prev_player": ["player"], "number": ["text"],
    "pieces": ["kind"], "nodes": ["board"], "step": ["board", "int", "int"],
    "distance": ["board", "int", "int"], "without": ["list", "*"],
    "cell": ["board", "int", "int"], "neighbour": ["board", "int", "int"],
    "tile": ["board", "int"], "turn_of": ["board", "int"], "secret_at": ["board", "int"],
    "open_side": ["board", "int", "int"], "fits": ["board", "int", "*", "int"],
    "joins": ["board", "int", "*", "int", "int"], "reached": ["board", "int"],
    "touching": ["board", "int"], "spots": ["board", "int"], "placed": ["board"],
}


def _fits(want: str, got: T) -> bool:
    if want == "*" or got == ANY:
        return True
    if want == "list":
        return got.name in ("list", "zone")
    if want in ("kind", "board"):
        return got.name == want
    return compatible(T(want), got)


def check_call(c: Checker, e: A.Call, types: list[T]) -> T:
    low, high, result, what = BUILTINS[e.func]
    if not low <= len(types) <= high:
        count = str(low) if low == high else f"{low} or {high}"
        c.error("E202", f"'{e.func}' takes {count} argument{'s' if high > 1 else ''} "
                f"({what}), but {len(types)} {'were' if len(types) != 1 else 'was'} given",
                e.span)
        return ANY
    wants = ARG_TYPES.get(e.func)
    if e.func in ("max", "min"):
        wants = ["list"] if len(types) == 1 else ["int", "int"]
    for i, (arg, t) in enumerate(zip(e.args, types, strict=True)):
        if wants and i < len(wants) and not _fits(wants[i], t):
            c.error("E201", f"argument {i + 1} of '{e.func}' must be a {wants[i]}, found {t}",
                    arg.span)
        elif e.func in ("any", "all", "sum") and t.name == "list" and t.elem is not None:
            need = BOOL if e.func != "sum" else INT
            if not compatible(need, t.elem) and t.elem.name != "none":
                c.error("E201", f"'{e.func}' needs a list of {need}, found {t}", arg.span)
    return result(types)

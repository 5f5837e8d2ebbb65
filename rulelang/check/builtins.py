"""Signatures of the built-in functions, for the checker."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.check.types import ANY, BOOL, INT, PLAYER, TEXT, T, compatible, list_of
from rulelang.syntax import ast as A


def _elem(ts: list[T]) -> T:
    return ts[0].elem or ANY if ts and ts[0].name in ("list", "zone") else ANY


def _node(ts: list[T]) -> T:
    return T("node", ts[0].arg) if ts and ts[0].name == "board" else ANY


def _side_node(ts: list[T]) -> T:
    return T("node", ts[0].arg) if ts and ts[0].name == "side" else ANY


def _is(t: T) -> Callable[[list[T]], T]:
    return lambda ts: t


@dataclass(frozen=True)
class Sig:
    """A built-in function: its arguments (kinds, "*" for any) and its result."""

    args: tuple[str, ...]
    result: Callable[[list[T]], T]
    what: str  # the arguments in words, for messages
    optional: int = 0  # how many trailing arguments may be left out


BUILTINS: dict[str, Sig] = {
    "len": Sig(("list",), _is(INT), "list"),
    "abs": Sig(("int",), _is(INT), "int"),
    "max": Sig(("*", "int"), _is(INT), "list of numbers, or two numbers", optional=1),
    "min": Sig(("*", "int"), _is(INT), "list of numbers, or two numbers", optional=1),
    "sum": Sig(("list",), _is(INT), "list of numbers"),
    "any": Sig(("list",), _is(BOOL), "list of conditions"),
    "all": Sig(("list",), _is(BOOL), "list of conditions"),
    "count": Sig(("list",), _is(INT), "list"),
    "first": Sig(("list",), _elem, "list"),
    "last": Sig(("list",), _elem, "list"),
    "seat": Sig(("player",), _is(INT), "player"),
    "next_player": Sig(("player",), _is(PLAYER), "player"),
    "prev_player": Sig(("player",), _is(PLAYER), "player"),
    "number": Sig(("text",), _is(INT), "text"),
    "text": Sig(("*",), _is(TEXT), "any value"),
    "pieces": Sig(("kind",), _is(list_of(ANY)), "piece or card kind"),
    "nodes": Sig(("board",), _is(list_of(ANY)), "board"),
    "step": Sig(("board", "int", "int"), _node, "board, node, number of steps"),
    "distance": Sig(("board", "int", "int"), _is(INT), "board, node, node"),
    "path_length": Sig(
        ("board", "int", "*", "list"),
        _is(INT),
        "board, start node, goal node or list of goal nodes, list of wall nodes",
    ),
    "without": Sig(("list", "*"), lambda ts: ts[0], "list, value"),
    # the value as a player sees it, none where it reads what they may not see
    "known": Sig(("player", "*"), lambda ts: ts[1] if len(ts) > 1 else ANY, "player, value"),
    # grids and tiles (see docs/language.md, "Grids and tiles")
    "cell": Sig(("board", "int", "int"), _node, "board, x, y"),
    "neighbour": Sig(("board", "int", "int"), _node, "board, node, direction 0-7"),
    "line_from": Sig(
        ("board", "int", "int", "int"), _is(list_of(ANY)), "board, node, direction, length"
    ),
    "lines_through": Sig(("board", "int", "int"), _is(list_of(ANY)), "board, node, length"),
    "tile": Sig(("board", "int"), _is(ANY), "board, node"),
    "turn_of": Sig(("board", "int"), _is(INT), "board, node"),
    "face_up": Sig(("board", "int"), _is(ANY), "board, node"),
    "secret_at": Sig(("board", "int"), _is(BOOL), "board, node"),
    "open_side": Sig(("board", "int", "int"), _is(BOOL), "board, node, direction"),
    "fits": Sig(("board", "int", "*", "int"), _is(BOOL), "board, node, tile, quarter turns"),
    "joins": Sig(
        ("board", "int", "*", "int", "int"),
        _is(BOOL),
        "board, node, tile, quarter turns, start node",
    ),
    "reached": Sig(("board", "int"), _is(list_of(ANY)), "board, start node"),
    "touching": Sig(("board", "int"), _is(list_of(ANY)), "board, start node"),
    "spots": Sig(("board", "int"), _is(list_of(ANY)), "board, start node"),
    "placed": Sig(("board",), _is(list_of(ANY)), "board"),
    # sides of grid cells (see docs/language.md, "Board state, sides and generation")
    "side": Sig(("board", "int", "int"), _is(ANY), "board, cell, direction 0-3 (N, E, S, W)"),
    "side_cell": Sig(("side",), _side_node, "side"),
    "side_dir": Sig(("side",), _is(INT), "side"),
    "across": Sig(("side",), _side_node, "side"),
    "on_rim": Sig(("side",), _is(BOOL), "side"),
}


def _fits(want: str, got: T) -> bool:
    if want == "*" or got == ANY:
        return True
    if want == "list of nodes":
        return compatible(list_of(INT), got)
    if want == "node or list of nodes":
        return compatible(INT, got) or compatible(list_of(INT), got)
    if want == "list":
        return got.name in ("list", "zone")
    if want in ("kind", "board", "side"):
        return got.name == want
    return compatible(T(want), got)


def check_call(c: Checker, e: A.Call, types: list[T]) -> T:
    sig = BUILTINS[e.func]
    high = len(sig.args)
    low = high - sig.optional
    if not low <= len(types) <= high:
        count = str(low) if low == high else f"{low} or {high}"
        c.report(errors.wrong_arity(e.func, count, high > 1, sig.what, len(types), e.span))
        return ANY
    wants = list(sig.args)
    if e.func in ("max", "min"):
        wants = ["list"] if len(types) == 1 else ["int", "int"]
    if e.func == "path_length":  # a goal or a list of goals; walls: a list of nodes
        wants[2:] = ["node or list of nodes", "list of nodes"]
    for i, (arg, t) in enumerate(zip(e.args, types, strict=True)):
        if wants and i < len(wants) and not _fits(wants[i], t):
            c.report(errors.argument_type(i + 1, e.func, wants[i], t, arg.span))
        elif e.func in ("any", "all", "sum") and t.name == "list" and t.elem is not None:
            need = BOOL if e.func != "sum" else INT
            if not compatible(need, t.elem) and t.elem.name != "none":
                c.report(errors.list_of_wrong_type(e.func, need, t, arg.span))
    return sig.result(types)

"""How values are shown to people: players, pieces and nodes by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.check.types import T

Formatter = Callable[[Any, Any], str]


def formatter(t: T, name_cols: dict[str, int]) -> Formatter:
    """A function (state, value) -> text for values of type t.

    name_cols maps a kind to the column of its `name` attribute, if it has one.
    """
    if t.name == "player":
        return lambda st, v: "none" if v is None else st.cfg.player_names[v]
    if t.name == "entity":
        col = name_cols.get(t.arg)
        kind = t.arg
        if col is not None:
            return lambda st, v: "none" if v is None else str(st.cols[col][v])
        return lambda st, v: "none" if v is None else f"{kind}{v + 1}"
    if t.name == "node":
        board = t.arg
        return lambda st, v: "none" if v is None else st.cfg.boards[board].names[v]
    if t.name == "side":  # "3,0 south": the cell it is numbered from, and the direction
        board = t.arg
        return lambda st, v: "none" if v is None else st.cfg.boards[board].side_name(v)
    if t.name == "bool":
        return lambda st, v: "yes" if v else "no"
    if t.name == "list" and t.elem is not None:
        inner = formatter(t.elem, name_cols)
        return lambda st, v: "[" + ", ".join(inner(st, x) for x in v) + "]"
    return lambda st, v: "none" if v is None else str(v)


def plain(game: Any, t: T, v: Any) -> Any:
    """A value as plain data for views and callers: numbers and truth values stay as
    they are; players, pieces, cards and nodes become their names; lists become lists."""
    st = game.state
    if v is None:
        return None
    if t.name == "player":
        return st.cfg.player_names[v]
    if t.name == "entity":
        col = game.rules.ex.name_cols.get(t.arg)
        return str(st.cols[col][v]) if col is not None else f"{t.arg}{v + 1}"
    if t.name == "node":
        return st.cfg.boards[t.arg].names[v]
    if t.name == "side":
        return st.cfg.boards[t.arg].side_name(v)
    if t.name in ("list", "zone") and t.elem is not None:
        return [plain(game, t.elem, x) for x in v]
    if isinstance(v, tuple | range):
        return list(v)
    return v


Plain = Callable[[Any, Any], Any]


def plainer(t: T, name_cols: dict[str, int]) -> Plain:
    """A function (state, value) -> plain data for values of type t (see `plain`)."""
    if t.name == "player":
        return lambda st, v: None if v is None else st.cfg.player_names[v]
    if t.name == "entity" and t.arg in name_cols:
        col = name_cols[t.arg]
        return lambda st, v: None if v is None else str(st.cols[col][v])
    if t.name in ("entity", "node", "side"):
        show = formatter(t, name_cols)
        return lambda st, v: None if v is None else show(st, v)
    if t.name in ("list", "zone") and t.elem is not None:
        inner = plainer(t.elem, name_cols)
        return lambda st, v: [inner(st, x) for x in v]
    return lambda st, v: list(v) if isinstance(v, tuple | range) else v

"""`known(P, EXPR)`: the value of EXPR as far as player P knows it.

While `known` evaluates its expression, `State.viewer` holds P's seat, and every read
of something declared hidden (and compiled in the guarded form, see ExprGen.guarded)
asks this module whether P sees it now, as P's view would show it:

- an attribute or global P may not see makes the whole `known` none (`Unknown`);
- a zone P may not look into reads as its items, each `none` unless `reveal ... to`
  showed it to P where it lies (its size is public anyway);
- a face-down tile, or its quarter turns, reads as `none` unless shown to P;
- an attribute of a `none` item (an item P was not shown) makes the whole `known` none.

The defs EXPR calls are guarded too: the check is made where the value is read, at run
time, so a bot may write `known(me, ...)` around any expression (check/hidden.py then
leaves it to this check). Rules without `known` are compiled without any of this.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, TypeGuard

from rulelang.runtime.code import Value
from rulelang.runtime.state import known_places
from rulelang.runtime.views import may_see
from rulelang.syntax import ast as A
from rulelang.syntax.node import nodes

if TYPE_CHECKING:
    from rulelang.check.symbols import Program
    from rulelang.runtime.state import State


class Unknown(Exception):
    """A read that the viewer of `known` may not see: the whole `known` is none."""


def known(st: State, viewer: Value, fn: Callable[[], Value]) -> Value:
    """fn() as `viewer` sees it, none where it reads what viewer may not see. Inside
    another player's `known`, what a second player knows is none: it could tell the
    first what only the second sees."""
    outer = st.viewer
    if not isinstance(viewer, int) or (outer >= 0 and viewer != outer):
        return None
    st.viewer = viewer
    try:
        return fn()
    except Unknown:
        return None
    finally:
        st.viewer = outer


def unknown() -> Value:
    """A read of what nobody sees (`visible to none`), inside `known`."""
    raise Unknown


def col(st: State, slot: int, of: Value, visibility: str, player: bool) -> Value:
    """An attribute of a player (player True) or of an item, inside `known`."""
    if of is None:  # an item the viewer was not shown, or no player
        raise Unknown
    if not may_see(visibility, st.viewer, of if player else None):
        raise Unknown
    return st.cols[slot][of]


def zone(st: State, slot: int, owner: int | None, visibility: str) -> tuple[Value, ...]:
    """A zone inside `known`: its items, `none` for each one the viewer may not see."""
    items = st.zones[slot]
    viewer = st.viewer
    if may_see(visibility, viewer, owner):
        return items
    if st.shown is None:
        return (None,) * len(items)
    shown = known_places(st, viewer)
    return tuple(c if (("zone", slot), c) in shown else None for c in items)


def tile(st: State, layer: int, cell: Value, part: int) -> Value:
    """`tile` (part 0) or `turn_of` (part 1) of a cell inside `known`: none for a
    face-down tile the viewer was not shown."""
    entry = st.layers[layer].get(cell, (None, 0, False))
    if entry[2] and (("tile", layer, cell), entry[0]) not in known_places(st, st.viewer):
        return None
    return entry[part]


def uses_known(program: Program) -> bool:
    """Does any expression of the rules call the built-in `known` (not a def of that
    name)? Only then are hidden reads compiled in their guarded form."""
    defs = program.defs
    stack: list[object] = list(program.decls)
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
        elif isinstance(node, A.Call) and node.func == "known" and node.func not in defs:
            return True
        elif hasattr(node, "__dataclass_fields__"):
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__ if f != "span")
    return False


def seen_defs(program: Program) -> set[str]:
    """The defs a `known(P, EXPR)` may call while P's view is worked out: those EXPR
    calls, and those they call, at any depth. Only they may run with `State.viewer`
    set; every other def (and every statement) may read without the guards."""
    defs = program.defs
    todo: list[object] = [c.args[1] for c in nodes(program.decls) if _is_known(c, defs)]
    found: set[str] = set()
    while todo:
        for c in nodes(todo.pop()):
            if isinstance(c, A.Call) and c.func in defs and c.func not in found:
                found.add(c.func)
                todo.append(defs[c.func].decl.body)
    return found


def _is_known(node: object, defs: Mapping[str, object]) -> TypeGuard[A.Call]:
    """A call of the built-in `known` (not a def of that name)."""
    return (
        isinstance(node, A.Call)
        and node.func == "known"
        and node.func not in defs
        and len(node.args) == 2
    )

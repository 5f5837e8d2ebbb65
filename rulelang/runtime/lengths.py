"""List attributes of a fixed length: a player's attribute or a global whose default
is a list of n items, and that the rules only ever set to lists of n items (a list
written out, or a comprehension over a constant range without `where`), holds n
items in every game. Its reads at a whole number below n need no check (exprgen
`proven`), as a const's.

A rule's `set x.attr[i] = v` keeps the length (the item is replaced, or R003); the
runtime writes such attributes only with their defaults (imagine.py), with values
the rules made (determinize.py shuffles them among the players), or by `Game.edit`,
which refuses a list of another length (edit.py).
"""

from __future__ import annotations

from rulelang.check.symbols import AttrSym, Program
from rulelang.runtime.ranges import statements
from rulelang.syntax import ast as A


def fixed_lengths(program: Program) -> dict[int, int]:
    """The attributes of a fixed length, by `id` of their symbol: their length."""
    known: dict[int, int] = {}
    for sym in [*program.globals, *program.player_attrs]:  # (a kind's come from data)
        n = _length(sym.default) if sym.type.name == "list" else None
        if n:  # an empty list's reads are all out of range: nothing to gain
            known[id(sym)] = n
    for s in statements(program):
        if not isinstance(s, A.Set):
            continue
        target = program.refs.get(id(s.target))
        n = known.get(id(target)) if isinstance(target, AttrSym) else None
        if n is not None and (s.op != "=" or _length(s.value) != n):
            del known[id(target)]
    return known


def _length(e: A.Expr | None) -> int | None:
    """How many items the list e has in every evaluation, if that is plain to see."""
    if isinstance(e, A.ListLit):
        return len(e.items)
    if isinstance(e, A.Comp) and not e.func and e.where is None and e.by is None:
        src = e.source
        if (
            isinstance(src, A.Binary)
            and src.op == ".."
            and isinstance(src.left, A.IntLit)
            and isinstance(src.right, A.IntLit)
        ):
            return max(0, src.right.value - src.left.value + 1)
    return None

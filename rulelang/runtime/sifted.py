"""List comprehensions that only pick items of a zone or list by what they are
(issue 21, item 1): filtered in C, not tested item by item in generated code.

- `[c for c in pile where c.suit == hearts]`, `[c for c in pile where c.suit not in
  [hearts, clubs]]`, over a zone (which holds items, never `none`, whose attribute
  would raise): the condition reads the item only through one attribute of its kind
  that no rule changes (a card's data), compared with constants (`==`, `!=`, `in`,
  `not in`, joined by `and`, `or`, `not`). Which items pass is then the same at every
  evaluation: a `Sift` works it out once per column (the set of item indices whose
  value passes) and the comprehension is `tuple(filter(passing.__contains__,
  source))`, the items in the source's order. A card game's round reset picks its
  cards out of some 70 this way: a loop function's bytecodes an item, against one set
  lookup in C.
- `[c for c in xs]`, a copy of a list (every list value is a tuple): `tuple(xs)`,
  which is xs itself.

The condition must not be able to raise, since it is worked out for items the source
may not hold: only equality and membership of constants (never `<`, an index or a
call). A column is shared by the games of a table, copied before anything (an
edit, a determinization) writes it, and never written where no rule `set`s it
(Config.changing, late.changed_columns); a `Sift` keeps the column it worked from
and checks it by identity, so another table, or an edited copy, is worked out again. Off where the
generated code is guarded (rules that call `known`: an item's attribute is read
through seen.py there) and with the switch below.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from rulelang.check.symbols import AttrSym, LocalSym
from rulelang.runtime import late
from rulelang.runtime.code import Value
from rulelang.runtime.lines import literal
from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.runtime.exprgen import ExprGen

SIFTED = True  # off: such comprehensions are loops over their items, as written
ZONE_READ = re.compile(r"(?:st\.)?zones\[([0-9a-z_ +.]+)\]")  # as straight.py's
_COMPARE = {"==": "==", "!=": "!=", "in": "in", "notin": "not in"}


class Sift:
    """The items of one kind that pass a fixed test of one of their columns, worked out
    per column (by identity). `kept` is one attribute, replaced whole, so that threads
    sharing a ruleset never read one column's items with another's column."""

    __slots__ = ("kept", "test")

    def __init__(self, test: Callable[[Value], bool]) -> None:
        self.test = test
        self.kept: tuple[object, frozenset[int]] = (None, frozenset())

    def items(self, col: list[Value], source: tuple[int, ...]) -> tuple[int, ...]:
        """The items of source that pass, in order."""
        kept = self.kept
        if kept[0] is not col:
            test = self.test
            kept = self.kept = (col, frozenset(i for i, v in enumerate(col) if test(v)))
        return tuple(filter(kept[1].__contains__, source))


def sifted(ex: ExprGen, e: A.Comp, slot: int, source: str) -> str | None:
    """The source of the list comprehension e (its variable at `slot`, its source
    compiled as `source`) as a copy or a sift (see above), or None."""
    if not SIFTED or ex.guarded or e.func != "" or e.by is not None:
        return None
    if e.where is None:
        return f"tuple({source})" if ex.is_var(e.elem, slot) else None
    if not ex.is_var(e.elem, slot) or not ZONE_READ.fullmatch(source):
        return None  # (a list may hold `none`, whose attribute raises: a zone never does)
    cols: set[int] = set()
    test = _test(ex, e.where, slot, cols)
    if test is None or len(cols) != 1:
        return None
    col = cols.pop()
    if ex.changing is None:  # worked out once, where first asked
        ex.changing = frozenset(late.changed_columns(ex.p))
    if col in ex.changing:
        return None
    sift = Sift(eval(f"lambda _x: {test}", {}))  # noqa: S307 (constants and `_x` only)
    return f"{ex.ns.name_for(sift, '_sift')}.items(st.cols[{col}], {source})"


def _test(ex: ExprGen, e: A.Expr, slot: int, cols: set[int]) -> str | None:
    """The condition as Python over `_x`, the item's value in its column, or None where
    it reads more than that column and constants, or might raise."""
    if isinstance(e, A.Unary) and e.op == "not":
        inner = _test(ex, e.operand, slot, cols)
        return None if inner is None else f"(not {inner})"
    if isinstance(e, A.Binary) and e.op in ("and", "or"):
        left, right = _test(ex, e.left, slot, cols), _test(ex, e.right, slot, cols)
        return None if left is None or right is None else f"({left} {e.op} {right})"
    if isinstance(e, A.Binary) and e.op in _COMPARE:
        value = _constant(ex, e.right, e.op in ("==", "!="))
        if value is None or not _column(ex, e.left, slot, cols):
            return None
        return f"(_x {_COMPARE[e.op]} {value})"
    if _column(ex, e, slot, cols) and ex.type_of(e).name == "bool":
        return "bool(_x)"
    return None


def _column(ex: ExprGen, e: A.Expr, slot: int, cols: set[int]) -> bool:
    """Is e `v.attr`, v the comprehension's variable and attr an attribute of its kind
    (added to cols)?"""
    sym = ex.ref(e)
    if not (isinstance(e, A.Attr) and type(sym) is AttrSym and ex.is_var(e.obj, slot)):
        return False
    if sym.owner in ("player", "global") or not isinstance(ex.ref(e.obj), LocalSym):
        return False
    cols.add(sym.slot)
    return True


def _constant(ex: ExprGen, e: A.Expr, compared: bool) -> str | None:
    """The Python literal of e, where its generated source is one (an enum value, a
    number, a text; for `in`, a list of them: a tuple, never a text, which would raise
    for a value that is not one), else None."""
    if isinstance(e, A.Name | A.Attr | A.ListLit | A.IntLit | A.TextLit | A.BoolLit | A.NoneLit):
        try:
            value = literal(ex.src(e))  # ast.literal_eval, one thread at a time
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        if compared or isinstance(value, tuple):
            return repr(value)
    return None

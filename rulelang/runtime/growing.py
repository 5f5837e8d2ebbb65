"""Lists a def builds in its locals: which may be Python lists grown in place.

A rule list is a tuple, never changed in place, so `set xs = xs + [x]` copies the
whole list: building a list of n items in a loop costs n^2. Inside the block of a def
(a Python function whose locals are Python variables) a local that is only read where
a Python list reads as the tuple would (its length, an item, `in`, the source of a
comprehension or of a loop that does not change it) can be a Python list instead:
`set xs = xs + [x]` becomes `xs.append(x)`, and every other read (the list returned,
passed, compared, added to another) is a tuple made of it at that point, so nothing
that keeps it sees it change. A local that is only grown and tested with `in` (the
places a search has seen) is a Python set of its items instead, so that the test
costs the same however long the list. (A set kept beside a list that is also read
otherwise was tried: making and growing both cost more than the short scans saved.)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rulelang.check.symbols import LocalSym, Program
from rulelang.syntax import ast as A

# off: a def's local list whose items are set in a loop is a tuple made anew at each set
ITEMS_IN_PLACE = True


@dataclass
class Grown:
    """The locals of one def held as Python lists (by slot), and those held as Python
    sets instead (only grown and tested with `in`)."""

    lists: set[int] = field(default_factory=set)
    sets: set[int] = field(default_factory=set)


def grown_locals(program: Program, body: tuple[A.Stmt, ...], lets: list[int]) -> Grown:
    """Which of a def's own locals (`lets`) to hold as Python lists: those of list type
    that the block grows in a loop (`set xs = xs + ...`) and never changes an item of."""
    typed = {
        slot
        for slot in lets
        if any(s.slot == slot and s.type.name == "list" for s in _lets_of(program, body))
    }
    grows: set[int] = set()
    items_set: set[int] = set()
    in_place: set[int] = set()  # an item set (`set xs[i] = v`) in a loop
    otherwise: set[int] = set()  # read other than by `in` or to be grown
    for stmt, depth in _statements(body, 0):
        if isinstance(stmt, A.Set):
            root = stmt.target
            while isinstance(root, A.Index):
                root = root.obj
            slot = _slot(program, root)
            if slot is not None and _one_item(stmt) and depth > 0 and ITEMS_IN_PLACE:
                in_place.add(slot)  # (set once or twice: cheaper copied)
            elif slot is not None and root is not stmt.target:
                items_set.add(slot)
            elif slot is not None and depth > 0 and appended(program, stmt) is not None:
                grows.add(slot)  # in a loop: a list grown once or twice is cheaper copied
        otherwise |= _read_otherwise(program, stmt)
    lists = (typed & (grows | in_place)) - items_set
    sets = lists - otherwise
    return Grown(lists - sets, sets)


def _one_item(s: A.Set) -> bool:
    """Is the `set` one of an item of a local's list (`set xs[i] = v`, one level)?"""
    t = s.target
    return s.op == "=" and isinstance(t, A.Index) and not t.pair and isinstance(t.obj, A.Name)


def _read_otherwise(program: Program, stmt: A.Stmt) -> set[int]:
    """The locals a statement reads other than as the list of an `in` test or the list
    its own `set xs = xs + ...` grows."""
    target = stmt.target if isinstance(stmt, A.Set) else None
    grown = None
    if isinstance(stmt, A.Set) and isinstance(stmt.value, A.Binary):
        grown = stmt.value.left if appended(program, stmt) is not None else None
    exprs = list(_expressions_of(stmt))
    tested = {id(e.right) for e in exprs if isinstance(e, A.Binary) and e.op in ("in", "notin")}
    return {
        slot
        for e in exprs
        if e is not target
        and e is not grown
        and id(e) not in tested
        and (slot := _slot(program, e)) is not None
    }


def appended(program: Program, s: A.Set) -> A.Expr | None:
    """What `set xs = xs + MORE` adds to the local xs (MORE), or None for another
    kind of `set`."""
    if s.op != "=" or not isinstance(s.target, A.Name):
        return None
    v = s.value
    if not (isinstance(v, A.Binary) and v.op == "+" and isinstance(v.left, A.Name)):
        return None
    mine = _slot(program, s.target)
    return v.right if mine is not None and _slot(program, v.left) == mine else None


def _slot(program: Program, e: A.Expr) -> int | None:
    sym = program.refs.get(id(e))
    return sym.slot if isinstance(e, A.Name) and isinstance(sym, LocalSym) else None


def _lets_of(program: Program, body: tuple[A.Stmt, ...]) -> Iterator[LocalSym]:
    for stmt, _depth in _statements(body, 0):
        if isinstance(stmt, A.Let):
            yield program.locals_of[id(stmt)]


def _statements(body: tuple[A.Stmt, ...], depth: int) -> Iterator[tuple[A.Stmt, int]]:
    """Every statement of a block at any depth, with how many loops it lies in."""
    for s in body:
        yield s, depth
        inner = depth + 1 if isinstance(s, A.While | A.For | A.Repeat) else depth
        for block in A.blocks_in(s):
            yield from _statements(block, inner)


def _expressions_of(stmt: A.Stmt) -> Iterator[A.Expr]:
    """The expressions of one statement (not of the blocks inside it)."""
    todo: list[object] = [getattr(stmt, f) for f in stmt.__dataclass_fields__ if f != "body"]
    while todo:
        x = todo.pop()
        if isinstance(x, tuple | list):
            todo.extend(x)
        elif isinstance(x, A.Expr):
            yield x
            todo.extend(getattr(x, f) for f in x.__dataclass_fields__)

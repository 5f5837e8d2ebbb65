"""Pass 4: fixed values. An order to compute them in, and tables that cover every count."""

from __future__ import annotations

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.check.symbols import ValueSym
from rulelang.syntax import ast as A


def run(c: Checker) -> None:
    _order(c)
    _coverage(c)


def _order(c: Checker) -> None:
    done: set[int] = set()
    active: set[int] = set()
    order: list[ValueSym] = []

    def visit(sym: ValueSym) -> None:
        if id(sym) in done:
            return
        if id(sym) in active:
            c.report(errors.defined_in_terms_of_itself(sym.name, sym.span))
            return
        active.add(id(sym))
        for dep in sorted(sym.deps, key=lambda s: s.name):
            visit(dep)
        active.discard(id(sym))
        done.add(id(sym))
        order.append(sym)

    for sym in c.names.values():
        if isinstance(sym, ValueSym):
            visit(sym)
    for i, sym in enumerate(order):
        sym.slot = i
    c.values_in_order = order


def _coverage(c: Checker) -> None:
    if c.players is None:
        return
    seen: set[int] = set()
    for sym, _span in c.by_players:
        if id(sym) in seen or not isinstance(sym, ValueSym):
            continue
        seen.add(id(sym))
        assert isinstance(sym.decl, A.TableDecl)
        entries = sym.decl.entries  # compared as intervals: a key range may be huge
        missing = [
            n
            for n in range(c.players[0], c.players[1] + 1)
            if not any(lo <= n <= hi for lo, hi, _e in entries)
        ]
        if missing:
            c.report(errors.table_lacks_players(sym.name, missing, sym.span))

"""What the end rules read, so that they are checked exactly when it may have changed."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rulelang.check.scope import TILE_FUNCS
from rulelang.check.symbols import AttrSym, DefSym, Program, ZoneSym
from rulelang.syntax import ast as A


@dataclass(frozen=True, slots=True)
class Reads:
    attrs: frozenset[AttrSym]  # player, kind and global attributes
    zones: frozenset[ZoneSym]
    current: bool  # the turn player
    turn: bool  # turn_number or round_number
    tiles: bool  # anything about tiles on a board

    def zone(self, zones: list[ZoneSym], *names: str) -> bool:
        return any(z in self.zones for z in zones if z.name in names)

    def kind_zone(self, zones: list[ZoneSym], kind: str) -> bool:
        return any(z in self.zones for z in zones if z.kind == kind)


def expressions(program: Program, roots: list[object]) -> Iterator[A.Expr]:
    """Every expression node within roots, and within the body of every def they call
    (each def once; the statements of a def's block too): the walk both end-rule reads
    and fixed defs are found by."""
    seen: set[str] = set()
    stack: list[object] = list(roots)
    while stack:
        node = stack.pop()
        if isinstance(node, tuple | list):
            stack.extend(node)
            continue
        if isinstance(node, A.Stmt):  # in the block of a def
            stack.extend(getattr(node, f) for f in node.__dataclass_fields__)
            continue
        if not isinstance(node, A.Expr):
            continue
        yield node
        sym = program.refs.get(id(node))
        if isinstance(sym, DefSym) and sym.name not in seen:
            seen.add(sym.name)
            stack.append(sym.decl.body)
        stack.extend(getattr(node, f) for f in node.__dataclass_fields__)


def end_reads(program: Program) -> Reads:
    """Everything any end condition may read, through the defs it calls too."""
    attrs: set[AttrSym] = set()
    zones: set[ZoneSym] = set()
    current = turn = tiles = False
    for node in expressions(program, [end.cond for end in program.ends]):
        sym = program.refs.get(id(node))
        if isinstance(sym, AttrSym):
            attrs.add(sym)
        elif isinstance(sym, ZoneSym):
            zones.add(sym)
        if isinstance(node, A.Name):
            current |= node.id == "current"
            turn |= node.id in ("turn_number", "round_number")
        if isinstance(node, A.Call) and node.func in TILE_FUNCS:
            tiles = True
    return Reads(frozenset(attrs), frozenset(zones), current, turn, tiles)

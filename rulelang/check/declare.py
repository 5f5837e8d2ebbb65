"""Pass 1: collect every declaration into a symbol, reporting duplicates."""

from __future__ import annotations

from typing import assert_never, cast

from rulelang import errors
from rulelang.check.context import Checker
from rulelang.check.scope import open_grid
from rulelang.check.symbols import (
    AttrSym,
    BoardAttrSym,
    BotSym,
    DefSym,
    EnumSym,
    EstimateSym,
    KindSym,
    MeasureSym,
    PhaseSym,
    ProcSym,
    ValueSym,
    ZoneSym,
)
from rulelang.check.types import ANY, T, list_of
from rulelang.diagnostics import Span
from rulelang.syntax import ast as A

MAX_PLAYERS = 100  # a table bigger than this is not a board game (docs/language.md, Limits)


def run(c: Checker) -> None:
    for decl in c.decls:
        _declare(c, decl)
    if c.players is None and not c.library:
        c.report(errors.no_player_count(Span(c.main_file, 1, 1)))


def _declare(c: Checker, decl: A.Decl) -> None:
    """Collect one declaration: one case per kind; a kind missing here is a type error
    (assert_never)."""
    d = cast(A.AnyDecl, decl)  # every Decl is one of A.AnyDecl
    match d:
        case A.GameDecl():
            c.title = d.title
        case A.LibraryDecl():
            c.library = True
            c.title = d.title
        case A.PlayersDecl():
            _players(c, d)
        case A.ParamDecl() | A.ConstDecl() | A.TableDecl() | A.DieDecl() | A.BoardDecl():
            c.define(ValueSym(d.name, d.span, ANY, VALUE_WORDS[type(d)], d))
            if isinstance(d, A.BoardDecl):
                _board_attrs(c, d)
        case A.EnumDecl():
            _enum(c, d)
        case A.KindDecl():
            _kind(c, d)
        case A.PlayerDecl():
            for a in d.attrs:
                _attr(c, a, "player", c.player_attrs)
        case A.GlobalDecl():
            for a in d.attrs:
                sym = _attr(c, a, "global", c.global_attrs)
                if sym is not None:
                    c.define(sym)
        case A.ZoneDecl():
            if d.visibility == "others" and not d.per_player:  # nobody owns a single zone
                c.report(errors.owner_visibility(d.span, "others"))
            zone = ZoneSym(
                d.name, d.span, ANY, d.kind, d.per_player, d.visibility, index=len(c.zones)
            )
            c.zones.append(zone)
            c.define(zone)
        case A.DefDecl():
            c.define(DefSym(d.name, d.span, ANY, d))
        case A.ProcDecl():
            c.define(ProcSym(d.name, d.span, ANY, d))
        case A.SetupDecl():
            c.setup = d.body
        case A.PhaseDecl():
            _phase(c, d)
        case A.EndDecl():
            c.ends.append(d)
        case A.BotDecl():
            if d.name in c.bots:
                c.duplicate(d.name, d.span, c.bots[d.name].span)
                return
            c.bots[d.name] = BotSym(d.name, d.span, ANY, d)
        case A.EstimateDecl():
            if c.estimate is not None:
                c.duplicate(d.name, d.span, c.estimate.span)
                return
            c.estimate = EstimateSym(d.name, d.span, ANY, d)
        case A.MeasureDecl():
            if d.name in c.measures:
                c.duplicate(d.name, d.span, c.measures[d.name].span)
                return
            c.measures[d.name] = MeasureSym(d.name, d.span, ANY, d)
        case A.ImportDecl() | A.ExtendsDecl():
            pass  # the loader has followed them (rulelang/loader.py)
        case _:
            assert_never(d)


VALUE_WORDS: dict[type[A.Decl], str] = {
    A.ParamDecl: "param",
    A.ConstDecl: "const",
    A.TableDecl: "table",
    A.DieDecl: "die",
    A.BoardDecl: "board",
}


def _players(c: Checker, d: A.PlayersDecl) -> None:
    if d.low < 1 or d.high < d.low:
        c.report(errors.bad_player_range(d.low, d.high, d.span))
    elif d.high > MAX_PLAYERS:
        c.report(errors.too_many_players(MAX_PLAYERS, d.high, d.span))
    c.players = (d.low, min(d.high, MAX_PLAYERS))


def _kind(c: Checker, d: A.KindDecl) -> None:
    kind = KindSym(d.name, d.span, T("kind", d.name), d, index=len(c.kinds))
    if d.name in c.kinds_by_name:
        c.duplicate(d.name, d.span, c.kinds_by_name[d.name].span)
        return
    if d.name in c.enums:  # both are types
        c.duplicate(d.name, d.span, c.enums[d.name].span)
        return
    c.kinds.append(kind)
    c.kinds_by_name[d.name] = kind
    for a in d.attrs:
        _attr(c, a, d.name, kind.attrs)


def _phase(c: Checker, d: A.PhaseDecl) -> None:
    if any(p.name == d.name for p in c.phases):
        old = next(p for p in c.phases if p.name == d.name)
        c.report(errors.phase_defined_twice(d.name, d.span, old.span))
        return
    c.phases.append(PhaseSym(d.name, d.span, ANY, d, index=len(c.phases)))


def _enum(c: Checker, d: A.EnumDecl) -> None:
    seen: dict[str, Span] = {}
    for value, span in zip(d.values, d.value_spans or [d.span] * len(d.values), strict=True):
        if value in seen:
            c.duplicate(value, span, seen[value])
        seen.setdefault(value, span)
    if d.name in c.kinds_by_name:  # both are types
        c.duplicate(d.name, d.span, c.kinds_by_name[d.name].span)
        return
    if d.name in c.names:
        c.duplicate(d.name, d.span, c.names[d.name].span)
        return
    sym = EnumSym(d.name, d.span, T("enum", d.name), d, tuple(seen))
    c.names[d.name] = sym
    c.enums[d.name] = sym


def _board_attrs(c: Checker, d: A.BoardDecl) -> None:
    """The state and edge attributes of a board (its fixed ones are checked by name in
    resolve); a name used twice among them all is E102, as for any attribute."""
    into = c.board_attrs.setdefault(d.name, {})
    fixed = {n: d.span for n, _e in d.attrs}
    if open_grid(d):  # one value per cell: endless
        for n, e in d.attrs:
            c.report(errors.open_grid_listed(f"attribute '{n}'", d.name, e.span))
        for a in [*d.state, *d.edges]:
            c.report(errors.open_grid_listed(f"attribute '{a.name}'", d.name, a.span))
    if d.shape == "grid":
        fixed.update({"x": d.span, "y": d.span})
    for a, edge in [(a, False) for a in d.state] + [(a, True) for a in d.edges]:
        if edge and d.shape != "grid":
            c.report(errors.edge_needs_grid(a.name, d.name, d.shape, a.span))
        if a.name in fixed or a.name in into:
            first = fixed[a.name] if a.name in fixed else into[a.name].span
            c.duplicate(a.name, a.span, first)
            continue
        into[a.name] = BoardAttrSym(
            a.name, a.span, ANY, d.name, a.default, a.visibility, board=d.name, edge=edge
        )
        into[a.name].display = a.display
        _check_display(c, a)


def _check_display(c: Checker, a: A.AttrDecl) -> None:
    """`display` names how screens show an attribute: E280 for a word they do not know.
    (`node(B)`: B a board declared above.)"""
    board = a.display[5:-1] if a.display.startswith("node(") else ""
    sym = c.names.get(board)
    is_board = isinstance(sym, ValueSym) and isinstance(sym.decl, A.BoardDecl)
    if a.display not in ("", "direction", "bookkeeping") and not is_board:
        c.report(errors.unknown_display(a.name, a.display, a.span))


def _attr(c: Checker, a: A.AttrDecl, owner: str, into: dict[str, AttrSym]) -> AttrSym | None:
    if a.name in into:
        c.duplicate(a.name, a.span, into[a.name].span)
        return None
    _check_display(c, a)
    sym = AttrSym(a.name, a.span, ANY, owner, a.default, a.visibility, display=a.display)
    into[a.name] = sym
    return sym


def resolve_type(c: Checker, t: A.TypeExpr) -> T:
    """Turn a written type into a T, reporting unknown kinds and boards."""
    if t.name in ("int", "bool", "text", "player"):
        return T(t.name)
    if t.name == "list":
        assert t.elem is not None
        return list_of(resolve_type(c, t.elem))
    if t.name in ("node", "side"):
        sym = c.names.get(t.arg)
        if not (isinstance(sym, ValueSym) and sym.what == "board"):
            boards = [
                s.name for s in c.names.values() if isinstance(s, ValueSym) and s.what == "board"
            ]
            c.unknown("board", t.arg, t.span, boards)
        return T(t.name, t.arg)
    if t.arg in c.kinds_by_name:
        return T("entity", t.arg)
    if t.arg in c.enums:
        return T("enum", t.arg)
    types = ["int", "bool", "text", "player", *c.kinds_by_name, *c.enums]
    c.unknown("type", t.arg, t.span, types)
    return ANY

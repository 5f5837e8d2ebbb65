"""What names resolve to. The checker builds these; the compiler reads them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rulelang.check.types import T
from rulelang.diagnostics import Sources, Span
from rulelang.syntax import ast as A

if TYPE_CHECKING:
    from rulelang.check.layout import Layout


@dataclass(eq=False)
class Sym:
    name: str
    span: Span
    type: T


@dataclass(eq=False)
class ValueSym(Sym):
    """A value fixed for the whole game: param, const, table, die or board."""

    what: str  # param const table die board
    decl: A.ValueDecl
    slot: int = -1
    deps: set[ValueSym] = field(default_factory=set)


@dataclass(eq=False)
class AttrSym(Sym):
    owner: str  # "player", "global" or a kind name
    default: A.Expr | None
    visibility: str
    slot: int = -1  # column (player/kind attrs) or variable slot (globals)
    display: str = ""  # how screens show it (A.AttrDecl.display)


@dataclass(eq=False)
class BoardAttrSym(AttrSym):
    """A `state` (one value per node) or `edge` attribute (one value per side of a grid
    cell) of a board: a column of the state, indexed by node or by side number."""

    board: str = ""
    edge: bool = False


@dataclass(eq=False)
class KindSym(Sym):
    decl: A.KindDecl
    attrs: dict[str, AttrSym] = field(default_factory=dict)
    index: int = -1


@dataclass(eq=False)
class EnumValueSym(Sym):
    """One value of an enum: `card_kind.path`, or `path` where a card_kind is expected.
    At run time it is the interned text of its name."""

    enum: str
    value: str


@dataclass(eq=False)
class EnumSym(Sym):
    """An enum: its values, in the order written. Read as a value, it is the list of
    them."""

    decl: A.EnumDecl
    values: tuple[str, ...] = ()
    members: dict[str, EnumValueSym] = field(default_factory=dict)

    def member(self, value: str) -> EnumValueSym:
        sym = self.members.get(value)
        if sym is None:
            sym = self.members[value] = EnumValueSym(
                value, self.span, T("enum", self.name), self.name, value
            )
        return sym


@dataclass(eq=False)
class ZoneSym(Sym):
    kind: str
    per_player: bool
    visibility: str
    index: int = -1


@dataclass(eq=False)
class LocalSym(Sym):
    slot: int = -1


@dataclass(eq=False)
class DefSym(Sym):
    decl: A.DefDecl
    params: list[LocalSym] = field(default_factory=list)


@dataclass(eq=False)
class ProcSym(Sym):
    decl: A.ProcDecl
    params: list[LocalSym] = field(default_factory=list)
    pauses: bool = False


def imagine_proc(names: Mapping[str, object]) -> ProcSym | None:
    """The `imagine` block of a program (a proc named IMAGINE made by `imagine {...}`,
    not one a rule file wrote under that name), or None."""
    sym = names.get(A.IMAGINE)
    return sym if isinstance(sym, ProcSym) and sym.decl.imagine else None


@dataclass(eq=False)
class PhaseSym(Sym):
    decl: A.PhaseDecl
    index: int = -1


@dataclass(eq=False)
class BuiltinSym(Sym):
    """players, player_count, current, index."""


@dataclass(eq=False)
class BotSym(Sym):
    """A `bot`: `me` (the bot's player) and, per choice it has rules for, the local
    that holds the option under consideration."""

    decl: A.BotDecl
    me: LocalSym | None = None
    options: dict[str, LocalSym] = field(default_factory=dict)


@dataclass(eq=False)
class EstimateSym(Sym):
    """The `estimate`: `me` is the player whose chance of winning it gives."""

    decl: A.EstimateDecl
    me: LocalSym | None = None


@dataclass(eq=False)
class MeasureSym(Sym):
    """A `measure`: for one per player, `me` is the player measured."""

    decl: A.MeasureDecl
    me: LocalSym | None = None
    boolean: bool = False  # a yes/no measure: reported as a share of games


@dataclass
class Program:
    """A checked ruleset: declarations, symbols, and what every name node means."""

    title: str
    library: bool
    min_players: int
    max_players: int
    decls: list[A.Decl]
    values: list[ValueSym]  # in evaluation order
    kinds: list[KindSym]
    zones: list[ZoneSym]
    enums: dict[str, EnumSym]
    player_attrs: list[AttrSym]
    globals: list[AttrSym]
    columns: list[AttrSym]  # every player/kind attribute, by column
    defs: dict[str, DefSym]
    procs: dict[str, ProcSym]
    phases: list[PhaseSym]
    setup: tuple[A.Stmt, ...]
    ends: list[A.EndDecl]
    n_locals: int
    refs: dict[int, Sym]  # id(ast node) -> symbol for names, attrs, calls
    types: dict[int, T]  # id(expr) -> type
    locals_of: dict[int, LocalSym]  # id(stmt or expr) -> the local it binds
    hidden: dict[int, int]  # id(stmt) -> extra hidden slot (loop state)
    sources: Sources | None = None
    files: list[str] = field(default_factory=list)
    data_rows: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    layout: Layout | None = None
    bots: list[BotSym] = field(default_factory=list)  # in the order declared
    estimate: EstimateSym | None = None
    measures: list[MeasureSym] = field(default_factory=list)  # in the order declared

"""The typed AST: frozen, slotted dataclasses that carry a source span."""

from __future__ import annotations

from dataclasses import dataclass

from rulelang.diagnostics import Span

# ---------------------------------------------------------------- types


@dataclass(frozen=True, slots=True)
class TypeExpr:
    span: Span
    name: str  # int, bool, text, player, node, list, kind
    arg: str = ""  # board name for node, kind name for kind
    elem: TypeExpr | None = None  # element type for list


# ---------------------------------------------------------------- expressions


@dataclass(frozen=True, slots=True)
class Expr:
    span: Span


@dataclass(frozen=True, slots=True)
class IntLit(Expr):
    value: int


@dataclass(frozen=True, slots=True)
class BoolLit(Expr):
    value: bool


@dataclass(frozen=True, slots=True)
class NoneLit(Expr):
    pass


@dataclass(frozen=True, slots=True)
class TextLit(Expr):
    parts: tuple[str | Expr, ...]  # plain text and interpolated {expressions}


@dataclass(frozen=True, slots=True)
class Name(Expr):
    id: str


@dataclass(frozen=True, slots=True)
class Attr(Expr):
    obj: Expr
    name: str


@dataclass(frozen=True, slots=True)
class Index(Expr):
    obj: Expr
    index: Expr


@dataclass(frozen=True, slots=True)
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Comp(Expr):
    """`[elem for var in source where cond]`, or `func(elem for ...)` when func is set."""

    func: str
    elem: Expr
    var: str
    source: Expr
    where: Expr | None
    by: Expr | None = None  # sort key of a list comprehension (ascending)


@dataclass(frozen=True, slots=True)
class ListLit(Expr):
    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary(Expr):
    op: str  # + - * / % == != < <= > >= in notin and or ..
    left: Expr
    right: Expr


# ---------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class Stmt:
    span: Span


@dataclass(frozen=True, slots=True)
class Let(Stmt):
    name: str
    type: TypeExpr | None
    value: Expr


@dataclass(frozen=True, slots=True)
class Set(Stmt):
    target: Expr  # Name or Attr
    op: str  # = += -=
    value: Expr


@dataclass(frozen=True, slots=True)
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class While(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class For(Stmt):
    var: str
    source: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Require:
    span: Span
    cond: Expr
    reason: TextLit


@dataclass(frozen=True, slots=True)
class Choose(Stmt):
    var: str
    domain: Expr
    requires: tuple[Require, ...]
    by: Expr | None
    prompt: TextLit | None
    allow_pass: bool
    secret: bool


@dataclass(frozen=True, slots=True)
class Roll(Stmt):
    var: str
    die: str


@dataclass(frozen=True, slots=True)
class ShuffleLet(Stmt):
    var: str
    source: Expr


@dataclass(frozen=True, slots=True)
class ShuffleZone(Stmt):
    zone: str


@dataclass(frozen=True, slots=True)
class Pick(Stmt):
    var: str
    source: Expr


@dataclass(frozen=True, slots=True)
class ZoneRef:
    span: Span
    zone: str
    owner: Expr | None


@dataclass(frozen=True, slots=True)
class Deal(Stmt):
    count: Expr
    source: str
    dest: str


@dataclass(frozen=True, slots=True)
class MoveItem(Stmt):
    item: Expr
    source: ZoneRef
    dest: ZoneRef


@dataclass(frozen=True, slots=True)
class AddItems(Stmt):
    items: Expr  # one piece or card, or a list of them
    dest: ZoneRef


@dataclass(frozen=True, slots=True)
class Place(Stmt):
    tile: Expr
    board: str
    at: Expr
    turn: Expr | None  # quarter turns clockwise
    secret: bool  # face down: nobody sees it, and any side matches it


@dataclass(frozen=True, slots=True)
class Clear(Stmt):
    board: str
    at: Expr


@dataclass(frozen=True, slots=True)
class Reveal(Stmt):
    board: str
    at: Expr
    turn: Expr | None


@dataclass(frozen=True, slots=True)
class Do(Stmt):
    proc: str
    args: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Say(Stmt):
    message: Expr
    to: Expr | None


@dataclass(frozen=True, slots=True)
class Outcome(Stmt):
    kind: str  # win, draw, rank
    players: Expr


# ---------------------------------------------------------------- declarations


@dataclass(frozen=True, slots=True)
class Decl:
    span: Span


@dataclass(frozen=True, slots=True)
class GameDecl(Decl):
    title: str


@dataclass(frozen=True, slots=True)
class LibraryDecl(Decl):
    title: str


@dataclass(frozen=True, slots=True)
class PlayersDecl(Decl):
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class ImportDecl(Decl):
    module: str


@dataclass(frozen=True, slots=True)
class ExtendsDecl(Decl):
    path: str


@dataclass(frozen=True, slots=True)
class Named(Decl):
    name: str
    override: bool


@dataclass(frozen=True, slots=True)
class ParamDecl(Named):
    default: Expr
    doc: str


@dataclass(frozen=True, slots=True)
class ConstDecl(Named):
    value: Expr


@dataclass(frozen=True, slots=True)
class TableDecl(Named):
    entries: tuple[tuple[int, int, Expr], ...]  # low, high, value


@dataclass(frozen=True, slots=True)
class DieDecl(Named):
    faces: Expr


@dataclass(frozen=True, slots=True)
class BoardDecl(Named):
    shape: str
    args: tuple[Expr, ...]
    attrs: tuple[tuple[str, Expr], ...]
    tiles: str = ""  # the piece or card kind that can be placed on its cells


@dataclass(frozen=True, slots=True)
class AttrDecl:
    span: Span
    name: str
    type: TypeExpr
    default: Expr | None
    visibility: str  # all, owner, none


@dataclass(frozen=True, slots=True)
class KindDecl(Named):
    category: str  # piece or card
    count: Expr | None
    attrs: tuple[AttrDecl, ...]
    data: str = ""  # a YAML file (next to the rule file) listing the pieces or cards


@dataclass(frozen=True, slots=True)
class PlayerDecl(Decl):
    attrs: tuple[AttrDecl, ...]


@dataclass(frozen=True, slots=True)
class GlobalDecl(Decl):
    attrs: tuple[AttrDecl, ...]


@dataclass(frozen=True, slots=True)
class ZoneDecl(Named):
    kind: str
    per_player: bool
    visibility: str


@dataclass(frozen=True, slots=True)
class ParamSpec:
    span: Span
    name: str
    type: TypeExpr


@dataclass(frozen=True, slots=True)
class DefDecl(Named):
    params: tuple[ParamSpec, ...]
    body: Expr


@dataclass(frozen=True, slots=True)
class ProcDecl(Named):
    params: tuple[ParamSpec, ...]
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class SetupDecl(Named):
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class PhaseDecl(Named):
    begin: tuple[Stmt, ...]
    turn: tuple[Stmt, ...]
    order: str
    order_from: Expr | None
    end_when: Expr | None
    next: str
    next_span: Span | None


@dataclass(frozen=True, slots=True)
class EndDecl(Named):
    cond: Expr
    body: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class Module:
    file: str
    decls: tuple[Decl, ...]


# Every kind of expression and statement: the compiler matches over these unions with
# `assert_never`, so that a node kind added here and forgotten there is a type error.
AnyExpr = IntLit | BoolLit | NoneLit | TextLit | Name | Attr | Index | Call | Comp | ListLit | \
    Unary | Binary
AnyStmt = Let | Set | If | While | For | Repeat | Choose | Roll | ShuffleLet | ShuffleZone | \
    Pick | Deal | MoveItem | AddItems | Place | Clear | Reveal | Do | Say | Outcome

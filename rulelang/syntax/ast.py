"""The typed AST: frozen, slotted node classes (see node.py) that carry a source span."""

from __future__ import annotations

from typing import assert_never, cast

from rulelang.diagnostics import Span
from rulelang.syntax.node import node

# ---------------------------------------------------------------- types


@node
class TypeExpr:
    span: Span
    name: str  # int, bool, text, player, node, list, kind
    arg: str = ""  # board name for node, kind name for kind
    elem: TypeExpr | None = None  # element type for list


# ---------------------------------------------------------------- expressions


@node
class Expr:
    span: Span


@node
class IntLit(Expr):
    value: int


@node
class BoolLit(Expr):
    value: bool


@node
class NoneLit(Expr):
    pass


@node
class TextLit(Expr):
    parts: tuple[str | Expr, ...]  # plain text and interpolated {expressions}


@node
class Name(Expr):
    id: str


@node
class Attr(Expr):
    obj: Expr
    name: str


@node
class Index(Expr):
    obj: Expr
    index: Expr
    pair: bool = False  # written `b.edge[cell, dir]`: index is the call side(b, cell, dir)


@node
class Call(Expr):
    func: str
    args: tuple[Expr, ...]


@node
class Comp(Expr):
    """`[elem for var in source where cond]`, or `func(elem for ...)` when func is set."""

    func: str
    elem: Expr
    var: str
    source: Expr
    where: Expr | None
    by: Expr | None = None  # sort key of a list comprehension (ascending)


@node
class ListLit(Expr):
    items: tuple[Expr, ...]


@node
class Unary(Expr):
    op: str  # "-" or "not"
    operand: Expr


@node
class Binary(Expr):
    op: str  # + - * / % == != < <= > >= in notin and or ..
    left: Expr
    right: Expr


@node
class Cond(Expr):
    """`if cond then then else otherwise`: the conditional expression."""

    cond: Expr
    then: Expr
    otherwise: Expr


# ---------------------------------------------------------------- statements


@node
class Stmt:
    span: Span


@node
class Let(Stmt):
    name: str
    type: TypeExpr | None
    value: Expr


@node
class Set(Stmt):
    target: Expr  # Name, Attr, or Index of one of them (an item of a list): xs[i][j]
    op: str  # = += -=
    value: Expr


@node
class If(Stmt):
    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    otherwise: tuple[Stmt, ...]


@node
class While(Stmt):
    cond: Expr
    body: tuple[Stmt, ...]


@node
class For(Stmt):
    var: str
    source: Expr
    body: tuple[Stmt, ...]
    where: Expr | None = None  # `for x in xs where COND`: the rounds COND holds for


@node
class Repeat(Stmt):
    count: Expr
    body: tuple[Stmt, ...]


@node
class React(Stmt):
    """`react from FIRST as VAR { BODY }`: a reaction round (see docs/language.md)."""

    first: Expr
    var: str
    body: tuple[Stmt, ...]


@node
class Pass(Stmt):
    """`pass`: the reacting player passes; only inside a reaction round."""


@node
class Break(Stmt):
    """`break`: leaves the innermost loop (`while`, `for`, `repeat`)."""


@node
class Continue(Stmt):
    """`continue`: starts the innermost loop's next round."""


@node
class Require:
    span: Span
    cond: Expr
    reason: TextLit


@node
class Choose(Stmt):
    var: str
    domain: Expr
    requires: tuple[Require, ...]
    by: Expr | None
    prompt: TextLit | None
    allow_pass: bool
    secret: bool
    # an option is offered only if its effect can be completed (docs/language.md)
    complete: bool = False
    unfinished: TextLit | None = None  # `complete else "..."`: why an option is not offered
    # `log "..." [else "..."]`: the log line, and the one for those who may not see the value
    log: TextLit | None = None
    log_hidden: TextLit | None = None
    secret_to: Expr | None = None  # `secret to EXPR`: who sees the value, not the chooser


@node
class Roll(Stmt):
    var: str
    die: str
    log: TextLit | None = None
    log_hidden: TextLit | None = None
    # `secret [to EXPR]`: only the current player (or the players EXPR gives) see it
    secret: bool = False
    secret_to: Expr | None = None


@node
class ShuffleLet(Stmt):
    var: str
    source: Expr
    log: TextLit | None = None
    log_hidden: TextLit | None = None


@node
class ShuffleZone(Stmt):
    zone: str
    log: TextLit | None = None
    log_hidden: TextLit | None = None


@node
class Generate(Stmt):
    """`generate ...` (see docs/language.md, "Board state, sides and generation"): a
    random path, inner or rim sides, or cells of a grid board."""

    what: str  # path, sides, rim sides, cells
    names: tuple[str, ...]  # the locals it sets: cells and directions of a path, or one
    var: str  # the side or cell that COND reads ("" for a path)
    board: str
    count: Expr  # the path's length, or how many sides or cells
    bends: Expr | None = None
    from_rim: bool = False
    to_rim: bool = False
    where: Expr | None = None
    keep: bool = False  # keep connected
    log: TextLit | None = None


@node
class Pick(Stmt):
    var: str
    source: Expr
    log: TextLit | None = None
    log_hidden: TextLit | None = None
    secret: bool = False  # as for Roll
    secret_to: Expr | None = None


@node
class ZoneRef:
    span: Span
    zone: str
    owner: Expr | None


@node
class Deal(Stmt):
    count: Expr
    source: str
    dest: str


@node
class MoveItem(Stmt):
    item: Expr
    source: ZoneRef
    dest: ZoneRef


@node
class AddItems(Stmt):
    items: Expr  # one piece or card, or a list of them
    dest: ZoneRef


@node
class Place(Stmt):
    tile: Expr
    board: str
    at: Expr
    turn: Expr | None  # quarter turns clockwise
    secret: bool  # face down: nobody sees it, and any side matches it


@node
class Clear(Stmt):
    board: str
    at: Expr


@node
class Reveal(Stmt):
    board: str
    at: Expr
    turn: Expr | None


@node
class RevealTo(Stmt):
    """`reveal ITEM to PLAYERS`: they learn, privately, where the item lies now."""

    item: Expr
    to: Expr


@node
class Do(Stmt):
    proc: str  # "base": the base version of the overridden block this is in
    args: tuple[Expr, ...]
    bare: bool = False  # written without parentheses: `do base` passes the same arguments


@node
class Say(Stmt):
    message: Expr
    to: Expr | None


@node
class Outcome(Stmt):
    kind: str  # win, draw, rank
    players: Expr


@node
class Return(Stmt):
    """`return EXPR`: the value of a def written with a block."""

    value: Expr


# ---------------------------------------------------------------- declarations


@node
class Decl:
    span: Span


@node
class GameDecl(Decl):
    title: str


@node
class LibraryDecl(Decl):
    title: str


@node
class PlayersDecl(Decl):
    low: int
    high: int


@node
class ImportDecl(Decl):
    module: str


@node
class ExtendsDecl(Decl):
    path: str


@node
class Named(Decl):
    name: str
    override: bool


@node
class ParamDecl(Named):
    default: Expr
    doc: str


@node
class ConstDecl(Named):
    value: Expr


@node
class TableDecl(Named):
    entries: tuple[tuple[int, int, Expr], ...]  # low, high, value


@node
class DieDecl(Named):
    faces: Expr


@node
class BoardDecl(Named):
    shape: str
    args: tuple[Expr, ...]
    attrs: tuple[tuple[str, Expr], ...]
    tiles: str = ""  # the piece or card kind that can be placed on its cells
    state: tuple[AttrDecl, ...] = ()  # `state NAME: TYPE = DEFAULT`: one value per node
    edges: tuple[AttrDecl, ...] = ()  # `edge NAME: ...`: one value per side of a cell


@node
class AttrDecl:
    span: Span
    name: str
    type: TypeExpr
    default: Expr | None
    visibility: str  # all, owner, others, none
    display: str = ""  # how screens show it: "", "direction", "node(B)", "bookkeeping"


@node
class KindDecl(Named):
    category: str  # piece or card
    count: Expr | None
    attrs: tuple[AttrDecl, ...]
    data: str = ""  # a YAML file (next to the rule file) listing the pieces or cards


@node
class PlayerDecl(Decl):
    attrs: tuple[AttrDecl, ...]


@node
class GlobalDecl(Decl):
    attrs: tuple[AttrDecl, ...]


@node
class EnumDecl(Named):
    """`enum NAME { a, b, c }`: a type whose values are the names listed."""

    values: tuple[str, ...]
    value_spans: tuple[Span, ...] = ()


@node
class ZoneDecl(Named):
    kind: str
    per_player: bool
    visibility: str


@node
class ParamSpec:
    span: Span
    name: str
    type: TypeExpr


@node
class DefDecl(Named):
    params: tuple[ParamSpec, ...]
    body: Expr | tuple[Stmt, ...]  # `= EXPR`, or a block that ends in `return EXPR`


IMAGINE = "imagine"  # the proc an `imagine { ... }` block declares (parameter `me`)


@node
class ProcDecl(Named):
    params: tuple[ParamSpec, ...]
    body: tuple[Stmt, ...]
    base_of: str = ""  # for the base version of an overridden block: what it was
    imagine: bool = False  # the `imagine { ... }` block (named IMAGINE, parameter `me`)


@node
class BotRule:
    """One rule of a bot's choice: `prefer C1, C2` (kind "prefer": a priority list),
    `best E` / `least E` (the options with the highest / lowest value), or `otherwise
    random` (kind "random": no narrowing; what is left is drawn by the bot's generator)."""

    span: Span
    kind: str  # prefer best least random
    exprs: tuple[Expr, ...]


@node
class BotChoice:
    """`when choosing VAR { RULES }`: the rules for every `choose VAR in ...`."""

    span: Span
    name: str
    name_span: Span
    rules: tuple[BotRule, ...]


@node
class BotDecl(Named):
    """`bot NAME [for COND] { when choosing ... }`: a computer player, as rules."""

    cond: Expr | None
    choices: tuple[BotChoice, ...]


@node
class EstimateDecl(Named):
    """`estimate [after N decisions [by bots[, duels after M decisions]]] = EXPR`: how
    likely `me` is to win from here, in percent, for search bots to score the playouts
    they stop (name: "estimate"); `by_bots`: the rules' declared bots take those
    decisions, not chance; `duels`: M, where the search's duel stops its playouts and
    scores them (None: it plays on towards the end, docs/bots.md)."""

    after: int
    expr: Expr
    by_bots: bool = False
    duels: int | None = None


@node
class MeasureDecl(Named):
    """`measure NAME [per player] = EXPR ["what it counts"]`: a number (or yes/no) the
    reports give for each finished game; `per_player`: one per player, `me` being the
    player measured."""

    per_player: bool
    expr: Expr
    doc: str = ""


@node
class SetupDecl(Named):
    body: tuple[Stmt, ...]


@node
class PhaseDecl(Named):
    begin: tuple[Stmt, ...]
    turn: tuple[Stmt, ...]
    order: str
    order_from: Expr | None
    end_when: Expr | None
    next: str
    next_span: Span | None
    order_span: Span | None = None  # where `order ...` is written (a drawn order's span)
    skip_when: Expr | None = None  # `skip when COND`: whose turn is passed over


@node
class EndDecl(Named):
    cond: Expr
    body: tuple[Stmt, ...]


@node
class Module:
    file: str
    decls: tuple[Decl, ...]


# Every kind of expression, statement and declaration: the checker and the compiler
# match over these unions with `assert_never`, so that a node kind added here and
# forgotten in one of those walks is a type error (mypy). A new node class must be
# added to its union: tests/test_dispatch.py checks that each union holds every class.
AnyExpr = (
    IntLit
    | BoolLit
    | NoneLit
    | TextLit
    | Name
    | Attr
    | Index
    | Call
    | Comp
    | ListLit
    | Unary
    | Binary
    | Cond
)
AnyStmt = (
    Let
    | Set
    | If
    | While
    | For
    | Repeat
    | React
    | Pass
    | Break
    | Continue
    | Choose
    | Roll
    | ShuffleLet
    | ShuffleZone
    | Generate
    | Pick
    | Deal
    | MoveItem
    | AddItems
    | Place
    | Clear
    | Reveal
    | RevealTo
    | Do
    | Say
    | Outcome
    | Return
)
# The fixed values a ruleset declares (a ValueSym's declaration).
ValueDecl = ParamDecl | ConstDecl | TableDecl | DieDecl | BoardDecl
AnyDecl = (
    GameDecl
    | LibraryDecl
    | PlayersDecl
    | ImportDecl
    | ExtendsDecl
    | ValueDecl
    | KindDecl
    | PlayerDecl
    | GlobalDecl
    | EnumDecl
    | ZoneDecl
    | DefDecl
    | ProcDecl
    | BotDecl
    | EstimateDecl
    | MeasureDecl
    | SetupDecl
    | PhaseDecl
    | EndDecl
)


def blocks_in(stmt: Stmt) -> tuple[tuple[Stmt, ...], ...]:
    """The blocks written directly inside a statement: the walks over nested blocks
    (the checker's flow pass, the code generator) all take them from here, so that a
    new statement kind with a block of its own is walked everywhere once it is here."""
    s = cast(AnyStmt, stmt)  # every Stmt is one of AnyStmt
    match s:
        case If():
            return (*(body for _cond, body in s.branches), s.otherwise)
        case While() | For() | Repeat() | React():
            return (s.body,)
        case (
            Let()
            | Set()
            | Pass()
            | Break()
            | Continue()
            | Choose()
            | Roll()
            | ShuffleLet()
            | ShuffleZone()
            | Generate()
            | Pick()
            | Deal()
            | MoveItem()
            | AddItems()
            | Place()
            | Clear()
            | Reveal()
            | RevealTo()
            | Do()
            | Say()
            | Outcome()
            | Return()
        ):
            return ()
        case _:
            assert_never(s)

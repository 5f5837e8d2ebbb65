"""Where each name is written and what it means: every use the checker resolved (its
`refs`, over the file and what it extends and imports) and every declaration, as
places in the files, for hover, definitions, references and rename."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from rulelang.check.context import Checker
from rulelang.check.symbols import (
    AttrSym,
    BotSym,
    BuiltinSym,
    DefSym,
    EnumSym,
    EnumValueSym,
    EstimateSym,
    KindSym,
    LocalSym,
    MeasureSym,
    PhaseSym,
    ProcSym,
    Sym,
    ValueSym,
    ZoneSym,
)
from rulelang.diagnostics import Sources, Span
from rulelang.lsp.text import Lines, Place
from rulelang.syntax import ast as A
from rulelang.syntax.node import Node, nodes


@dataclass
class Occurrence:
    place: Place
    sym: Sym
    declaration: bool = False


@dataclass
class Index:
    """Every occurrence of a name the checker knows, by file."""

    sources: Sources
    occurrences: list[Occurrence] = field(default_factory=list)
    lines: dict[str, Lines] = field(default_factory=dict)

    def text(self, file: str) -> Lines:
        if file not in self.lines:
            self.lines[file] = Lines(self.sources.texts.get(file, ""))
        return self.lines[file]

    def at(self, file: str, line: int, col: int) -> Occurrence | None:
        for occ in self.occurrences:
            if occ.place.file == file and occ.place.holds(line, col):
                return occ
        return None

    def declaration(self, sym: Sym) -> Place | None:
        for occ in self.occurrences:
            if occ.sym is sym and occ.declaration:
                return occ.place
        return None

    def uses(self, sym: Sym) -> list[Occurrence]:
        """The occurrences of `sym`, declaration included, each place once."""
        seen: dict[Place, Occurrence] = {}
        for occ in self.occurrences:
            if occ.sym is sym and occ.place not in seen:
                seen[occ.place] = occ
        return list(seen.values())


def _place(index: Index, span: Span, name: str, last: bool = False) -> Place | None:
    """Where `name` is written within `span` (its last word for `obj.name`)."""
    if span.line < 1 or not name:
        return None
    lines = index.text(span.file)
    if last and span.end_line == span.line and span.end_col > len(name):
        col = span.end_col - len(name)
        if lines.get(span.line)[col - 1 : span.end_col - 1] == name:
            return Place(span.file, span.line, col, span.end_col)
    found = lines.find_word(name, span.line, span.col, span.end_line, span.end_col)
    if found is None:
        return None
    return Place(span.file, found[0], found[1], found[1] + len(name))


def _use_name(node: Node, sym: Sym) -> tuple[str, bool]:
    """The word that names `sym` in `node`, and whether it is the node's last word."""
    if isinstance(node, A.Attr):
        return node.name, True
    if isinstance(node, A.Name):
        return node.id, False
    if isinstance(node, A.Do) and isinstance(sym, ProcSym) and sym.decl.base_of:
        return "base", False  # `do base`: the base's version of the block it is in
    return sym.name, False


def _declared_name_span(sym: Sym) -> tuple[Span, str] | None:
    """The span to look for a symbol's declared name in, and that name."""
    if isinstance(sym, EnumValueSym):
        return None  # placed from its enum's value spans
    if isinstance(sym, ProcSym) and sym.decl.base_of:
        return None  # the base version of a block: written nowhere under that name
    if isinstance(sym, EstimateSym):
        return None
    return sym.span, sym.name


def _symbols(c: Checker) -> Iterator[Sym]:
    """Every declared symbol, and the attributes, enum values and locals within."""
    yield from c.names.values()
    yield from c.kinds
    for kind in c.kinds:
        yield from kind.attrs.values()
    yield from c.player_attrs.values()
    yield from c.global_attrs.values()
    for attrs in c.board_attrs.values():
        yield from attrs.values()
    for enum in c.enums.values():
        yield enum
        yield from enum.members.values()
    yield from c.phases
    yield from c.bots.values()
    yield from c.measures.values()
    yield from c.locals_of.values()
    for sym in c.names.values():
        if isinstance(sym, DefSym | ProcSym):
            yield from sym.params


def _enum_values(index: Index, enum: EnumSym) -> None:
    for value, span in zip(enum.decl.values, enum.decl.value_spans, strict=False):
        member = enum.member(value)
        if span.line >= 1:
            place = Place(span.file, span.line, span.col, span.col + len(value))
            index.occurrences.append(Occurrence(place, member, True))


# fields that hold a name as text, not as an expression the checker resolves: where the
# name is looked up ("global": zones, boards; "type": kinds and enums; "any": either;
# "phase")
NAMED_FIELDS: dict[type, tuple[tuple[str, str], ...]] = {
    A.ZoneRef: (("zone", "global"),),
    A.Deal: (("source", "global"), ("dest", "global")),
    A.ShuffleZone: (("zone", "global"),),
    A.Place: (("board", "global"),),
    A.Clear: (("board", "global"),),
    A.Reveal: (("board", "global"),),
    A.Generate: (("board", "global"),),
    A.TypeExpr: (("arg", "any"),),  # a kind's or an enum's name, or a board's: node(b)
    A.ZoneDecl: (("kind", "type"),),
    A.BoardDecl: (("tiles", "type"),),
    A.PhaseDecl: (("next", "phase"),),
}


def _by_name(c: Checker, name: str, where: str) -> Sym | None:
    if where in ("type", "any"):
        found = c.kinds_by_name.get(name) or c.enums.get(name)
        return found or (c.names.get(name) if where == "any" else None)
    if where == "phase":
        return next((p for p in c.phases if p.name == name), None)
    return c.names.get(name)


def _named(c: Checker, node: Node) -> Iterator[tuple[str, Sym]]:
    """The names a node holds as text, with what they name."""
    for field_name, where in NAMED_FIELDS.get(type(node), ()):
        name = getattr(node, field_name)
        sym = _by_name(c, name, where) if isinstance(name, str) and name else None
        if sym is not None:
            yield name, sym


def _uses(c: Checker, index: Index, decl: A.Decl) -> None:
    """The occurrences of the names used in a declaration."""
    for node in nodes(decl):
        span: Span = node.span  # type: ignore[attr-defined]
        used = c.refs.get(id(node))
        if used is not None:
            name, last = _use_name(node, used)
            place = _place(index, span, name, last)
            if place is not None:
                index.occurrences.append(Occurrence(place, used))
        for name, sym in _named(c, node):
            place = _place(index, span, name, isinstance(node, A.PhaseDecl))
            if place is not None and place != index.declaration(sym):
                index.occurrences.append(Occurrence(place, sym))


def build(c: Checker, sources: Sources) -> Index:
    index = Index(sources)
    seen: set[int] = set()
    for sym in _symbols(c):
        if id(sym) in seen:
            continue
        seen.add(id(sym))
        if isinstance(sym, EnumSym):
            _enum_values(index, sym)
        where = _declared_name_span(sym)
        place = _place(index, *where) if where else None
        if place is not None:
            index.occurrences.append(Occurrence(place, sym, True))
    for decl in c.decls:
        _uses(c, index, decl)
    return index


WORDS: list[tuple[type, str]] = [
    (KindSym, "kind"),
    (EnumSym, "enum"),
    (ZoneSym, "zone"),
    (LocalSym, "local"),
    (DefSym, "def"),
    (ProcSym, "proc"),
    (PhaseSym, "phase"),
    (BuiltinSym, "built-in"),
    (BotSym, "bot"),
    (MeasureSym, "measure"),
    (EstimateSym, "estimate"),
]


def kind_of(sym: Sym) -> str:
    """What a symbol is, in a word or a few: "const", "card kind", "local"..."""
    if isinstance(sym, ValueSym):
        return sym.what
    if isinstance(sym, AttrSym):
        return f"attribute of {sym.owner}"
    if isinstance(sym, KindSym):
        return f"{sym.decl.category} kind"
    if isinstance(sym, EnumValueSym):
        return f"value of enum {sym.enum}"
    return next((word for cls, word in WORDS if isinstance(sym, cls)), "name")

"""Completion: the keywords the grammar accepts at the cursor, the names in scope
there, the attributes of the value before a `.`, and the values of an enum."""

from __future__ import annotations

import re

from lsprotocol import types as T

from rulelang.check.builtins import BUILTINS
from rulelang.check.context import Checker
from rulelang.check.scope import BUILTIN_VALUES
from rulelang.check.symbols import (
    DefSym,
    EnumSym,
    EnumValueSym,
    KindSym,
    LocalSym,
    ProcSym,
    Sym,
    ValueSym,
    ZoneSym,
)
from rulelang.check.types import T as Type
from rulelang.lsp.analysis import Analysis
from rulelang.lsp.grammar import expected, keywords
from rulelang.lsp.index import kind_of
from rulelang.syntax import ast as A
from rulelang.syntax.node import nodes

K = T.CompletionItemKind
PARTIAL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*$")
BEFORE_DOT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\.\s*$")


def _kind(sym: Sym) -> T.CompletionItemKind:
    table: list[tuple[type, T.CompletionItemKind]] = [
        (EnumValueSym, K.EnumMember),
        (EnumSym, K.Enum),
        (KindSym, K.Class),
        (ZoneSym, K.Field),
        (DefSym, K.Function),
        (ProcSym, K.Method),
        (LocalSym, K.Variable),
        (ValueSym, K.Constant),
    ]
    return next((k for cls, k in table if isinstance(sym, cls)), K.Variable)


def _item(sym: Sym, label: str = "") -> T.CompletionItem:
    return T.CompletionItem(
        label=label or sym.name, kind=_kind(sym), detail=f"{kind_of(sym)}: {sym.type}"
    )


def _enclosing(c: Checker, file: str, line: int) -> A.Decl | None:
    for decl in c.decls:
        s = decl.span
        if s.file == file and s.line <= line <= max(s.end_line, s.line):
            return decl
    return None


def _locals(c: Checker, file: str, line: int) -> list[Sym]:
    """The locals bound in the declaration around `line`, above it or on it."""
    decl = _enclosing(c, file, line)
    if decl is None:
        return []
    inside: list[Sym] = []
    lo, hi = decl.span.line, line
    for node in nodes(decl):
        local = c.locals_of.get(id(node))
        if local is not None and lo <= local.span.line <= hi:
            inside.append(local)
    sym = c.names.get(getattr(decl, "name", ""))
    if isinstance(sym, DefSym | ProcSym):
        inside.extend(sym.params)
    return inside


def names_in_scope(c: Checker, file: str, line: int) -> list[T.CompletionItem]:
    items: dict[str, T.CompletionItem] = {}
    for sym in [*c.names.values(), *c.kinds, *_locals(c, file, line)]:
        if " " not in sym.name and not sym.name.startswith("_"):
            items.setdefault(sym.name, _item(sym))
    for enum in c.enums.values():
        items.setdefault(enum.name, _item(enum))
        for value in enum.values:
            items.setdefault(value, _item(enum.member(value)))
    for name, builtin in BUILTIN_VALUES.items():
        items.setdefault(name, _item(builtin))
    for name, sig in BUILTINS.items():
        items.setdefault(name, T.CompletionItem(label=name, kind=K.Function, detail=sig.what))
    return list(items.values())


def _type_before(c: Checker, file: str, line: int, col: int) -> Type | None:
    """The type of the expression that ends just before column `col` (the dot)."""
    for decl in c.decls:
        if decl.span.file != file:
            continue
        for node in nodes(decl):
            span = getattr(node, "span", None)
            if span and span.end_line == line and span.end_col == col and id(node) in c.types:
                return c.types[id(node)]
    return None


def attributes(c: Checker, t: Type) -> list[tuple[str, Type | str]]:
    if t.name == "player":
        own = [(a.name, a.type) for a in c.player_attrs.values()]
        return [*own, ("name", "text"), ("seat", "int")]
    if t.name == "entity" and t.arg in c.kinds_by_name:
        own = [(a.name, a.type) for a in c.kinds_by_name[t.arg].attrs.values()]
        return [*own, ("index", "int")]
    if t.name == "board" and t.arg in c.names:
        board = c.names[t.arg]
        fixed: list[tuple[str, Type | str]] = []
        if isinstance(board, ValueSym) and isinstance(board.decl, A.BoardDecl):
            fixed = [(n, "value") for n, _ in board.decl.attrs]
        state = c.board_attrs.get(t.arg, {})
        return [*fixed, *((a.name, a.type) for a in state.values())]
    return []


def after_dot(c: Checker, file: str, line: int, dot: int, before: str) -> list[T.CompletionItem]:
    """The attributes (or enum values) of what is written before the dot at `dot`."""
    word = BEFORE_DOT.search(before)
    if word and word.group(1) in c.enums:
        enum = c.enums[word.group(1)]
        return [_item(enum.member(v)) for v in enum.values]
    t = _type_before(c, file, line, dot)
    if t is None and word:
        sym = c.names.get(word.group(1)) or BUILTIN_VALUES.get(word.group(1))
        local = [s for s in _locals(c, file, line) if s.name == word.group(1)]
        sym = local[-1] if local else sym
        t = sym.type if sym is not None else None
    if t is None:
        return []
    return [T.CompletionItem(label=n, kind=K.Field, detail=str(ty)) for n, ty in attributes(c, t)]


def complete(now: Analysis, nav: Analysis | None, line: int, col: int) -> list[T.CompletionItem]:
    """Completions at (line, col) of `now`'s text, names taken from `nav` (the newest
    analysis whose text parsed)."""
    lines = now.text.split("\n")
    head = lines[line - 1][: col - 1] if line <= len(lines) else ""
    partial = PARTIAL.search(head)
    start = col - len(partial.group()) if partial else col
    before = "\n".join([*lines[: line - 1], head[: start - 1]])
    c = nav.checker if nav else None
    if head[: start - 1].rstrip().endswith("."):
        dot = head[: start - 1].rstrip()
        return after_dot(c, now.path, line, len(dot), dot) if c else []
    accepted = expected(before)
    words, names = accepted if accepted is not None else (set(keywords()), True)
    items = [T.CompletionItem(label=w, kind=K.Keyword) for w in sorted(words)]
    if names and c is not None:
        items.extend(names_in_scope(c, now.path, line))
    return items

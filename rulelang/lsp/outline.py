"""Document symbols: the outline of a file's declarations, with the attributes of its
kinds, player and global, the values of its enums and the states of its boards."""

from __future__ import annotations

from lsprotocol import types as T

from rulelang.diagnostics import Span
from rulelang.lsp.convert import position, span_range
from rulelang.lsp.text import Lines
from rulelang.syntax import ast as A

K = T.SymbolKind
KINDS: dict[type, tuple[T.SymbolKind, str]] = {
    A.ParamDecl: (K.Variable, "param"),
    A.ConstDecl: (K.Constant, "const"),
    A.TableDecl: (K.Array, "table"),
    A.DieDecl: (K.Constant, "die"),
    A.BoardDecl: (K.Object, "board"),
    A.KindDecl: (K.Class, "kind"),
    A.EnumDecl: (K.Enum, "enum"),
    A.ZoneDecl: (K.Field, "zone"),
    A.DefDecl: (K.Function, "def"),
    A.ProcDecl: (K.Method, "proc"),
    A.BotDecl: (K.Interface, "bot"),
    A.EstimateDecl: (K.Operator, "estimate"),
    A.MeasureDecl: (K.Property, "measure"),
    A.SetupDecl: (K.Constructor, "setup"),
    A.PhaseDecl: (K.Event, "phase"),
    A.EndDecl: (K.Event, "end"),
    A.PlayerDecl: (K.Struct, "player"),
    A.GlobalDecl: (K.Struct, "global"),
    A.GameDecl: (K.File, "game"),
    A.PlayersDecl: (K.Number, "players"),
    A.LibraryDecl: (K.File, "library"),
    A.ExtendsDecl: (K.Module, "extends"),
    A.ImportDecl: (K.Module, "import"),
}


def _title(decl: A.Decl, what: str) -> str:
    if isinstance(decl, A.PhaseDecl):
        return "turn" if decl.name == "main" else decl.name
    if isinstance(decl, A.EndDecl):
        return "end when"
    if isinstance(decl, A.GameDecl | A.LibraryDecl):
        return decl.title
    if isinstance(decl, A.ExtendsDecl):
        return decl.path
    if isinstance(decl, A.ImportDecl):
        return decl.module
    if isinstance(decl, A.PlayersDecl):
        return f"players {decl.low}..{decl.high}"
    if isinstance(decl, A.Named) and decl.name:
        return decl.name
    return what


def _symbol(
    lines: Lines, span: Span, name: str, kind: T.SymbolKind, detail: str
) -> T.DocumentSymbol:
    whole = span_range(lines, span)
    found = lines.find_word(name, span.line, span.col, span.end_line, span.end_col)
    pick = whole
    if found is not None:
        start = position(lines, *found)
        pick = T.Range(start, position(lines, found[0], found[1] + len(name)))
    return T.DocumentSymbol(name=name, kind=kind, range=whole, selection_range=pick, detail=detail)


def _children(lines: Lines, decl: A.Decl) -> list[T.DocumentSymbol]:
    attrs: tuple[A.AttrDecl, ...] = ()
    if isinstance(decl, A.KindDecl | A.PlayerDecl | A.GlobalDecl):
        attrs = decl.attrs
    elif isinstance(decl, A.BoardDecl):
        attrs = (*decl.state, *decl.edges)
    out = [_symbol(lines, a.span, a.name, K.Field, str(a.type.name)) for a in attrs]
    if isinstance(decl, A.EnumDecl):
        for value, span in zip(decl.values, decl.value_spans, strict=False):
            at = Span(span.file, span.line, span.col, span.line, span.col + len(value))
            out.append(_symbol(lines, at, value, K.EnumMember, ""))
    return out


def outline(module: A.Module, lines: Lines) -> list[T.DocumentSymbol]:
    symbols = []
    for decl in module.decls:
        kind, what = KINDS.get(type(decl), (K.Object, type(decl).__name__))
        if decl.span.line < 1:
            continue
        sym = _symbol(lines, decl.span, _title(decl, what), kind, what)
        sym.children = _children(lines, decl) or None
        symbols.append(sym)
    return symbols

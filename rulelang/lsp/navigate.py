"""Go to definition, find references and rename, over the file and the files it
extends and imports (the stdlib's and the shipped games' included)."""

from __future__ import annotations

import re

from rulelang.check.context import Checker
from rulelang.check.symbols import AttrSym, BuiltinSym, EnumValueSym, ProcSym, Sym
from rulelang.diagnostics import NO_SPAN
from rulelang.lsp.analysis import Analysis, Link
from rulelang.lsp.grammar import keywords
from rulelang.lsp.index import Index, Occurrence, kind_of
from rulelang.lsp.text import Place

NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class CannotRename(Exception):
    """A rename refused, with the reason the editor shows."""


def link_at(analysis: Analysis, line: int, col: int) -> Link | None:
    """The `extends` or `import` written at (line, col), if any."""
    for link in analysis.links:
        span = link.span
        if span.line == line and span.col <= col and (span.end_col == 0 or col <= span.end_col):
            return link
        if span.line == line and span.end_line <= line and span.end_col <= span.col:
            return link  # an import's span covers the whole line
    return None


def definition(index: Index, occ: Occurrence) -> Place | None:
    """Where `occ`'s name is declared; for what no name declares (`do base`: the base's
    version of a block), where that is written."""
    place = index.declaration(occ.sym)
    span = occ.sym.span
    if place is None and span.line >= 1:
        word, at = index.text(span.file).word_at(span.line, span.col)
        place = Place(span.file, span.line, span.col, span.col + len(word))
    return place


def references(index: Index, occ: Occurrence, with_declaration: bool) -> list[Place]:
    return [o.place for o in index.uses(occ.sym) if with_declaration or not o.declaration]


def _fixed(sym: Sym) -> bool:
    return isinstance(sym, BuiltinSym) or sym.span == NO_SPAN or sym.span.line < 1


def _data_file(c: Checker, sym: Sym) -> str:
    """The data file that also writes `sym`'s name (an attribute of a kind read from
    one is a key there; a value of an enum such an attribute holds, a value), or ""."""
    for kind in c.kinds:
        if not kind.decl.data:
            continue
        if isinstance(sym, AttrSym) and sym.owner == kind.name:
            return kind.decl.data
        enum = sym.enum if isinstance(sym, EnumValueSym) else None
        if enum and any(
            enum in (a.type.arg, getattr(a.type.elem, "arg", "")) for a in kind.attrs.values()
        ):
            return kind.decl.data
    return ""


def check_rename(c: Checker, index: Index, occ: Occurrence, main: str) -> list[Place]:
    """The places to rewrite to rename `occ`'s name; CannotRename if it is built in,
    declared in another file, used in one, or written in a data file."""
    sym = occ.sym
    what = f"{kind_of(sym)} '{sym.name}'"
    data = _data_file(c, sym)
    if data:
        raise CannotRename(f"{what} is also written in the data file '{data}': not renamed")
    if _fixed(sym):
        raise CannotRename(f"{what} is built into rulelang: it cannot be renamed")
    if isinstance(sym, ProcSym) and sym.decl.base_of:
        raise CannotRename("'do base' names the base version of a block: it cannot be renamed")
    declared = index.declaration(sym)
    if declared is None:
        raise CannotRename(f"cannot find where {what} is declared")
    if declared.file != main:
        raise CannotRename(
            f"{what} is declared in {declared.file}: rename renames names of this file only"
        )
    places = [o.place for o in index.uses(sym)]
    elsewhere = sorted({p.file for p in places if p.file != main})
    if elsewhere:
        raise CannotRename(f"{what} is also used in {', '.join(elsewhere)}: not renamed")
    return places


def check_new_name(new: str) -> None:
    if not NAME.fullmatch(new):
        raise CannotRename(f"'{new}' is not a name (letters, digits and _, not first a digit)")
    if new in keywords():
        raise CannotRename(f"'{new}' is a keyword of rulelang")

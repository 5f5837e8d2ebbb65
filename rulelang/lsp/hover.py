"""Hover: what a name is (kind, type, where it is declared, its doc comment), or the
catalogue's entry for an error code (`E101` in a comment, or a diagnostic's code)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from rulelang.check.symbols import BuiltinSym, Sym, ValueSym
from rulelang.errors import CATALOGUE
from rulelang.loader import shipped_rulesets
from rulelang.lsp.index import Index, kind_of
from rulelang.lsp.text import Lines
from rulelang.syntax import ast as A

CODE = re.compile(r"[EWR]\d{3}")
RULER = re.compile(r"^[\s#\-=*_~]*$")  # a comment that only draws a line


def doc_comment(lines: Lines, line: int) -> str:
    """The comment lines just above line `line` and the comment at its end."""
    above: list[str] = []
    n = line - 1
    while n >= 1 and lines.get(n).lstrip().startswith("#"):
        above.append(lines.get(n).lstrip()[1:].strip())
        n -= 1
    text = [a for a in reversed(above) if not RULER.match(a)]
    own = lines.get(line)
    if "#" in own and '"' not in own.split("#", 1)[0]:  # a `#` in a text is no comment
        text.append(own.split("#", 1)[1].strip())
    return "\n".join(t for t in text if t)


def _own_doc(sym: Sym) -> str:
    """The text a declaration gives itself: a param's or a measure's description."""
    decl = getattr(sym, "decl", None)
    if isinstance(decl, A.ParamDecl | A.MeasureDecl) and decl.doc:
        return decl.doc
    return ""


def hover_symbol(index: Index, sym: Sym, main: str) -> str:
    """Markdown: kind, name and type; where declared, with the line; doc comment."""
    out = [f"**{kind_of(sym)}** `{sym.name}`: `{sym.type}`"]
    if isinstance(sym, BuiltinSym):
        out.append("built into rulelang (docs/language.md)")
        return "\n\n".join(out)
    place = index.declaration(sym)
    line = place.line if place else sym.span.line
    file = place.file if place else sym.span.file
    if line >= 1:
        lines = index.text(file)
        name = Path(file).name if file != main else "this file"
        out.append(f"declared in {name}, line {line}")
        out.append(f"```rulelang\n{lines.get(line).strip()}\n```")
        doc = "\n".join(d for d in (_own_doc(sym), doc_comment(lines, line)) if d)
        if doc:
            out.append(doc)
    if isinstance(sym, ValueSym) and sym.what == "param":
        out.append("a parameter: `-o NAME=VALUE` sets it")
    return "\n\n".join(out)


# attributes every player or piece has, which no rule file declares
BUILT_IN_ATTRS = {
    "name": "**built-in attribute of player** `name`: `text`",
    "seat": "**built-in attribute of player** `seat`: `int` (from 0, in turn order)",
    "index": "**built-in attribute of a piece or card** `index`: `int` (its number in its kind)",
}


@lru_cache(maxsize=1)
def _errors_page() -> str:
    """docs/errors.md beside the shipped rules (a clone), else nothing (a wheel)."""
    try:
        return (shipped_rulesets().parent / "docs" / "errors.md").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def hover_code(code: str) -> str | None:
    """The catalogue's entry for an error code, with its section of docs/errors.md."""
    entry = CATALOGUE.get(code)
    if entry is None:
        return None
    head = f"**{code}** {entry.title} ({entry.family})"
    page = _errors_page()
    found = re.search(rf"^### {code} .*?\n(.*?)(?=^##|\Z)", page, re.S | re.M)
    return head + ("\n\n" + found.group(1).strip() if found else "")

"""A Pygments lexer for rule files, registered as the `rulelang` lexer (the entry point
in pyproject.toml), so that `pygmentize -l rulelang`, Sphinx, MkDocs and rulelang's own
HTML pages colour rule text the same way.

It depends on nothing but Pygments: the keyword lists below are copied from the grammar
(rulelang/syntax/rulelang.lark), and tests/test_highlight.py fails when the two part.
Most keywords are reserved only where the grammar expects them (the parser's lexer is
contextual): `path` may name an enum value and `count(...)` is a built-in. A regex lexer
cannot follow the grammar, so it guesses from the neighbours: a word after `.` is an
attribute, a built-in's name before `(` is the built-in, and `players` is a keyword only
where it opens a line (elsewhere it is the list of players).
"""

from __future__ import annotations

from typing import Any

from pygments.lexer import RegexLexer, bygroups, include, words
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
)

__all__ = ["BUILTINS", "KEYWORDS", "RulelangLexer", "highlight_html"]

TYPES = ("bool", "int", "list", "node", "player", "side", "text")
CONSTANTS = ("false", "none", "true")
OPERATOR_WORDS = ("and", "in", "not", "or")
# every other keyword of the grammar: declarations, statements and their clauses
STATEMENT_WORDS = (
    "add", "after", "all", "allow", "as", "at", "begin", "bends", "board", "bot", "bots",
    "break", "by", "card", "cells", "choose", "choosing", "clear", "clockwise", "complete",
    "connected", "const", "continue", "count", "counterclockwise", "deal", "decisions", "def",
    "die", "display", "do", "draw", "duels", "edge", "elif", "else", "end", "enum", "estimate",
    "extends", "for", "from", "game", "generate", "global", "if", "imagine", "import", "keep",
    "length", "let", "library", "log", "measure", "most", "move", "next", "on", "order",
    "others", "override", "owner", "param", "pass", "path", "per", "phase", "pick", "piece",
    "place", "players", "proc", "prompt", "random", "rank", "react", "repeat", "require",
    "return", "reveal", "rim", "roll", "say", "secret", "set", "setup", "shuffle", "sides",
    "skip", "state", "table", "then", "tiles", "to", "turn", "visible", "when", "where",
    "while", "win", "zone",
)  # fmt: skip
KEYWORDS = tuple(sorted(TYPES + CONSTANTS + OPERATOR_WORDS + STATEMENT_WORDS))
# the built-in functions (rulelang/check/builtins.py; the test compares the lists)
BUILTINS = (
    "abs", "across", "all", "any", "cell", "count", "distance", "face_up", "first", "fits",
    "joins", "known", "last", "len", "line_from", "lines_through", "max", "min",
    "neighbour", "next_player", "nodes", "number", "on_rim", "open_side", "path_length",
    "pieces", "placed", "prev_player", "reached", "seat", "secret_at", "side", "side_cell",
    "side_dir", "spots", "step", "sum", "text", "tile", "touching", "turn_of", "without",
)  # fmt: skip

_WORD = r"[A-Za-z_][A-Za-z0-9_]*"


class RulelangLexer(RegexLexer):  # type: ignore[misc]  # Pygments has no type hints
    """Rule files of rulelang (*.rules)."""

    name = "rulelang"
    aliases = ["rulelang", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rulelang"]
    url = "https://github.com/rulelang/rulelang"

    tokens: Any = {
        "root": [
            (r"\n", Text),
            (r"[ \t\r\f]+", Text),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "text"),
            (r"[0-9]+", Number.Integer),
            (r"(\.)(\s*)(" + _WORD + ")", bygroups(Punctuation, Text, Name.Attribute)),
            (r"^(\s*)(players)\b", bygroups(Text, Keyword)),
            (words(BUILTINS, suffix=r"(?=\()"), Name.Builtin),
            (words(TYPES, suffix=r"\b"), Keyword.Type),
            (words(CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(OPERATOR_WORDS, suffix=r"\b"), Operator.Word),
            (r"players\b", Name.Builtin),
            (words(STATEMENT_WORDS, suffix=r"\b"), Keyword),
            (_WORD + r"(?=\()", Name.Function),
            (_WORD, Name),
            (r"\.\.|\+=|-=|==|!=|<=|>=|[-+*/%<>=]", Operator),
            (r"[()\[\]{},:.]", Punctuation),
        ],
        # a text: "{expression}" inside it is rule code, `{{` and `}}` are braces
        "text": [
            (r"\{\{|\}\}", String.Escape),
            (r"\\.", String.Escape),
            (r"\{", String.Interpol, "interpolation"),
            (r'"', String.Double, "#pop"),
            (r'[^"\\{}\n]+', String.Double),
            (r"\}", String.Double),  # a lone brace: the checker reports it, not the colours
        ],
        "interpolation": [
            (r"\}", String.Interpol, "#pop"),
            include("root"),
        ],
    }


def highlight_html(source: str) -> str:
    """Rule text as HTML spans with Pygments' short classes (no <pre> around it)."""
    from pygments import highlight
    from pygments.formatters import HtmlFormatter

    formatter = HtmlFormatter(nowrap=True)
    return str(highlight(source, RulelangLexer(), formatter))

"""`rulelang fmt`: rule files in one layout, the way the shipped ones are written.

The formatter works on the token stream the parser reads, not on the AST: the AST has no
comments and no line breaks, and a rule file's line numbers matter (errors, rule tests
and rulebooks cite them). So the author's line breaks stay where they are, and every
comment stays on its line. What the formatter decides:

- a statement or declaration line is indented two spaces per enclosing `{ }`; a line
  that closes a block, by the block's own indentation;
- a continuation line (a statement carried over several lines) keeps its alignment: under
  the token of the lines above that it was aligned with, else at the same offset from its
  statement as before (and at least two spaces deeper than the statement);
- one space between tokens, none inside ( ) and [ ], before , : ) ] or around . and ..,
  none after a unary minus or between a name and its ( or [;
- a trailing comment keeps its column when the code leaves it room, else it goes two
  spaces after the code; a comment on a line of its own takes the indentation of the
  code below it;
- at most one blank line in a row, none at the start or end of a block or of the file;
- a line wider than WIDTH is broken at the commas of a list ([...] or a declaration's
  parameters), the items packed onto lines aligned after the opening bracket, when that
  makes every line fit.

Formatting twice changes nothing more, and a formatted file is the same program: only
blanks move, which `format_source` checks itself before it returns (the grammar ignores
blanks, so the same tokens parse to the same AST; tests/test_fmt.py compares the ASTs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from rulelang.syntax.parser import GRAMMAR, WholeNames
from rulelang.syntax.parser_cache import cached_lark

WIDTH = 100  # the project's line width (ruff's too)
INDENT = 2

# the nodes whose first token starts a line of its own at the block's indentation
_HEADS = {
    "attr_decl", "bot_choice", "bot_rule", "board_fixed", "board_state", "board_edge",
    "def_block", "table_entry", "phase_begin", "phase_turn", "phase_order", "phase_end",
    "phase_skip", "phase_next",
}  # fmt: skip
_OPEN, _CLOSE = "([{", ")]}"
_CALL_KEYWORDS = {"list", "node", "side"}  # `node(maze)`: a type written like a call


@dataclass
class Tok:
    """A token of the rule text with what the layout needs to know of it."""

    value: str
    kind: str  # Lark's terminal name
    line: int
    col: int  # 0-based, in the original text
    head: bool = False  # starts a statement or a declaration
    word: bool = False  # a name used as a keyword (`prefer` in a bot's rule)
    breakable: bool = False  # opens a list that may be broken at its commas
    new_col: int = 0


@dataclass
class Line:
    tokens: list[Tok]
    comment: str = ""
    comment_col: int = 0  # of the comment in the original text
    indent: int = 0
    text: str = ""
    ends: list[int] = field(default_factory=list)


class FormatError(Exception):
    """The formatted text would not be the same program: a bug in the formatter."""


@lru_cache(maxsize=1)
def _lark() -> Lark:
    return cached_lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        start="start",
        propagate_positions=False,
        maybe_placeholders=False,
        keep_all_tokens=True,
        postlex=WholeNames(),
    )


def format_source(text: str, file: str = "<rules>") -> str:
    """The text in the canonical layout. RuleError if it does not parse."""
    try:
        tokens = _tokens(text)
    except (UnexpectedInput, RecursionError):
        from rulelang.syntax.parser import parse

        parse(text, file)  # raises the syntax error, worded as `validate` words it
        raise
    out = _layout(text, tokens)
    if _words(out) != _words(text):  # only blanks may change: else it is a bug here
        raise FormatError(f"{file}: formatting would change the rule text")
    return out


# a token of rule text (comments included), to check that the layout moved only blanks
_WORD_RE = re.compile(r'#[^\n]*|"(?:[^"\\\n]|\\.)*"|[A-Za-z0-9_]+|\.\.|[=!<>+-]=|\S')


def _words(text: str) -> list[str]:
    return [w.rstrip() for w in _WORD_RE.findall(text)]


def strip_spans(node: object) -> object:
    """An AST (or part of one) with every source position taken out, to compare two."""
    from rulelang.diagnostics import Span
    from rulelang.syntax.node import Node

    if isinstance(node, Span):
        return None
    if isinstance(node, Node):
        return (type(node).__name__, *(strip_spans(getattr(node, f)) for f in node._fields))
    if isinstance(node, tuple | list):
        return tuple(strip_spans(x) for x in node)
    if isinstance(node, dict):
        return tuple((k, strip_spans(v)) for k, v in node.items())
    return node


# ---------------------------------------------------------------- tokens


def _tokens(text: str) -> list[Tok]:
    tree = _lark().parse(text)
    out: list[Tok] = []
    _walk(tree, out, [])
    return out


def _walk(tree: Tree[Token], out: list[Tok], parents: list[str]) -> None:
    first = len(out)
    for child in tree.children:
        if isinstance(child, Tree):
            _walk(child, out, [*parents, tree.data])
        else:
            out.append(Tok(child.value, child.type, child.line or 0, (child.column or 1) - 1))
    if len(out) > first:
        _mark(tree, out, first)


def _mark(tree: Tree[Token], out: list[Tok], first: int) -> None:
    name = str(tree.data)
    if name in _HEADS or name.endswith("_decl") or name.startswith("s_"):
        out[first].head = True
    if name == "bot_rule":
        out[first].word = True
    if name == "e_list" or name == "params":
        opener = out[first] if name == "e_list" else out[first - 1]
        opener.breakable = True


def _lines(text: str, tokens: list[Tok]) -> list[Line | None]:
    """Each line of the text: its tokens and comment, or None for a blank line."""
    source = text.split("\n")
    by_line: dict[int, list[Tok]] = {}
    for t in tokens:
        by_line.setdefault(t.line, []).append(t)
    lines: list[Line | None] = []
    for number, raw in enumerate(source, start=1):
        toks = by_line.get(number, [])
        end = toks[-1].col + len(toks[-1].value) if toks else 0
        rest = raw[end:].strip()
        if not toks and not rest:
            lines.append(None)
            continue
        col = raw.index("#", end) if rest else 0
        lines.append(Line(toks, rest, col))
    return lines


# ---------------------------------------------------------------- one line


def _gap(prev: Tok, cur: Tok) -> str:
    """The space between two tokens on one line."""
    p, c = prev.value, cur.value
    if p in "([" or c in ")]," or c == ":" or p == "." or c == "." or ".." in (p, c):
        return ""
    if prev.kind == "MINUS":  # a unary minus (the binary one is an ADD_OP)
        return ""
    if c in "([":
        callee = prev.kind in ("NAME", "STRING") and not prev.word
        if callee or p in ")]" or (c == "(" and p in _CALL_KEYWORDS):
            return ""
    return " "


def _render(line: Line, indent: int) -> None:
    parts: list[str] = []
    col = indent
    for i, t in enumerate(line.tokens):
        gap = _gap(line.tokens[i - 1], t) if i else ""
        col += len(gap)
        t.new_col = col
        parts.append(gap + t.value)
        col += len(t.value)
    line.indent = indent
    line.text = " " * indent + "".join(parts)


def _with_comment(line: Line) -> str:
    if not line.comment:
        return line.text.rstrip()
    if not line.tokens:
        return " " * line.indent + line.comment
    code = line.text.rstrip()
    col = max(len(code) + 2, line.comment_col)
    return code + " " * (col - len(code)) + line.comment


# ---------------------------------------------------------------- indentation


@dataclass
class _State:
    depth: int = 0  # open { }
    openers: list[tuple[Tok, Line]] = field(default_factory=list)  # open ( [ {
    statement: list[Line] = field(default_factory=list)  # lines of the current statement


def _indent(line: Line, st: _State) -> int:
    first = line.tokens[0]
    if first.value in ")]" and st.openers:
        return st.openers[-1][1].indent
    if first.value == "}":
        return INDENT * max(st.depth - 1, 0)
    if first.head and not _inside_brackets(st):
        return INDENT * st.depth
    return _continuation(line, st)


def _inside_brackets(st: _State) -> bool:
    """Inside ( ) or [ ], or a { } whose items began on its own line (`{ 3: 1,`): what
    follows is aligned as a continuation, not indented as a block."""
    if not st.openers:
        return False
    opener, line = st.openers[-1]
    return opener.value in "([" or opener is not line.tokens[-1]


def _continuation(line: Line, st: _State) -> int:
    old = line.tokens[0].col
    if not st.statement:
        return INDENT * st.depth
    head = st.statement[0]
    for prev in reversed(st.statement):  # aligned under a token above: stay under it
        for t in prev.tokens:
            if t.col == old and t is not head.tokens[0]:
                return t.new_col
    floor = head.indent + INDENT
    relative = max(floor, old + head.indent - head.tokens[0].col)
    if _inside_brackets(st) and st.openers[-1][1] is not line:  # in a bracket opened above
        opener, where = st.openers[-1]
        after = where.tokens.index(opener) + 1
        if after == len(where.tokens):  # `f(` alone: one step in
            return max(relative, where.indent + INDENT)
        aligned = max(relative, where.tokens[after].new_col)  # `f(a,`: under the first item
        return aligned if aligned + _width(line) <= WIDTH else relative
    return relative


def _width(line: Line) -> int:
    toks = line.tokens
    return sum(len(t.value) for t in toks) + sum(
        len(_gap(a, b)) for a, b in zip(toks, toks[1:], strict=False)
    )


def _track(line: Line, st: _State) -> None:
    for t in line.tokens:
        if t.value in _OPEN and t.kind != "STRING":
            st.openers.append((t, line))
            if t.value == "{":
                st.depth += 1
        elif t.value in _CLOSE and t.kind != "STRING":
            if st.openers:
                st.openers.pop()
            if t.value == "}":
                st.depth = max(st.depth - 1, 0)


def _is_head(line: Line, st: _State) -> bool:
    first = line.tokens[0]
    return first.value == "}" or (first.head and not _inside_brackets(st))


# ---------------------------------------------------------------- the file


def _layout(text: str, tokens: list[Tok]) -> str:
    lines = _lines(text, tokens)
    st = _State()
    for line in lines:
        if line is None or not line.tokens:
            continue
        if _is_head(line, st):
            st.statement = []
        _render(line, _indent(line, st))
        st.statement.append(line)
        _track(line, st)
    _comment_indents(lines)
    out: list[str] = []
    for line in lines:
        if line is None:
            out.append("")
            continue
        out.extend(_fit(line))
    return _blank_lines(out)


def _comment_indents(lines: list[Line | None]) -> None:
    """A comment on a line of its own: indented as the code below it (inside a block
    that closes below it, as the block's statements)."""
    below = 0
    for line in reversed(lines):
        if line is None:
            continue
        if line.tokens:
            first = line.tokens[0].value
            below = line.indent + (INDENT if first == "}" else 0)
        else:
            line.indent = below


def _blank_lines(out: list[str]) -> str:
    kept: list[str] = []
    for text in out:
        if not text:
            if kept and kept[-1] and not kept[-1].endswith("{"):
                kept.append("")
            continue
        if kept and not kept[-1] and text.lstrip().startswith("}"):
            kept.pop()
        kept.append(text)
    while kept and not kept[-1]:
        kept.pop()
    return "\n".join(kept) + "\n" if kept else ""


# ---------------------------------------------------------------- long lines


def _fit(line: Line) -> list[str]:
    """The line, broken at a list's commas if it is wider than WIDTH and that helps."""
    whole = _with_comment(line)
    if len(whole) <= WIDTH or not line.tokens:
        return [whole]
    for i, t in enumerate(line.tokens):
        if t.breakable:
            broken = _break_at(line, i)
            if broken and all(len(b) <= WIDTH for b in broken):
                return broken
    return [whole]


def _break_at(line: Line, i: int) -> list[str] | None:
    """Pack the items of the list opened by token i onto lines aligned after it."""
    toks = line.tokens
    depth, cuts = 0, []
    for j in range(i, len(toks)):
        v = toks[j].value if toks[j].kind != "STRING" else ""
        if v and v in _OPEN:
            depth += 1
        elif v and v in _CLOSE:
            depth -= 1
            if depth == 0:
                break
        elif v == "," and depth == 1:
            cuts.append(j)
    if not cuts:
        return None
    align = toks[i].new_col + 1
    pieces = _pieces(line, [i, *cuts])
    out, current = [], pieces[0]
    for piece in pieces[1:]:
        if len(current) + 1 + len(piece) <= WIDTH:
            current += " " + piece
        else:
            out.append(current)
            current = " " * align + piece
    out.append(current)
    if line.comment:  # its column was the long line's: two spaces after the last piece
        out[-1] += "  " + line.comment
    return out


def _pieces(line: Line, cuts: list[int]) -> list[str]:
    """The rendered line cut after the opener and after each comma in `cuts`."""
    text, toks = line.text.rstrip(), line.tokens
    ends = [toks[c].new_col + len(toks[c].value) for c in cuts]
    starts = [0, *ends]
    out = []
    for a, b in zip(starts, [*ends, len(text)], strict=True):
        out.append(text[a:b].strip() if a else text[:b])
    # the opener's piece and the first item stay together
    return [out[0] + out[1], *out[2:]]

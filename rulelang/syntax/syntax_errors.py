"""Syntax errors in the language's own words.

`parse` (parser.py) hands Lark's first error here. This module

* reports every syntax error of a file it can: after an error it starts again at the
  next line that begins, in column 1, with a declaration keyword (`phase`, `turn`,
  `end`...) and lies outside the braces of the broken declaration, so each broken
  declaration gives one error and no error is an echo of an earlier one;
* points at the mistake rather than where the parser noticed it: a line that ends too
  early (`set x = a +`, `players 2`) is reported at its end, not at the next line, and a
  '{', '(' or '[' that is never closed is reported at the bracket itself (for '{', the
  one the indentation shows unclosed);
* says what was expected in classes ("a statement", "an expression") instead of a
  cut-off list of tokens, and gives targeted hints for the mistakes people make.

None of Lark's wording leaves this module; only the happy path of `parse` is
performance-sensitive and nothing here runs on it.
"""

from __future__ import annotations

import bisect
import difflib
import re
from collections.abc import Callable, Iterable
from copy import copy
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from rulelang.diagnostics import Diagnostic, Span
from rulelang.errors import syntax_error, unclosed_bracket, unterminated_text

MAX_ERRORS = 20  # syntax errors reported for one file at most


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# The keywords that start a declaration, and those that start a statement.
DECLARATIONS = _words(
    "library game players import extends override param const table die board piece card "
    "player global zone enum def proc setup turn phase end bot order skip estimate imagine "
    "measure"
)
STATEMENTS = _words(
    "let set if while for repeat choose roll shuffle pick deal move add place clear reveal "
    "do say win draw rank react pass break continue return generate"
)

# Lark's names for the terminals of the grammar, by class.
_DECL_TERMS = frozenset(w.upper() for w in DECLARATIONS)
_STMT_TERMS = frozenset(w.upper() for w in STATEMENTS)
_EXPR_CORE = frozenset({"NAME", "INT", "STRING", "LPAR", "LSQB"})
_EXPR_TERMS = _EXPR_CORE | {"TRUE", "FALSE", "NONE", "NOT", "MINUS", "IF"}
_BINARY_TERMS = frozenset({"ADD_OP", "MUL_OP", "COMP_OP", "AND", "OR"})  # and '..'

_OPERATOR_TERMS = _BINARY_TERMS | {"IN", "NOT", "DOT", "LSQB", "LPAR"}

_NAMES = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a text in quotes",
    "ASSIGN_OP": "'=', '+=' or '-='",
    "COMP_OP": "a comparison such as '==' or '<'",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "$END": "the end of the file",
}
_PUNCT = {
    "LBRACE": "{",
    "RBRACE": "}",
    "LPAR": "(",
    "RPAR": ")",
    "LSQB": "[",
    "RSQB": "]",
    "COMMA": ",",
    "COLON": ":",
    "EQUAL": "=",
    "DOT": ".",
    "MINUS": "-",
}
_CLOSER = {"LBRACE": "RBRACE", "LPAR": "RPAR", "LSQB": "RSQB"}
_BRACKET = {"LBRACE": "{", "LPAR": "(", "LSQB": "[", "RBRACE": "}", "RPAR": ")", "RSQB": "]"}

_TOP_LINE = re.compile(r"^(?:{})\b".format("|".join(DECLARATIONS)), re.MULTILINE)
# A rough tokenizer, enough to find the words and signs around an error: the grammar's
# strings and comments, then words, numbers, two-character signs, any other character
# but the grammar's white space.
_STRING = r'"(?:[^"\\\n{]|\\.|\{\{|\{(?:[^{}"\\\n]|\\.|"(?:[^"\\\n]|\\.)*")*\}|\{)*"'  # as STRING
_TOKEN = re.compile(
    _STRING
    + r"|#.*|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\.\.|[=!<>+\-:]=|&&|\|\||<>|\+\+"
    + r"|[^ \t\f\r\n]"
)
_ASSIGN = frozenset({"=", "+=", "-=", "++", "--", ":="})


@dataclass(frozen=True, slots=True)
class _Tok:
    text: str
    line: int
    col: int  # 1-based

    @property
    def end(self) -> int:
        """The column just after the token."""
        return self.col + len(self.text)

    @property
    def word(self) -> bool:
        return self.text[0].isalpha() or self.text[0] == "_"


class _Source:
    """The text of a rule file, split into lines and rough tokens on demand."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.split("\n")
        self.starts = [0]
        for i, line in enumerate(self.lines[:-1]):
            self.starts.append(self.starts[i] + len(line) + 1)
        self.tops = [bisect.bisect_right(self.starts, m.start()) for m in _TOP_LINE.finditer(text)]
        self._toks: dict[int, list[_Tok]] = {}

    def tokens(self, line: int) -> list[_Tok]:
        toks = self._toks.get(line)
        if toks is None:
            text = self.lines[line - 1] if 1 <= line <= len(self.lines) else ""
            toks = [
                _Tok(m.group(), line, m.start() + 1)
                for m in _TOKEN.finditer(text)
                if not m.group().startswith("#")
            ]
            self._toks[line] = toks
        return toks

    def at(self, line: int, col: int) -> _Tok | None:
        for tok in self.tokens(line):
            if tok.col <= col < tok.end:
                return tok
        return None

    def before(self, line: int, col: int, floor: int = 1) -> _Tok | None:
        """The last token that ends at or before (line, col), looking back to line floor."""
        toks = [t for t in self.tokens(line) if t.end <= col]
        while not toks and line > floor:
            line -= 1
            toks = self.tokens(line)
        return toks[-1] if toks else None

    def after(self, tok: _Tok) -> list[_Tok]:
        """The tokens after tok on its line."""
        return [t for t in self.tokens(tok.line) if t.col > tok.col]

    def first_on_line(self, tok: _Tok) -> bool:
        toks = self.tokens(tok.line)
        return bool(toks) and toks[0].col == tok.col

    def last_line(self) -> int:
        line = len(self.lines)
        while line > 1 and not self.tokens(line):
            line -= 1
        return line

    def top_within(self, low: int, high: int) -> int | None:
        """The last declaration line K with low < K <= high."""
        i = bisect.bisect_right(self.tops, high)
        if i and self.tops[i - 1] > low:
            return self.tops[i - 1]
        return None

    def resync(self, after: int, floor: int, unclosed: int = 0) -> int | None:
        """The first declaration line after `after` outside the braces opened since
        line `floor` (of which `unclosed` are known never to be closed): where reading
        may safely start again."""
        depth, scanned = -unclosed, floor
        for top in self.tops[bisect.bisect_right(self.tops, after) :]:
            for line in range(scanned, top):
                for tok in self.tokens(line):
                    depth += tok.text == "{"
                    depth -= tok.text == "}"
            scanned = top
            if depth <= 0:
                return top
        return None

    def chunk(self, start: int, end: int | None = None) -> str:
        """Lines start..end-1 (to the end of the file without end), at their own line
        numbers."""
        stop = self.starts[end - 1] if end is not None else len(self.text)
        return "\n" * (start - 1) + self.text[self.starts[start - 1] : stop]


def _where(err: UnexpectedInput) -> tuple[int, int]:
    if isinstance(err, UnexpectedToken) and err.token.type == "$END":
        return (1 << 30, 0)
    return (max(err.line, 1), max(err.column, 1))


def _eof(err: UnexpectedInput) -> bool:
    return isinstance(err, UnexpectedToken) and err.token.type == "$END"


def _state(err: UnexpectedInput) -> Any:
    parser = getattr(err, "interactive_parser", None)
    return parser


def _accepts(err: UnexpectedInput) -> set[str]:
    parser = _state(err)
    if parser is not None:
        return set(parser.accepts())
    if isinstance(err, UnexpectedToken):
        return set(err.expected)
    if isinstance(err, UnexpectedCharacters):
        return set(err.allowed or ())
    return set()  # pragma: no cover - lark has no other kinds


@lru_cache(maxsize=4)
def _keywords(lark: Lark) -> frozenset[str]:
    """The grammar's keywords: its terminals that are a fixed word."""
    return frozenset(
        str(t.pattern.value)
        for t in lark.terminals
        if t.pattern.type == "str" and str(t.pattern.value).isalpha()
    )


@lru_cache(maxsize=16)
def _terminal(lark: Lark, literal: str) -> str:
    """Lark's name for the terminal that is exactly `literal` ('..' has no name in the
    grammar, so Lark numbers it)."""
    for t in lark.terminals:
        if t.pattern.type == "str" and t.pattern.value == literal:
            return str(t.name)
    return literal  # pragma: no cover - the grammar has them all


def _open_brackets(err: UnexpectedInput) -> list[Token]:
    parser = _state(err)
    if parser is None:
        return []
    # The value stack holds the tokens of every rule not yet complete: a bracket of
    # `proc f(...) {` stays there, closed, until the whole proc is read.
    opens: list[Token] = []
    for v in parser.parser_state.value_stack:
        if isinstance(v, Token):
            if v.type in _CLOSER:
                opens.append(v)
            elif opens and _CLOSER[opens[-1].type] == v.type:
                opens.pop()
    return opens


def _may_end(acc: set[str]) -> bool:
    """Whether the text read so far may be complete, what follows it starting something
    new: a statement, a declaration, or the '}' of a block."""
    return (
        "RBRACE" in acc
        or "$END" in acc
        or len(acc & _STMT_TERMS) >= 8
        or len(acc & _DECL_TERMS) >= 8
    )


def describe(terms: Iterable[str], lark: Lark) -> str:
    """What the parser would accept, in classes: 'a statement', 'an expression'..."""
    rest = set(terms)
    binary = _BINARY_TERMS | {_terminal(lark, "..")}
    classes: list[str] = []
    if len(rest & _DECL_TERMS) >= 8:
        classes.append("a declaration (such as 'phase', 'turn' or 'end when')")
        rest -= _DECL_TERMS | {"$END"}
    if len(rest & _STMT_TERMS) >= 8:
        classes.append("a statement (such as 'set', 'if' or 'choose')")
        rest -= _STMT_TERMS
    if rest >= _EXPR_CORE:
        classes.append("an expression")
        rest -= _EXPR_TERMS
    if len(rest & binary) >= 3:
        classes.append("an operator")
        rest -= _OPERATOR_TERMS | binary
    single = sorted({_name(t, lark) for t in rest})
    return _join(single + classes)


def _name(term: str, lark: Lark) -> str:
    if term in _NAMES:
        return _NAMES[term]
    if term in _PUNCT:
        return f"'{_PUNCT[term]}'"
    try:
        pattern = lark.get_terminal(term).pattern
    except KeyError:  # pragma: no cover - every name in an error is a terminal's
        return f"'{term.lower()}'"
    return f"'{pattern.value}'" if pattern.type == "str" else f"'{term.lower()}'"


def _join(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def _quote(text: str) -> str:
    if text.startswith('"'):
        return text if len(text) <= 24 else text[:20] + '..."'
    return f"'{text}'"


# ----------------------------------------------------------------------------- context


@dataclass
class _Ctx:
    """An error with what surrounds it. `tok` is the offending token (None at the end of
    a text that stops too early); `prev` the token before it (or before the end)."""

    src: _Source
    lark: Lark
    err: UnexpectedInput
    acc: set[str]
    tok: _Tok | None
    prev: _Tok | None
    opens: list[Token]
    next: _Tok | None = None  # at the end of a line: what the next line starts with

    def words_before(self, n: int) -> list[str]:
        """The texts of up to n tokens before the error, on the line of `prev`."""
        if self.prev is None:
            return []
        toks = [t for t in self.src.tokens(self.prev.line) if t.col <= self.prev.col]
        return [t.text for t in toks[-n:]]

    @property
    def keywords(self) -> frozenset[str]:
        return _keywords(self.lark)

    def statement_expected(self) -> bool:
        return len(self.acc & _STMT_TERMS) >= 8

    def declaration_expected(self) -> bool:
        return len(self.acc & _DECL_TERMS) >= 8


@dataclass
class _Fix:
    hint: str
    message: str = ""
    tok: _Tok | None = None  # the span to point at instead


_Rule = Callable[[_Ctx], "_Fix | None"]


def _line_rest(src: _Source, tok: _Tok) -> str:
    """The code of tok's line from tok on, comments left out."""
    toks = src.tokens(tok.line)
    last = toks[-1]
    return src.lines[tok.line - 1][tok.col - 1 : last.end - 1]


# ---- targeted hints: each returns None when it does not apply


# Words and signs after which an expression comes.
_EXPR_BEFORE = frozenset(
    _words("= += -= == != < > <= >= ( [ , : .. + - * / % and or not when in say win draw rank")
    + _words("to by at require while repeat count where return")
)


_COND_FORM = "'if CONDITION then A else B'"


def _conditional_expression(ctx: _Ctx) -> _Fix | None:
    """A conditional expression `if c then a else b` gone wrong: inside an operator
    without parentheses, without 'then' (or with braces, like the statement), or
    without 'else'."""
    tok, prev = ctx.tok, ctx.prev
    if prev is not None and prev.text == "if" and not ctx.acc >= _EXPR_CORE:
        # 'if' where only an operand may come (after an operator, 'not' or a sign) is
        # read as a name, and what follows it is unexpected
        toks = [t for t in ctx.src.tokens(prev.line) if t.col < prev.col]
        if toks and toks[-1].text in _EXPR_BEFORE:
            return _Fix(
                "a conditional expression inside another is written in parentheses: "
                "'(if CONDITION then A else B)'",
                "'if' cannot be used here without parentheses",
                tok=prev,
            )
    if "THEN" in ctx.acc and not _may_end(ctx.acc):
        if tok is not None and tok.text == "{":
            return _Fix(
                f"in an expression, 'if' is a conditional expression: {_COND_FORM}; the if "
                "statement ('if CONDITION { ... }') is a statement of its own"
            )
        return _Fix(f"a conditional expression is written {_COND_FORM}")
    if "ELSE" in ctx.acc and prev is not None:
        words = [t.text for t in ctx.src.tokens(prev.line) if t.col <= prev.col]
        if "then" in words and words.count("else") < words.count("then"):
            return _Fix(f"a conditional expression needs both branches: {_COND_FORM}")
    return None


def _then(ctx: _Ctx) -> _Fix | None:
    if ctx.tok is None or ctx.tok.text != "then":
        return None
    first = ctx.src.tokens(ctx.tok.line)[0].text
    if first in ("if", "elif"):
        return _Fix("an if statement has no 'then': write 'if CONDITION { ... }'")
    return _Fix(f"'then' follows the condition of a conditional expression: {_COND_FORM}")


def _duels(ctx: _Ctx) -> _Fix | None:
    """`estimate after N decisions duels after M decisions`: the duels' clause without
    the `by bots` it belongs to (their playouts are the bots')."""
    tok = ctx.tok
    if tok is None or ctx.prev is None or ctx.prev.text != "decisions":
        return None
    following = ctx.src.after(tok)
    if tok.text != "duels" and not (
        tok.text == "," and following[:1] and following[0].text == "duels"
    ):
        return None
    return _Fix(
        "the duels' clause follows 'by bots' (the declared bots play their playouts): "
        "write 'estimate after N decisions by bots, duels after M decisions = ...'"
    )


def _players(ctx: _Ctx) -> _Fix | None:
    """`players 2` (a single count) or `players 2-4`, `players 2 to 4`."""
    if ctx.prev is None or ctx.words_before(2)[:1] != ["players"]:
        return None
    if _terminal(ctx.lark, "..") not in ctx.acc:
        return None
    low = ctx.prev.text
    if ctx.tok is not None and ctx.tok.line == ctx.prev.line:
        high = next((t.text for t in ctx.src.after(ctx.tok) if t.text.isdigit()), None)
        if high is not None:
            return _Fix(f"a range of player counts is written with '..': 'players {low}..{high}'")
    return _Fix(
        f"'players' takes a range of player counts: write 'players {low}..{low}' for exactly "
        f"{low} players"
    )


def _equals_for_comparison(ctx: _Ctx) -> _Fix | None:
    if ctx.tok is None or ctx.tok.text != "=" or "COMP_OP" not in ctx.acc:
        return None
    return _Fix("to compare two values write '=='; '=' gives a value (let, set, const)")


_COMPARISONS = frozenset({"==", "!=", "<", "<=", ">", ">="})
_EXPR_START = frozenset({"if", "while", "when", "require", "where", "and", "or", "not", "("})
_EXPR_STOP = frozenset({"{", "and", "or", ",", "else", "prompt", "by", "log"})


def _chained_comparison(ctx: _Ctx) -> _Fix | None:
    """`1 < x < 3`: the grammar compares one pair at a time."""
    tok = ctx.tok
    if tok is None or tok.text not in _COMPARISONS | {"in"} or "COMP_OP" in ctx.acc:
        return None
    toks = ctx.src.tokens(tok.line)
    i = toks.index(tok)
    p = next((j for j in range(i - 1, -1, -1) if toks[j].text in _COMPARISONS | {"in"}), None)
    if p is None or "AND" not in ctx.acc:
        return None
    first = next((j + 1 for j in range(p - 1, -1, -1) if toks[j].text in _EXPR_START), 0)
    last, depth = i + 1, 0
    while last < len(toks) and depth >= 0 and (depth or toks[last].text not in _EXPR_STOP):
        depth += (toks[last].text in "([") - (toks[last].text in ")]")
        last += 1
    last -= depth < 0  # the bracket that closed an outer one
    text = ctx.src.lines[tok.line - 1]

    def part(a: int, b: int) -> str:
        return text[toks[a].col - 1 : toks[b - 1].end - 1].strip() if a < b else "..."

    left, middle, right = part(first, p), part(p + 1, i), part(i + 1, last)
    example = f"{left} {toks[p].text} {middle} and {middle} {tok.text} {right}"
    return _Fix(f"one comparison at a time: join them with 'and', as in '{example}'")


def _comparison_for_equals(ctx: _Ctx) -> _Fix | None:
    if ctx.tok is None or ctx.tok.text != "==":
        return None
    # Either '==' came where '=' belongs, or its first '=' was read as one.
    if not ctx.acc & {"EQUAL", "ASSIGN_OP"} and _where(ctx.err)[1] == ctx.tok.col:
        return None
    return _Fix("to give a value write '='; '==' compares two values")


def _colon_equals(ctx: _Ctx) -> _Fix | None:
    tok = ctx.tok
    if tok is None:
        return None
    if tok.text == ":=":
        span = tok
    elif tok.text == "=" and ctx.prev is not None and ctx.prev.text == ":":
        if ctx.prev.end != tok.col or ctx.prev.line != tok.line:
            return None
        span = _Tok(":=", tok.line, ctx.prev.col)
    else:
        return None
    return _Fix("to give a value write '=' (there is no ':=')", "unexpected ':='", span)


def _not_equal(ctx: _Ctx) -> _Fix | None:
    tok = ctx.tok
    if tok is None or tok.text != "<>":
        return None
    return _Fix("write '!=' for 'not equal'", "unexpected '<>'")


_SIGNS = {
    "&&": "write 'and' (there is no '&&')",
    "&": "write 'and'",
    "||": "write 'or' (there is no '||')",
    "|": "write 'or'",
    "!": "write 'not' (there is no '!' on its own; '!=' means 'not equal')",
    ";": "statements need no ';': remove it",
    "'": 'texts are written in double quotes: "like this"',
}


def _sign(ctx: _Ctx) -> _Fix | None:
    tok = ctx.tok
    if tok is None or tok.text not in _SIGNS:
        return None
    message = f"unexpected '{tok.text}'" if len(tok.text) > 1 else ""
    return _Fix(_SIGNS[tok.text], message)


def _letters(ctx: _Ctx) -> _Fix | None:
    tok = ctx.tok
    if tok is None or len(tok.text) != 1 or tok.text.isascii() or not tok.text.isalpha():
        return None
    return _Fix("names are written with the letters a to z, digits and '_'")


def _trailing_comma(ctx: _Ctx) -> _Fix | None:
    closer = ctx.tok or ctx.next
    if closer is None or closer.text not in (")", "]") or ctx.prev is None:
        return None
    if ctx.prev.text != ",":
        return None
    return _Fix(f"there is no ',' after the last item: remove the ',' before '{closer.text}'")


def _else_if(ctx: _Ctx) -> _Fix | None:
    if ctx.tok is None or ctx.tok.text != "if" or ctx.prev is None or ctx.prev.text != "else":
        return None
    return _Fix("write 'elif' for 'else if'")


def _block_colon(ctx: _Ctx) -> _Fix | None:
    if ctx.tok is None or ctx.tok.text != ":" or "LBRACE" not in ctx.acc:
        return None
    return _Fix("a block is written in braces, '{ ... }', not after ':'")


_OPENER = {"}": "LBRACE", ")": "LPAR", "]": "LSQB"}


def _stray_closer(ctx: _Ctx) -> _Fix | None:
    tok = ctx.tok
    if tok is None or tok.text not in _OPENER or ctx.prev is None or ctx.prev.text == ",":
        return None
    if any(o.type == _OPENER[tok.text] for o in ctx.opens):
        return None
    return _Fix(f"this '{tok.text}' closes no '{_BRACKET[_OPENER[tok.text]]}'")


def _comment(ctx: _Ctx) -> _Fix | None:
    """`// ...` or `/* ... */` from other languages."""
    tok = ctx.tok
    if tok is None or tok.text != "/":
        return None
    text = ctx.src.lines[tok.line - 1]
    if text[tok.col - 1 : tok.col + 1] not in ("//", "/*") and text[tok.col - 2 : tok.col] != "//":
        return None
    return _Fix("comments start with '#' and run to the end of the line")


def _decimal(ctx: _Ctx) -> _Fix | None:
    """`1.5`: numbers are whole."""
    tok, prev = ctx.tok, ctx.prev
    if tok is None or prev is None or prev.text != "." or not tok.text.isdigit():
        return None
    before = ctx.src.before(prev.line, prev.col)
    if before is None or not before.text.isdigit() or before.end != prev.col:
        return None
    return _Fix("numbers in rules are whole numbers: there are no fractions like 1.5")


def _quotes(ctx: _Ctx) -> _Fix | None:
    """A text where a name goes (`import "dice"`), or the other way (`game Chess`)."""
    tok = ctx.tok
    if tok is None:
        return None
    if tok.text.startswith('"') and "NAME" in ctx.acc and "STRING" not in ctx.acc:
        return _Fix(f"a name is written without quotes: {tok.text[1:-1]}")
    if ctx.acc == {"STRING"} and (tok.word or tok.text[0].isdigit()):
        toks = [t for t in ctx.src.after(tok) if t.text != "{"]
        last = toks[-1] if toks else tok
        text = ctx.src.lines[tok.line - 1][tok.col - 1 : last.end - 1]
        return _Fix(f'a text in quotes is expected here: "{text}"')
    return None


def _needs_type(ctx: _Ctx) -> _Fix | None:
    """`def f(x) = ...` or `global { score = 0 }`: a name without its type."""
    if ctx.acc != {"COLON"} or ctx.prev is None or not ctx.prev.word:
        return None
    first = ctx.src.tokens(ctx.prev.line)[0].text
    if first in ("def", "proc", "override"):
        return _Fix(f"each parameter has a type, as in '{ctx.prev.text}: int'")
    return _Fix(f"an attribute has a type, as in '{ctx.prev.text}: int = 0'")


def _braces_for_list(ctx: _Ctx) -> _Fix | None:
    if ctx.tok is None or ctx.tok.text != "{" or not ctx.acc >= _EXPR_CORE:
        return None
    return _Fix("a list is written in square brackets: [1, 2, 3]")


def _stray_else(ctx: _Ctx) -> _Fix | None:
    """`else` or `elif` that follows no if block (a missing '}' is found earlier)."""
    if ctx.tok is None or ctx.tok.text not in ("else", "elif") or not ctx.statement_expected():
        return None
    return _Fix(f"'{ctx.tok.text}' comes right after the '}}' that ends an if or elif block")


def _for_parenthesis(ctx: _Ctx) -> _Fix | None:
    """`for (p in players) {`."""
    tok = ctx.tok
    if tok is None or tok.text != "(" or ctx.prev is None or ctx.prev.text != "for":
        return None
    close = next((t for t in reversed(ctx.src.after(tok)) if t.text == ")"), None)
    inner = "x in xs"
    if close is not None:
        inner = ctx.src.lines[tok.line - 1][tok.end - 1 : close.col - 1].strip()
    return _Fix(f"a loop needs no parentheses: 'for {inner} {{ ... }}'")


def _statement_start(ctx: _Ctx) -> _Fix | None:
    """A name where a statement starts: a missing 'set' or 'do'."""
    tok = ctx.tok
    if tok is None or not tok.word or tok.text in ctx.keywords or not ctx.statement_expected():
        return None
    if not ctx.src.first_on_line(tok):
        return None
    after = ctx.src.after(tok)
    texts = [t.text for t in after]
    rest = _line_rest(ctx.src, tok)
    assign = next((i for i, t in enumerate(texts) if t in _ASSIGN), None)
    if assign is not None and all(
        t == "." or t == "[" or t == "]" or after[i].word for i, t in enumerate(texts[:assign])
    ):
        op = texts[assign]
        if op in ("++", "--"):
            rest = rest[: after[assign].col - tok.col] + f" {op[0]}= 1"
        elif op == ":=":
            rest = rest.replace(":=", "=", 1)
        hint = f"to change a value write 'set {rest.strip()}'"
        if op in ("=", ":=") and assign == 0:
            hint += f"; to declare a new one, 'let {rest.strip().replace(':=', '=', 1)}'"
        return _Fix(hint)
    if texts[:1] == ["("] or not texts:
        return _Fix(f"to run a proc write 'do {rest.strip()}'")
    return None


def _increment(ctx: _Ctx) -> _Fix | None:
    """`set x++` (a missing 'set' before `x++` is _statement_start's)."""
    tok = ctx.tok
    if tok is None or tok.text not in ("++", "--"):
        return None
    toks = ctx.src.tokens(tok.line)
    target = "x"
    if toks[0].text == "set" and toks.index(tok) > 1:
        target = ctx.src.lines[tok.line - 1][toks[1].col - 1 : tok.col - 1].strip()
    return _Fix(f"write 'set {target} {tok.text[0]}= 1'", f"unexpected '{tok.text}'")


def _def_or_proc(ctx: _Ctx) -> _Fix | None:
    """A def with both '=' and a block, or a proc with '= expression'."""
    tok, toks = ctx.tok, ctx.src.tokens(ctx.tok.line) if ctx.tok else []
    if tok is None or not toks:
        return None
    kind = toks[1].text if toks[0].text == "override" and len(toks) > 1 else toks[0].text
    if kind == "def" and tok.text == "{" and ctx.prev is not None and ctx.prev.text == "=":
        return _Fix(
            "a def is either 'def NAME(...) = EXPRESSION' or a block without '=': "
            "'def NAME(...) { ... return EXPRESSION }'"
        )
    if kind == "proc" and tok.text == "=" and "LBRACE" in ctx.acc:
        return _Fix(
            "a proc runs statements in braces: 'proc NAME { ... }'; for a value write "
            "'def NAME(...) = EXPRESSION'"
        )
    return None


def _def_value(ctx: _Ctx) -> _Fix | None:
    """An expression where a statement starts, in the block of a def: its value is
    given with 'return'."""
    tok = ctx.tok
    if tok is None or not ctx.statement_expected() or not ctx.opens:
        return None
    if tok.text in ctx.keywords and tok.text not in ("not", "true", "false", "none"):
        return None
    outer = ctx.src.tokens(ctx.opens[0].line or 1)
    if "def" not in [t.text for t in outer[:2]]:
        return None
    rest = _line_rest(ctx.src, tok).strip()
    return _Fix(f"a def's block gives its value with 'return': 'return {rest}'")


def _missing_comma(ctx: _Ctx) -> _Fix | None:
    """`[1 2]`, `max(a b)`: two values with nothing between them."""
    tok = ctx.tok
    if tok is None or "COMMA" not in ctx.acc or ctx.prev is None or ctx.prev.text == ",":
        return None
    if not (tok.word or tok.text[0].isdigit() or tok.text[0] in '"(['):
        return None
    expected = describe(ctx.acc, ctx.lark)
    return _Fix(f"is a ',' missing before {_quote(tok.text)}? (expected {expected})")


_FOREIGN = {
    "print": "to show a text write 'say'",
    "var": "to declare a value in a block write 'let'",
    "return": "a def gives the value of its expression ('def NAME(...) = EXPRESSION'); a "
    "proc gives no value",
    "function": "write 'def NAME(...) = EXPRESSION' for a value, 'proc NAME { ... }' for steps",
    "func": "write 'def NAME(...) = EXPRESSION' for a value, 'proc NAME { ... }' for steps",
    "fn": "write 'def NAME(...) = EXPRESSION' for a value, 'proc NAME { ... }' for steps",
    "elseif": "write 'elif'",
    "elsif": "write 'elif'",
    "else_if": "write 'elif'",
}


def _foreign_word(ctx: _Ctx) -> _Fix | None:
    if ctx.tok is None or ctx.tok.text.lower() not in _FOREIGN:
        return None
    return _Fix(_FOREIGN[ctx.tok.text.lower()])


def _keyword_typo(ctx: _Ctx) -> _Fix | None:
    tok = ctx.tok
    if tok is None or not tok.word or len(tok.text) < 3 or tok.text in ctx.keywords:
        return None
    wanted = [w for w in ctx.keywords if w.upper() in ctx.acc]
    close = difflib.get_close_matches(tok.text.lower(), wanted, n=1, cutoff=0.7)
    if not close:
        return None
    return _Fix(f"did you mean '{close[0]}'?")


def _misplaced(ctx: _Ctx) -> _Fix | None:
    tok = ctx.tok
    if tok is None or tok.text not in ctx.keywords:
        return None
    if tok.text in STATEMENTS and ctx.declaration_expected() and ctx.src.first_on_line(tok):
        return _Fix(
            f"'{tok.text}' is a statement: statements go inside a block, such as "
            "'setup { ... }', 'turn { ... }' or a proc"
        )
    if tok.text in DECLARATIONS and ctx.statement_expected():
        if tok.text in ("const", "param"):
            return _Fix(
                f"'{tok.text}' declares a value for the whole file; inside a block write 'let'"
            )
        return _Fix(f"'{tok.text}' starts a declaration, which cannot go inside a block")
    if "NAME" in ctx.acc:
        return _Fix(f"'{tok.text}' is a keyword and cannot be used here as a name")
    return None


RULES: tuple[_Rule, ...] = (
    _conditional_expression,
    _then,
    _duels,
    _players,
    _colon_equals,
    _equals_for_comparison,
    _comparison_for_equals,
    _not_equal,
    _chained_comparison,
    _sign,
    _letters,
    _trailing_comma,
    _else_if,
    _block_colon,
    _stray_closer,
    _comment,
    _decimal,
    _quotes,
    _needs_type,
    _def_or_proc,  # before _braces_for_list: 'def f() = {' is a def with a block
    _braces_for_list,
    _stray_else,
    _for_parenthesis,
    _foreign_word,
    _increment,
    _statement_start,
    _def_value,
    _missing_comma,
    _keyword_typo,
    _misplaced,
)


def _targeted(ctx: _Ctx) -> _Fix | None:
    for rule in RULES:
        fix = rule(ctx)
        if fix is not None:
            return fix
    return None


# ----------------------------------------------------------------------------- diagnoses


def _span(file: str, tok: _Tok) -> Span:
    return Span(file, tok.line, tok.col, tok.line, tok.end)


def _after_span(file: str, tok: _Tok) -> Span:
    return Span(file, tok.line, tok.end, tok.line, tok.end + 1)


def _unclosed(
    src: _Source, opens: list[Token], stop: int | None
) -> tuple[_Tok, int | None, list[_Tok]]:
    """Which '{' of `opens` (the brackets the parser holds open when reading stops at
    line `stop`, None for the end of the file) was left unclosed: the indentation tells,
    as a '}' at the start of a line closes the '{' of the line indented as much. Returns
    that brace, the line before which its '}' belongs, and the others left open."""
    first = opens[0]
    last_line = (stop - 1) if stop is not None else len(src.lines)
    stack: list[tuple[_Tok, int]] = []
    suspects: list[tuple[_Tok, int]] = []
    for line in range(first.line or 1, last_line + 1):
        toks = src.tokens(line)
        for tok in toks:
            if line == first.line and tok.col < (first.column or 1):
                continue
            if tok.text == "{":
                stack.append((tok, toks[0].col - 1))
            elif tok.text == "}":
                if tok is toks[0]:
                    while stack and stack[-1][1] > tok.col - 1:
                        suspects.append((stack.pop()[0], line))
                if stack:
                    stack.pop()
    left = [(tok, stop) for tok, _ in stack]
    found = suspects + left[::-1]
    if not found:  # the indentation cannot tell: the innermost
        inner = opens[-1]
        tok = _Tok("{", inner.line or 1, inner.column or 1)
        return tok, stop, []
    chosen, before = found[0]
    return chosen, _block_end(src, chosen.line, before), [t for t, _ in found[1:]]


def _indent(src: _Source, line: int) -> int | None:
    toks = src.tokens(line)
    return toks[0].col - 1 if toks else None


def _block_end(src: _Source, line: int, limit: int | None) -> int | None:
    """Where the block opened on `line` ends by its indentation: the first line, before
    line `limit`, indented no deeper than `line` (if the block's lines are deeper)."""
    base = _indent(src, line) or 0
    last = limit - 1 if limit is not None else len(src.lines)
    inner = False
    for n in range(line + 1, last + 1):
        indent = _indent(src, n)
        if indent is None:
            continue
        if indent <= base:
            return n if inner else limit
        inner = True
    return limit


def _unclosed_brace(
    src: _Source, file: str, opens: list[Token], stop_line: int | None, count: int = 0
) -> Diagnostic:
    """E003 for the '{' left open when reading stopped before line stop_line, `count` of
    them (0: all) being the ones never closed."""
    braces = [o for o in opens if o.type == "LBRACE"]
    brace, before, others = _unclosed(src, braces, stop_line)
    others = others[: (count or len(braces)) - 1]
    where = f"before line {before}" if before is not None else "at the end of the file"
    hint = f"add '}}' {where}"
    if len(others) == 1:
        hint += f"; the '{{' on line {others[0].line} is not closed either"
    elif others:
        lines = _join([str(t.line) for t in others])
        hint += f"; the '{{' on lines {lines} are not closed either"
    return unclosed_bracket("{", brace.line, _span(file, brace), hint)


def _closers_needed(err: UnexpectedInput, braces: int, keywords: frozenset[str]) -> int:
    """How many '}' (up to `braces`) must come before the unexpected token for the
    parser to take it: 0 if closing blocks does not help."""
    parser = _state(err)
    if parser is None or not isinstance(err, UnexpectedToken):
        return 0
    parser = parser.copy(deepcopy_values=False)
    conf = copy(parser.parser_state.parse_conf)
    conf.callbacks = {}
    parser.parser_state.parse_conf = conf
    # Where the parser does not expect a keyword, it may have read it as a name.
    word = str(err.token.value)
    kinds = {err.token.type, word.upper()} if word in keywords else {err.token.type}
    for n in range(1, braces + 1):
        try:
            parser.feed_token(Token("RBRACE", "}"))
        except UnexpectedToken:
            return 0
        if kinds & parser.accepts():
            return n
    return 0


def _boundary(
    src: _Source,
    file: str,
    lark: Lark,
    err: UnexpectedInput,
    stop: str,
    stop_line: int | None,
    following: _Tok | None = None,
) -> Diagnostic:
    """The text read so far ends too early, at the end of the file, at a new declaration
    on line stop_line, or before `following` on a later line; `stop` says which."""
    acc = _accepts(err)
    opens = _open_brackets(err)
    line, col = _where(err)
    if not _eof(err):
        prev = src.before(line, col)
    elif stop_line is not None:
        prev = src.before(stop_line, 1)
    else:
        prev = src.before(src.last_line(), 1 << 30)
    if opens and _CLOSER[opens[-1].type] in acc:
        if opens[-1].type == "LBRACE":
            return _unclosed_brace(src, file, opens, stop_line)
        inner = opens[-1]
        tok = _Tok(_BRACKET[inner.type], inner.line or 1, inner.column or 1)
        after = f" after {_quote(prev.text)}" if prev is not None else ""
        return unclosed_bracket(
            tok.text, tok.line, _span(file, tok), f"expected {describe(acc, lark)}{after}; {stop}"
        )
    if prev is None:  # pragma: no cover - a declaration keyword always comes first
        return syntax_error(f"expected {describe(acc, lark)}", Span(file, 1, 1))
    ctx = _Ctx(src, lark, err, acc, None, prev, opens, following)
    fix = _targeted(ctx)
    message = f"expected {describe(acc, lark)} after {_quote(prev.text)}"
    return syntax_error(message, _after_span(file, prev), fix.hint if fix else stop)


def _unexpected(src: _Source, file: str, lark: Lark, err: UnexpectedInput) -> Diagnostic:
    """An error in the middle of a line: what came, and what was expected."""
    line, col = _where(err)
    acc = _accepts(err)
    opens = _open_brackets(err)
    tok = src.at(line, col) or _Tok(_lark_text(err), line, col)
    if isinstance(err, UnexpectedCharacters):
        if tok.text.startswith('"'):
            return unterminated_text(
                _span(file, _Tok(src.lines[line - 1][col - 1 :].rstrip(), line, col))
            )
        message = f"unexpected character '{tok.text[0]}'"
        tok = _Tok(tok.text[0], line, col) if tok.text not in _SIGNS else tok
    elif tok.text.startswith('"'):
        message = f"unexpected text {_quote(tok.text)}"
    else:
        message = f"unexpected {_quote(tok.text)}"
    prev = src.before(line, col)
    ctx = _Ctx(src, lark, err, acc, tok, prev, opens)
    fix = _targeted(ctx)
    hint = f"expected {describe(acc, lark)}" if acc else ""
    if fix is None:
        return syntax_error(message, _span(file, tok), hint)
    return syntax_error(fix.message or message, _span(file, fix.tok or tok), fix.hint)


def _lark_text(err: UnexpectedInput) -> str:
    if isinstance(err, UnexpectedToken):
        return str(err.token.value) or " "
    if isinstance(err, UnexpectedCharacters):
        return str(err.char)
    return " "  # pragma: no cover


class _Reader:
    """Parses parts of the file, remembering the first error of each."""

    def __init__(self, lark: Lark, src: _Source):
        self.lark = lark
        self.src = src
        self.seen: dict[tuple[int, int | None], UnexpectedInput | None] = {}

    def error(self, start: int, end: int | None = None) -> UnexpectedInput | None:
        key = (start, end)
        if key not in self.seen:
            # No tree is wanted, only where reading stops: parse without building one.
            parser: Any = self.lark.parse_interactive(self.src.chunk(start, end), start="start")
            conf = copy(parser.parser_state.parse_conf)
            conf.callbacks = {}
            parser.parser_state.parse_conf = conf
            try:
                parser.resume_parse()
                self.seen[key] = None
            except UnexpectedInput as err:
                self.seen[key] = err
        return self.seen[key]


def _diagnose(
    reader: _Reader, file: str, start: int, err: UnexpectedInput
) -> tuple[Diagnostic, int | None]:
    """The diagnostic for the first error of the text from line `start`, and the line to
    read on from (None: stop)."""
    src, lark = reader.src, reader.lark
    line, col = _where(err)
    eof = _eof(err)
    top = src.top_within(start, src.last_line() if eof else line)
    if top is not None:
        # A declaration keyword in column 1 was read as part of what came before it: if
        # the declaration it starts reads well on its own (at least past this error),
        # the mistake is that the text before it stops too early.
        at_top = not eof and line == top and col == 1
        if at_top or _beyond(reader.error(top), err):
            before = reader.error(start, top)
            if before is not None and _eof(before):
                keyword = src.tokens(top)[0].text
                stop = f"line {top} starts a new declaration ('{keyword}')"
                return _boundary(src, file, lark, before, stop, top), top
    if eof:
        return _boundary(src, file, lark, err, "the file ends here", None), None
    resume = src.resync(line, start)
    first = (src.tokens(line) or [_Tok(_lark_text(err), line, col)])[0]
    if line > start and first.col < col and _starts_anew(src, first, _keywords(lark)):
        # The line reads as the start of something new, yet the parser took its first
        # word to continue the line before: if that one cannot end where it does, it
        # is the mistake. (A keyword that may go on, like 'else' or 'by', is not taken
        # as a name; a name may go on an expression inside '(' or '['.)
        before = reader.error(start, line)
        if before is not None and _eof(before):
            acc = _accepts(before)
            is_keyword = first.text in _keywords(lark)
            inside = any(o.type != "LBRACE" for o in _open_brackets(before))
            if not _may_end(acc) and first.text.upper() not in acc and (is_keyword or not inside):
                stop = f"line {line} cannot continue it"
                return _boundary(src, file, lark, before, stop, line), resume
    prev = src.before(line, col, start)
    opens = _open_brackets(err)
    if (
        isinstance(err, UnexpectedToken)
        and first.col == col
        and opens
        and opens[-1].type == "LBRACE"
        and (
            first.col - 1 <= (_indent(src, opens[-1].line or 1) or 0)
            or first.text in ("else", "elif")
        )
    ):
        # The first word of a line, indented no deeper than the open block (or an 'else'
        # that can only follow a '}'), that would be taken after a '}' or more: the
        # block is not closed.
        braces = sum(o.type == "LBRACE" for o in opens)
        needed = _closers_needed(err, braces, _keywords(lark))
        if needed:
            resume = src.resync(line - 1, start, needed)
            return _unclosed_brace(src, file, opens, line, needed), resume
    if (
        isinstance(err, UnexpectedToken)
        and prev is not None
        and prev.line < line
        and not _may_end(_accepts(err))
    ):
        # The line before ends too early: that is where the mistake is.
        tok = src.at(line, col)
        what = _quote(tok.text) if tok is not None else "what follows"
        stop = f"{what} on line {line} cannot continue it"
        return _boundary(src, file, lark, err, stop, line, tok), resume
    return _unexpected(src, file, lark, err), resume


def _starts_anew(src: _Source, first: _Tok, keywords: frozenset[str]) -> bool:
    """Whether a line starting with `first` looks like a statement, declaration or
    attribute of its own: a keyword, or a name followed by ':', '=', '+=', '-=' or '.'."""
    if first.text in keywords:
        return True
    toks = src.tokens(first.line)
    return first.word and len(toks) > 1 and toks[1].text in (":", "=", "+=", "-=", ".")


def _beyond(later: UnexpectedInput | None, err: UnexpectedInput) -> bool:
    return later is None or _where(later) > _where(err)


def report(lark: Lark, text: str, file: str, first: UnexpectedInput) -> list[Diagnostic]:
    """Every syntax error of `text` that can be told apart, first being Lark's first."""
    src = _Source(text)
    reader = _Reader(lark, src)
    reader.seen[(1, None)] = first
    out: list[Diagnostic] = []
    start: int | None = 1
    err: UnexpectedInput | None = first
    while err is not None and start is not None and len(out) < MAX_ERRORS:
        diag, resume = _diagnose(reader, file, start, err)
        out.append(diag)
        if resume is None or resume <= start:  # (the next start is always further on)
            break
        start, err = resume, reader.error(resume)
    return out


def expression_error(
    lark: Lark, text: str, file: str, line: int, col: int, err: UnexpectedInput
) -> Diagnostic:
    """An error in an interpolated {expression} of a text, `text` being the expression
    and (line, col) where it starts in the file."""
    src = _Source(text)
    if _eof(err):
        prev = src.before(1, 1 << 30)
        acc = _accepts(err)
        if prev is None:
            diag = syntax_error(
                f"expected {describe(acc, lark)}", Span(file, 1, 1), "the braces hold no expression"
            )
        else:
            diag = syntax_error(
                f"expected {describe(acc, lark)} after {_quote(prev.text)}",
                _after_span(file, prev),
                "the expression in braces ends here",
            )
    else:
        diag = _unexpected(src, file, lark, err)
    span = diag.span
    end = col + max(span.end_col, span.col + 1) - 1
    return replace(diag, span=Span(file, line, col + span.col - 1, line, end))

"""Parse rule text into the typed AST. Lark's own messages never leave this module and
syntax_errors.py, which words the errors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedInput, VisitError

from rulelang import errors
from rulelang.diagnostics import Diagnostic, RuleError, Span
from rulelang.syntax import ast as A
from rulelang.syntax.limits import MAX_NESTING
from rulelang.syntax.node import replace
from rulelang.syntax.parser_cache import cached_lark

GRAMMAR = Path(__file__).with_name("rulelang.lark")


class WholeNames:
    """Lark's post-lexer that lets a name be read as a whole wherever the parser stands.
    Lark's contextual lexer tries only the tokens the parser may take next, so where a
    statement begins (keywords only) `draw_card(current)` was read as the keyword `draw`
    and a name `_card`: a program nobody wrote, then errors about a `draw` and an
    unknown function `_card`. With names always tried, it is one name, and the parser
    says it cannot begin a statement (a keyword is still a keyword: Lark gives a name
    that spells one the keyword's type). Kept in the cached parser (parser_cache.py)."""

    always_accept = ("NAME",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream

    def __repr__(self) -> str:  # part of the parser cache's key: the same every run
        return "WholeNames()"


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return cached_lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        start=["start", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
        postlex=WholeNames(),
    )


MAX_DIGITS = 18  # numbers in rule files: at most this many digits


def _too_deep(file: str) -> RuleError:
    return RuleError([errors.too_deep_to_read(Span(file, 1, 1), MAX_NESTING)])


def parse(text: str, file: str = "<rules>") -> A.Module:
    """The module of a rule file's text; RuleError with every syntax error found."""
    try:
        try:
            tree = _parser().parse(text, start="start")
        except UnexpectedInput as err:
            from rulelang.syntax.syntax_errors import report  # only when there are errors

            raise RuleError(report(_parser(), text, file, err)) from None
        builder = _Builder(file)
        decls: list[A.Decl] = builder.transform(tree)
    except VisitError as err:
        if isinstance(err.orig_exc, RecursionError):
            raise _too_deep(file) from None
        raise
    except RecursionError:
        raise _too_deep(file) from None
    if builder.problems:  # numbers too long, errors in interpolated {expressions}
        raise RuleError(builder.problems)
    return A.Module(file, tuple(decls))


def parse_expr(text: str, file: str, line: int, col: int) -> A.Expr:
    """Parse an interpolated {expression} found inside a text literal."""
    try:
        tree = _parser().parse(text, start="expr")
    except UnexpectedInput as err:
        from rulelang.syntax.syntax_errors import expression_error  # only when there are errors

        raise RuleError([expression_error(_parser(), text, file, line, col, err)]) from None
    builder = _Builder(file, offset=(line, col))
    result: A.Expr = builder.transform(tree)
    if builder.problems:
        raise RuleError(builder.problems)
    return result


def template_pieces(raw: str) -> list[str | tuple[int, int]]:
    """A text's pieces: plain text (`{{` and `}}` already made single braces), and
    (start, end) of each {expression} (the positions of its braces). A quoted text
    inside the braces may hold braces of its own. A brace with no partner is (at, -1)."""
    pieces: list[str | tuple[int, int]] = []
    plain: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch in "{}" and raw[i + 1 : i + 2] == ch:  # a doubled brace is the brace itself
            plain.append(ch)
            i += 2
            continue
        if ch == "}":
            pieces += ["".join(plain), (i, -1)] if plain else [(i, -1)]
            plain, i = [], i + 1
            continue
        if ch != "{":
            step = 2 if ch == "\\" else 1  # an escaped sign is kept as it is
            plain.append(raw[i : i + step])
            i += step
            continue
        end = _closing_brace(raw, i)
        if plain:
            pieces.append("".join(plain))
        pieces.append((i, end))
        plain, i = [], (end + 1 if end >= 0 else len(raw))
    if plain:
        pieces.append("".join(plain))
    return [p for p in pieces if p != ""]


def _closing_brace(raw: str, start: int) -> int:
    """Where the {expression} opened at `start` ends, skipping quoted texts inside it;
    -1 if it never does (or another `{` opens first: expressions hold no braces)."""
    i, quoted = start + 1, False
    while i < len(raw):
        ch = raw[i]
        if ch == "\\":
            i += 2
            continue
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "}":
            return i
        elif not quoted and ch == "{":
            return -1
        i += 1
    return -1


def _brace_problem(raw: str, at: int, span: Span) -> Diagnostic:
    if raw[at] == "}":
        return errors.stray_brace(span)
    return errors.unclosed_brace(span)


@dataclass(frozen=True)
class _TopOrder:
    """A top-level `order ...`: folded into the file's top-level `turn` (phase main)."""

    span: Span
    order: str
    order_from: Any


@dataclass(frozen=True)
class _Skip:
    """A `skip when COND` and where it is written: in a phase, or at the top level (then
    folded into the file's top-level `turn`, phase main)."""

    span: Span
    cond: Any


class _Builder(Transformer[Any, Any]):
    def __init__(self, file: str, offset: tuple[int, int] | None = None):
        super().__init__()
        self.file = file
        self.offset = offset
        self.problems: list[Diagnostic] = []  # reported together once the tree is built
        self.short_turns: list[A.PhaseDecl] = []  # the top-level `turn`s (phase main)

    # ---- helpers
    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 0, 0)
        if self.offset:
            line, col = self.offset
            return Span(self.file, line, col + meta.column - 1, line, col + meta.end_column - 1)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tok_span(self, tok: Token) -> Span:
        line, col = tok.line or 0, tok.column or 0
        if self.offset:
            line, col = self.offset[0], self.offset[1] + col - 1
        return Span(self.file, line, col, line, col + len(str(tok)))

    def _text(self, tok: Token) -> A.TextLit:
        """A text literal: plain parts and {expressions}; `{{` and `}}` are braces."""
        raw = str(tok)[1:-1]
        span = self._tok_span(tok)
        parts: list[str | A.Expr] = []
        for piece in template_pieces(raw):
            if isinstance(piece, str):
                parts.append(_unescape(piece))
                continue
            start, end = piece
            col = span.col + 1 + start
            if end < 0:  # a brace with no partner: the message says which
                self.problems.append(_brace_problem(raw, start, Span(self.file, span.line, col)))
                continue
            try:
                parts.append(parse_expr(raw[start + 1 : end], self.file, span.line, col + 1))
            except RuleError as err:
                self.problems.extend(err.diagnostics)
        if not parts:
            parts.append("")
        return A.TextLit(span, tuple(parts))

    @staticmethod
    def _plain(tok: Token) -> str:
        return _unescape(str(tok)[1:-1])

    @staticmethod
    def _stmts(block: Any) -> tuple[A.Stmt, ...]:
        return tuple(block) if block is not None else ()

    # ---- top level
    def start(self, items: list[Any]) -> list[Any]:
        orders = [i for i in items if isinstance(i, _TopOrder)]
        skips = [i for i in items if isinstance(i, _Skip)]
        if not orders and not skips:
            return items
        decls = [i for i in items if not isinstance(i, (_TopOrder, _Skip))]
        mains = [k for k, d in enumerate(decls) if any(d is t for t in self.short_turns)]
        for extra in orders[1:]:
            self.problems.append(errors.order_twice(extra.span, orders[0].span))
        for again in skips[1:]:
            self.problems.append(errors.skip_twice(again.span, skips[0].span))
        if not mains:
            if orders:
                self.problems.append(errors.order_without_turn(orders[0].span))
            if skips:
                self.problems.append(errors.skip_without_turn(skips[0].span))
            return decls
        k = mains[0]
        if orders:
            top = orders[0]
            decls[k] = replace(
                decls[k], order=top.order, order_from=top.order_from, order_span=top.span
            )
            self.check_order(top.order, top.order_from)
        if skips:
            decls[k] = replace(decls[k], skip_when=skips[0].cond)
        return decls

    def check_order(self, order: str, order_from: Any) -> None:
        """`order random` draws who starts: a `from` would contradict it."""
        if order == "random" and order_from is not None:
            self.problems.append(errors.random_order_from(order_from.span))

    @v_args(meta=True)
    def order_decl(self, meta: Any, c: list[Any]) -> _TopOrder:
        return _TopOrder(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def skip_decl(self, meta: Any, c: list[Any]) -> _Skip:
        return _Skip(self._span(meta), c[0])

    @v_args(meta=True)
    def game_decl(self, meta: Any, c: list[Any]) -> A.GameDecl:
        return A.GameDecl(self._span(meta), self._plain(c[0]))

    @v_args(meta=True)
    def library_decl(self, meta: Any, c: list[Any]) -> A.LibraryDecl:
        return A.LibraryDecl(self._span(meta), self._plain(c[0]))

    @v_args(meta=True)
    def players_decl(self, meta: Any, c: list[Any]) -> A.PlayersDecl:
        return A.PlayersDecl(self._span(meta), self._number(c[0]), self._number(c[1]))

    @v_args(meta=True)
    def import_decl(self, meta: Any, c: list[Any]) -> A.ImportDecl:
        return A.ImportDecl(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def extends_decl(self, meta: Any, c: list[Any]) -> A.ExtendsDecl:
        return A.ExtendsDecl(self._span(meta), self._plain(c[0]))

    def override(self, _c: list[Any]) -> bool:
        return True

    @v_args(meta=True)
    def param_decl(self, meta: Any, c: list[Any]) -> A.ParamDecl:
        doc = self._plain(c[3]) if c[3] is not None else ""
        return A.ParamDecl(self._span(meta), str(c[1]), bool(c[0]), c[2], doc)

    @v_args(meta=True)
    def const_decl(self, meta: Any, c: list[Any]) -> A.ConstDecl:
        return A.ConstDecl(self._span(meta), str(c[1]), bool(c[0]), c[2])

    @v_args(meta=True)
    def table_decl(self, meta: Any, c: list[Any]) -> A.TableDecl:
        entries = tuple(e for e in c[2:] if e is not None)
        return A.TableDecl(self._span(meta), str(c[1]), bool(c[0]), entries)

    def table_entry(self, c: list[Any]) -> tuple[int, int, A.Expr]:
        low, high = c[0]
        return (low, high, c[1])

    def key_one(self, c: list[Any]) -> tuple[int, int]:
        return (self._number(c[0]), self._number(c[0]))

    def key_range(self, c: list[Any]) -> tuple[int, int]:
        return (self._number(c[0]), self._number(c[1]))

    @v_args(meta=True)
    def die_decl(self, meta: Any, c: list[Any]) -> A.DieDecl:
        return A.DieDecl(self._span(meta), str(c[1]), bool(c[0]), c[2])

    @v_args(meta=True)
    def board_decl(self, meta: Any, c: list[Any]) -> A.BoardDecl:
        items = c[-1] or ()
        attrs = tuple(x for k, x in items if k == "fixed")
        state = tuple(x for k, x in items if k == "state")
        edges = tuple(x for k, x in items if k == "edge")
        tiles = str(c[-2]) if c[-2] is not None else ""
        args = tuple(a for a in c[3:-2] if a is not None)
        return A.BoardDecl(
            self._span(meta), str(c[1]), bool(c[0]), str(c[2]), args, attrs, tiles, state, edges
        )

    def board_tiles(self, c: list[Any]) -> Any:
        return c[0]

    def board_attrs(self, c: list[Any]) -> tuple[tuple[str, Any], ...]:
        return tuple(c)

    def board_fixed(self, c: list[Any]) -> tuple[str, Any]:
        return ("fixed", (str(c[0]), c[1]))

    @v_args(meta=True)
    def board_state(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("state", self._attr(meta, c))

    @v_args(meta=True)
    def board_edge(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("edge", self._attr(meta, c))

    @v_args(meta=True)
    def kind_decl(self, meta: Any, c: list[Any]) -> A.KindDecl:
        return A.KindDecl(
            self._span(meta), str(c[2]), bool(c[0]), str(c[1]), c[3], tuple(c[5:]), c[4] or ""
        )

    def kind_count(self, c: list[Any]) -> Any:
        return c[0]

    def kind_data(self, c: list[Any]) -> str:
        return self._plain(c[0])

    @v_args(meta=True)
    def player_decl(self, meta: Any, c: list[Any]) -> A.PlayerDecl:
        return A.PlayerDecl(self._span(meta), tuple(c))

    @v_args(meta=True)
    def global_decl(self, meta: Any, c: list[Any]) -> A.GlobalDecl:
        return A.GlobalDecl(self._span(meta), tuple(c))

    @v_args(meta=True)
    def attr_decl(self, meta: Any, c: list[Any]) -> A.AttrDecl:
        return self._attr(meta, c)

    def _attr(self, meta: Any, c: list[Any]) -> A.AttrDecl:
        """NAME, type, default, visibility, display: an attribute (of a board too)."""
        vis = c[3] or "all"
        return A.AttrDecl(self._span(meta), str(c[0]), c[1], c[2], vis, c[4] or "")

    def display_as(self, c: list[Any]) -> str:
        return str(c[0])

    def display_node(self, c: list[Any]) -> str:
        return f"node({c[0]})"

    def visibility(self, c: list[Any]) -> str:
        return str(c[0])

    def audience(self, c: list[Any]) -> str:
        return str(c[0])

    def kind_kw(self, c: list[Any]) -> str:
        return str(c[0])

    def order(self, c: list[Any]) -> str:
        return str(c[0])

    @v_args(meta=True)
    def enum_decl(self, meta: Any, c: list[Any]) -> A.EnumDecl:
        names = [t for t in c[2:] if t is not None]
        return A.EnumDecl(
            self._span(meta),
            str(c[1]),
            bool(c[0]),
            tuple(str(t) for t in names),
            tuple(self._tok_span(t) for t in names),
        )

    @v_args(meta=True)
    def zone_decl(self, meta: Any, c: list[Any]) -> A.ZoneDecl:
        vis = c[4] or "all"
        return A.ZoneDecl(self._span(meta), str(c[1]), bool(c[0]), str(c[2]), c[3] is not None, vis)

    def per_player(self, _c: list[Any]) -> bool:
        return True

    # ---- types
    @v_args(meta=True)
    def t_int(self, meta: Any, _c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "int")

    @v_args(meta=True)
    def t_bool(self, meta: Any, _c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "bool")

    @v_args(meta=True)
    def t_text(self, meta: Any, _c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "text")

    @v_args(meta=True)
    def t_player(self, meta: Any, _c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "player")

    @v_args(meta=True)
    def t_side(self, meta: Any, c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "side", str(c[0]))

    @v_args(meta=True)
    def t_node(self, meta: Any, c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "node", str(c[0]))

    @v_args(meta=True)
    def t_list(self, meta: Any, c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "list", elem=c[0])

    @v_args(meta=True)
    def t_kind(self, meta: Any, c: list[Any]) -> A.TypeExpr:
        return A.TypeExpr(self._span(meta), "kind", str(c[0]))

    # ---- callables and flow
    def params(self, c: list[Any]) -> tuple[A.ParamSpec, ...]:
        return tuple(c)

    @v_args(meta=True)
    def param(self, meta: Any, c: list[Any]) -> A.ParamSpec:
        return A.ParamSpec(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def def_decl(self, meta: Any, c: list[Any]) -> A.DefDecl:
        return A.DefDecl(self._span(meta), str(c[1]), bool(c[0]), c[2] or (), c[3])

    @v_args(meta=True)
    def def_block(self, meta: Any, c: list[Any]) -> A.DefDecl:
        return A.DefDecl(self._span(meta), str(c[1]), bool(c[0]), c[2] or (), self._stmts(c[3]))

    @v_args(meta=True)
    def proc_decl(self, meta: Any, c: list[Any]) -> A.ProcDecl:
        return A.ProcDecl(self._span(meta), str(c[1]), bool(c[0]), c[2] or (), self._stmts(c[3]))

    @v_args(meta=True)
    def setup_decl(self, meta: Any, c: list[Any]) -> A.SetupDecl:
        return A.SetupDecl(self._span(meta), "setup", bool(c[0]), self._stmts(c[1]))

    @v_args(meta=True)
    def turn_decl(self, meta: Any, c: list[Any]) -> A.PhaseDecl:
        span = self._span(meta)
        phase = A.PhaseDecl(
            span, "main", bool(c[0]), (), self._stmts(c[1]), "clockwise", None, None, "", None
        )
        self.short_turns.append(phase)  # a top-level `order` belongs to it
        return phase

    @v_args(meta=True)
    def phase_decl(self, meta: Any, c: list[Any]) -> A.PhaseDecl:
        begin: tuple[A.Stmt, ...] = ()
        turn: tuple[A.Stmt, ...] = ()
        order, order_from, end_when, nxt, nxt_span = "clockwise", None, None, "", None
        order_span, skip = None, None
        for item in c[2:]:
            tag, val = item
            if tag == "skip":
                if skip is not None:
                    self.problems.append(errors.skip_twice(val.span, skip.span))
                skip = skip or val
            elif tag == "begin":
                begin = val
            elif tag == "turn":
                turn = val
            elif tag == "order":
                order, order_from, order_span = val
            elif tag == "end":
                end_when = val
            else:
                nxt, nxt_span = val
        return A.PhaseDecl(
            self._span(meta),
            str(c[1]),
            bool(c[0]),
            begin,
            turn,
            order,
            order_from,
            end_when,
            nxt,
            nxt_span,
            order_span,
            skip.cond if skip is not None else None,
        )

    def phase_begin(self, c: list[Any]) -> tuple[str, Any]:
        return ("begin", self._stmts(c[0]))

    def phase_turn(self, c: list[Any]) -> tuple[str, Any]:
        return ("turn", self._stmts(c[0]))

    @v_args(meta=True)
    def phase_skip(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("skip", _Skip(self._span(meta), c[0]))

    @v_args(meta=True)
    def phase_order(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        self.check_order(str(c[0]), c[1])
        return ("order", (str(c[0]), c[1], self._span(meta)))

    def phase_end(self, c: list[Any]) -> tuple[str, Any]:
        return ("end", c[0])

    def phase_next(self, c: list[Any]) -> tuple[str, Any]:
        return ("next", (str(c[0]), self._tok_span(c[0])))

    @v_args(meta=True)
    def end_decl(self, meta: Any, c: list[Any]) -> A.EndDecl:
        return A.EndDecl(self._span(meta), "end", bool(c[0]), c[1], self._stmts(c[2]))

    @v_args(meta=True)
    def bot_decl(self, meta: Any, c: list[Any]) -> A.BotDecl:
        choices = tuple(x for x in c[3:] if isinstance(x, A.BotChoice))
        return A.BotDecl(self._span(meta), str(c[1]), bool(c[0]), c[2], choices)

    @v_args(meta=True)
    def estimate_decl(self, meta: Any, c: list[Any]) -> A.EstimateDecl:
        after, by_bots, duels = (0, False, None) if c[1] is None else c[1]
        span = self._span(meta)
        return A.EstimateDecl(span, "estimate", bool(c[0]), after, c[2], by_bots, duels)

    @v_args(meta=True)
    def measure_decl(self, meta: Any, c: list[Any]) -> A.MeasureDecl:
        doc = self._plain(c[4]) if c[4] is not None else ""
        return A.MeasureDecl(self._span(meta), str(c[1]), bool(c[0]), c[2] is not None, c[3], doc)

    @v_args(meta=True)
    def imagine_decl(self, meta: Any, c: list[Any]) -> A.ProcDecl:
        span = self._span(meta)
        me = A.ParamSpec(span, "me", A.TypeExpr(span, "player"))
        body = self._stmts(c[1])
        return A.ProcDecl(span, A.IMAGINE, bool(c[0]), (me,), body, imagine=True)

    def estimate_after(self, c: list[Any]) -> tuple[int, bool, int | None]:
        return self._number(c[0]), c[1] is not None, c[2]

    def duels_after(self, c: list[Any]) -> int:
        return self._number(c[0])

    def by_bots(self, c: list[Any]) -> bool:
        return True

    def bot_for(self, c: list[Any]) -> A.Expr:
        return cast(A.Expr, c[0])  # lark gives the children untyped

    @v_args(meta=True)
    def bot_choice(self, meta: Any, c: list[Any]) -> A.BotChoice:
        rules = tuple(r for r in c[1:] if isinstance(r, A.BotRule))
        return A.BotChoice(self._span(meta), str(c[0]), self._tok_span(c[0]), rules)

    @v_args(meta=True)
    def bot_rule(self, meta: Any, c: list[Any]) -> A.BotRule:
        word, exprs = str(c[0]), tuple(c[1:])
        span = self._span(meta)
        if word == "otherwise" and len(exprs) == 1 and exprs[0] == A.Name(exprs[0].span, "random"):
            return A.BotRule(span, "random", ())
        if word == "prefer" or (word in ("best", "least") and len(exprs) == 1):
            return A.BotRule(span, word, exprs)
        where = self._tok_span(c[0])
        if word in ("best", "least", "otherwise"):
            shown = "is written 'otherwise random'" if word == "otherwise" else "takes one value"
            self.problems.append(errors.syntax_error(f"'{word}' {shown}", span))
        else:
            self.problems.append(
                errors.syntax_error(
                    f"unexpected '{word}' in a bot's rules",
                    where,
                    "a rule is 'prefer C1, C2, ...', 'best VALUE', 'least VALUE' or "
                    "'otherwise random'",
                )
            )
        return A.BotRule(span, "random", ())

    def block(self, c: list[Any]) -> tuple[A.Stmt, ...]:
        return tuple(c)

    # ---- statements
    @v_args(meta=True)
    def s_let(self, meta: Any, c: list[Any]) -> A.Let:
        return A.Let(self._span(meta), str(c[0]), c[1], c[2])

    @v_args(meta=True)
    def s_set(self, meta: Any, c: list[Any]) -> A.Set:
        return A.Set(self._span(meta), c[0], str(c[1]), c[2])

    @v_args(meta=True)
    def s_if(self, meta: Any, c: list[Any]) -> A.If:
        otherwise = self._stmts(c[-1])
        body = c[:-1]
        branches = tuple((body[i], self._stmts(body[i + 1])) for i in range(0, len(body), 2))
        return A.If(self._span(meta), branches, otherwise)

    @v_args(meta=True)
    def s_while(self, meta: Any, c: list[Any]) -> A.While:
        return A.While(self._span(meta), c[0], self._stmts(c[1]))

    @v_args(meta=True)
    def s_for(self, meta: Any, c: list[Any]) -> A.For:
        return A.For(self._span(meta), str(c[0]), c[1], self._stmts(c[3]), c[2])

    @v_args(meta=True)
    def s_repeat(self, meta: Any, c: list[Any]) -> A.Repeat:
        return A.Repeat(self._span(meta), c[0], self._stmts(c[1]))

    @v_args(meta=True)
    def s_react(self, meta: Any, c: list[Any]) -> A.React:
        return A.React(self._span(meta), c[0], str(c[1]), self._stmts(c[2]))

    @v_args(meta=True)
    def s_break(self, meta: Any, _c: list[Any]) -> A.Break:
        return A.Break(self._span(meta))

    @v_args(meta=True)
    def s_continue(self, meta: Any, _c: list[Any]) -> A.Continue:
        return A.Continue(self._span(meta))

    @v_args(meta=True)
    def s_pass(self, meta: Any, _c: list[Any]) -> A.Pass:
        return A.Pass(self._span(meta))

    @v_args(meta=True)
    def s_choose(self, meta: Any, c: list[Any]) -> A.Choose:
        requires: list[A.Require] = []
        by, prompt, allow_pass, secret, complete = None, None, False, False, False
        unfinished, secret_to = None, None
        log: tuple[Any, Any] = (None, None)
        for tag, val in c[2:]:
            if tag == "require":
                requires.append(val)
            elif tag == "by":
                by = val
            elif tag == "prompt":
                prompt = val
            elif tag == "pass":
                allow_pass = True
            elif tag == "complete":
                complete, unfinished = True, val
            elif tag == "log":
                log = val
            else:
                secret, secret_to = True, val
        return A.Choose(
            self._span(meta),
            str(c[0]),
            c[1],
            tuple(requires),
            by,
            prompt,
            allow_pass,
            secret,
            complete,
            unfinished,
            *log,
            secret_to,
        )

    @v_args(meta=True)
    def c_require(self, meta: Any, c: list[Any]) -> tuple[str, Any]:
        return ("require", A.Require(self._span(meta), c[0], self._text(c[1])))

    def c_by(self, c: list[Any]) -> tuple[str, Any]:
        return ("by", c[0])

    def log_opt(self, c: list[Any]) -> tuple[Any, Any]:
        return (self._text(c[0]), self._text(c[1]) if c[1] is not None else None)

    def c_log(self, c: list[Any]) -> tuple[str, Any]:
        return ("log", c[0])

    def c_prompt(self, c: list[Any]) -> tuple[str, Any]:
        return ("prompt", self._text(c[0]))

    def c_pass(self, _c: list[Any]) -> tuple[str, Any]:
        return ("pass", True)

    def c_secret(self, c: list[Any]) -> tuple[str, Any]:
        return cast(tuple[str, Any], c[0])  # lark gives the children untyped

    def secret_opt(self, c: list[Any]) -> tuple[str, Any]:
        return ("secret", c[0])  # the audience, or None for the current player alone

    def c_complete(self, c: list[Any]) -> tuple[str, Any]:
        return ("complete", self._text(c[0]) if c and c[0] is not None else None)

    @v_args(meta=True)
    def s_roll(self, meta: Any, c: list[Any]) -> A.Roll:
        secret, to = self._secret(c[2])
        log, hidden = c[3] or (None, None)
        return A.Roll(self._span(meta), str(c[0]), str(c[1]), log, hidden, secret, to)

    def _secret(self, opt: tuple[str, Any] | None) -> tuple[bool, Any]:
        """(secret, audience) of an optional `secret [to EXPR]`."""
        return (False, None) if opt is None else (True, opt[1])

    @v_args(meta=True)
    def s_shuffle_let(self, meta: Any, c: list[Any]) -> A.ShuffleLet:
        return A.ShuffleLet(self._span(meta), str(c[0]), c[1], *(c[2] or (None, None)))

    @v_args(meta=True)
    def s_shuffle_zone(self, meta: Any, c: list[Any]) -> A.ShuffleZone:
        return A.ShuffleZone(self._span(meta), str(c[0]), *(c[1] or (None, None)))

    @v_args(meta=True)
    def s_gen_path(self, meta: Any, c: list[Any]) -> A.Generate:
        log = c[7][0] if c[7] else None
        names = (str(c[0]), str(c[1]))
        return A.Generate(
            self._span(meta), "path", names, "", str(c[2]), c[3], c[4], bool(c[5]), bool(c[6]),
            log=log,
        )  # fmt: skip

    @v_args(meta=True)
    def s_gen_sides(self, meta: Any, c: list[Any]) -> A.Generate:
        what = "rim sides" if c[1] else "sides"
        log = c[7][0] if c[7] else None
        return A.Generate(
            self._span(meta), what, (str(c[0]),), str(c[2]), str(c[3]), c[4],
            where=c[5], keep=bool(c[6]), log=log,
        )  # fmt: skip

    @v_args(meta=True)
    def s_gen_cells(self, meta: Any, c: list[Any]) -> A.Generate:
        log = c[5][0] if c[5] else None
        return A.Generate(
            self._span(meta), "cells", (str(c[0]),), str(c[1]), str(c[2]), c[3],
            where=c[4], log=log,
        )  # fmt: skip

    def gen_bends(self, c: list[Any]) -> Any:
        return c[0]

    def gen_from(self, c: list[Any]) -> bool:
        return True

    gen_to = gen_rim = gen_keep = gen_from

    @v_args(meta=True)
    def s_pick(self, meta: Any, c: list[Any]) -> A.Pick:
        secret, to = self._secret(c[2])
        log, hidden = c[3] or (None, None)
        return A.Pick(self._span(meta), str(c[0]), c[1], log, hidden, secret, to)

    @v_args(meta=True)
    def s_deal(self, meta: Any, c: list[Any]) -> A.Deal:
        return A.Deal(self._span(meta), c[0], str(c[1]), str(c[2]))

    @v_args(meta=True)
    def s_move(self, meta: Any, c: list[Any]) -> A.MoveItem:
        return A.MoveItem(self._span(meta), c[0], c[1], c[2])

    @v_args(meta=True)
    def s_add(self, meta: Any, c: list[Any]) -> A.AddItems:
        return A.AddItems(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def s_place(self, meta: Any, c: list[Any]) -> A.Place:
        return A.Place(self._span(meta), c[0], str(c[1]), c[2], c[3], c[4] is not None)

    def face_down(self, _c: list[Any]) -> bool:
        return True

    @v_args(meta=True)
    def s_clear(self, meta: Any, c: list[Any]) -> A.Clear:
        return A.Clear(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def s_reveal(self, meta: Any, c: list[Any]) -> A.Reveal:
        return A.Reveal(self._span(meta), str(c[0]), c[1], c[2])

    @v_args(meta=True)
    def s_reveal_to(self, meta: Any, c: list[Any]) -> A.RevealTo:
        return A.RevealTo(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def zone_ref(self, meta: Any, c: list[Any]) -> A.ZoneRef:
        return A.ZoneRef(self._span(meta), str(c[0]), c[1])

    @v_args(meta=True)
    def s_do(self, meta: Any, c: list[Any]) -> A.Do:
        name: Token = c[0]
        bare = (meta.end_line, meta.end_column) == (name.end_line, name.end_column)
        args = tuple(a for a in c[1:] if a is not None)
        return A.Do(self._span(meta), str(name), args, bare and str(name) == "base")

    @v_args(meta=True)
    def s_say(self, meta: Any, c: list[Any]) -> A.Say:
        return A.Say(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def s_win(self, meta: Any, c: list[Any]) -> A.Outcome:
        return A.Outcome(self._span(meta), "win", c[0])

    @v_args(meta=True)
    def s_draw(self, meta: Any, c: list[Any]) -> A.Outcome:
        return A.Outcome(self._span(meta), "draw", c[0])

    @v_args(meta=True)
    def s_rank(self, meta: Any, c: list[Any]) -> A.Outcome:
        return A.Outcome(self._span(meta), "rank", c[0])

    @v_args(meta=True)
    def s_return(self, meta: Any, c: list[Any]) -> A.Return:
        return A.Return(self._span(meta), c[0])

    @v_args(meta=True)
    def tgt_name(self, meta: Any, c: list[Any]) -> A.Name:
        return A.Name(self._span(meta), str(c[0]))

    @v_args(meta=True)
    def tgt_attr(self, meta: Any, c: list[Any]) -> A.Attr:
        return A.Attr(self._span(meta), c[0], str(c[1]))

    @v_args(meta=True)
    def tgt_index(self, meta: Any, c: list[Any]) -> A.Index:
        return A.Index(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def tgt_index2(self, meta: Any, c: list[Any]) -> A.Index:
        return self._pair(meta, c)

    # ---- expressions
    @v_args(meta=True)
    def e_if(self, meta: Any, c: list[Any]) -> A.Cond:
        return A.Cond(self._span(meta), c[0], c[1], c[2])

    def _chain(self, meta: Any, c: list[Any], ops: list[str]) -> A.Expr:
        result: A.Expr = c[0]
        for op, right in zip(ops, c[1:], strict=True):
            result = A.Binary(self._span(meta), op, result, right)
        return result

    @v_args(meta=True)
    def or_expr(self, meta: Any, c: list[Any]) -> A.Expr:
        return self._chain(meta, c, ["or"] * (len(c) - 1))

    @v_args(meta=True)
    def and_expr(self, meta: Any, c: list[Any]) -> A.Expr:
        return self._chain(meta, c, ["and"] * (len(c) - 1))

    @v_args(meta=True)
    def e_not(self, meta: Any, c: list[Any]) -> A.Unary:
        return A.Unary(self._span(meta), "not", c[0])

    @v_args(meta=True)
    def comparison(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Binary(self._span(meta), str(c[1]), c[0], c[2])

    @v_args(meta=True)
    def e_in(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Binary(self._span(meta), "in", c[0], c[1])

    @v_args(meta=True)
    def e_not_in(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Binary(self._span(meta), "notin", c[0], c[1])

    @v_args(meta=True)
    def range_expr(self, meta: Any, c: list[Any]) -> A.Expr:
        return A.Binary(self._span(meta), "..", c[0], c[1])

    @v_args(meta=True)
    def sum(self, meta: Any, c: list[Any]) -> A.Expr:
        return self._chain(meta, c[0::2], [str(t) for t in c[1::2]])

    @v_args(meta=True)
    def product(self, meta: Any, c: list[Any]) -> A.Expr:
        return self._chain(meta, c[0::2], [str(t) for t in c[1::2]])

    @v_args(meta=True)
    def e_neg(self, meta: Any, c: list[Any]) -> A.Expr:
        if isinstance(c[0], A.IntLit):
            return A.IntLit(self._span(meta), -c[0].value)
        return A.Unary(self._span(meta), "-", c[0])

    @v_args(meta=True)
    def e_attr(self, meta: Any, c: list[Any]) -> A.Attr:
        return A.Attr(self._span(meta), c[0], str(c[1]))

    @v_args(meta=True)
    def e_index(self, meta: Any, c: list[Any]) -> A.Index:
        return A.Index(self._span(meta), c[0], c[1])

    @v_args(meta=True)
    def e_index2(self, meta: Any, c: list[Any]) -> A.Index:
        return self._pair(meta, c)

    def _pair(self, meta: Any, c: list[Any]) -> A.Index:
        """`b.edge[cell, dir]`: the side of the cell in that direction, as `side(b, ...)`."""
        span = self._span(meta)
        obj = c[0]
        board = obj.obj if isinstance(obj, A.Attr) and isinstance(obj.obj, A.Name) else obj
        copy = A.Name(board.span, board.id) if isinstance(board, A.Name) else board
        return A.Index(span, obj, A.Call(span, "side", (copy, c[1], c[2])), True)

    @v_args(meta=True)
    def e_call(self, meta: Any, c: list[Any]) -> A.Call:
        return A.Call(self._span(meta), str(c[0]), tuple(a for a in c[1:] if a is not None))

    @v_args(meta=True)
    def e_gen(self, meta: Any, c: list[Any]) -> A.Comp:
        return A.Comp(self._span(meta), str(c[0]), c[1], str(c[2]), c[3], c[4])

    @v_args(meta=True)
    def e_comp(self, meta: Any, c: list[Any]) -> A.Comp:
        return A.Comp(self._span(meta), "", c[0], str(c[1]), c[2], c[3], c[4])

    @v_args(meta=True)
    def e_list(self, meta: Any, c: list[Any]) -> A.ListLit:
        return A.ListLit(self._span(meta), tuple(x for x in c if x is not None))

    def e_int(self, c: list[Any]) -> A.IntLit:
        return A.IntLit(self._tok_span(c[0]), self._number(c[0]))

    def _number(self, tok: Token) -> int:
        if len(tok) > MAX_DIGITS:
            self.problems.append(errors.number_too_long(len(tok), MAX_DIGITS, self._tok_span(tok)))
            return 0
        return int(tok)

    def e_text(self, c: list[Any]) -> A.TextLit:
        return self._text(c[0])

    @v_args(meta=True)
    def e_true(self, meta: Any, _c: list[Any]) -> A.BoolLit:
        return A.BoolLit(self._span(meta), True)

    @v_args(meta=True)
    def e_false(self, meta: Any, _c: list[Any]) -> A.BoolLit:
        return A.BoolLit(self._span(meta), False)

    @v_args(meta=True)
    def e_none(self, meta: Any, _c: list[Any]) -> A.NoneLit:
        return A.NoneLit(self._span(meta))

    def e_name(self, c: list[Any]) -> A.Name:
        return A.Name(self._tok_span(c[0]), str(c[0]))


# a text's escapes (docs/language.md): `\"`, `\n`, `\\`; any other backslash stays as written
_ESCAPES = {'"': '"', "n": "\n", "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)", re.S)


def _unescape(s: str) -> str:
    """The text s stands for, read left to right in one pass: in `\\\\n` the first
    backslash escapes the second, and the `n` is a letter (one replace after another
    made it a backslash and a line break)."""
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m[1], m[0]), s)

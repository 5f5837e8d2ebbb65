"""What the reports read of a game once it is over: the end rule that ended it (its
end reason) and the rule file's `measure`s, compiled (see docs/language.md, "Measures").
Nothing here knows any game."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulelang import errors
from rulelang.check.symbols import MeasureSym, Program
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.runtime.code import Value, none_used
from rulelang.runtime.exprgen import ExprGen
from rulelang.runtime.state import State

RULE_TEXT = 72  # an end rule's text is cut to this many characters in reports


@dataclass(frozen=True, slots=True)
class EndReason:
    """Which end rule ended a game: its text as written (`end when ...`, cut to
    RULE_TEXT characters) and where it is written."""

    index: int  # its place among the end rules, in the order they are checked
    rule: str
    span: Span

    @property
    def where(self) -> str:
        """`file.rules:LINE`: the file's name (not its folder) and the rule's line."""
        return f"{Path(self.span.file).name}:{self.span.line}"

    def __str__(self) -> str:
        return f"{self.rule} ({self.where})"


def end_reasons(program: Program) -> tuple[EndReason, ...]:
    """Every end rule as an end reason, in the order they are checked."""
    texts = program.sources.texts if program.sources is not None else {}
    out = []
    for i, end in enumerate(program.ends):
        cond = _source(texts.get(end.cond.span.file, ""), end.cond.span)
        rule = " ".join(f"end when {cond}".split())
        if len(rule) > RULE_TEXT:
            rule = rule[: RULE_TEXT - 1].rstrip() + "…"
        out.append(EndReason(i, rule, end.span))
    return tuple(out)


def _source(text: str, span: Span) -> str:
    """The text a span covers (an expression as the rule file writes it)."""
    lines = text.splitlines()
    if not lines or span.line < 1 or span.end_line > len(lines):
        return "..."
    if span.end_line == span.line:
        return lines[span.line - 1][span.col - 1 : span.end_col - 1]
    first = lines[span.line - 1][span.col - 1 :]
    middle = lines[span.line : span.end_line - 1]
    return " ".join([first, *middle, lines[span.end_line - 1][: span.end_col - 1]])


class Measure:
    """One `measure`, compiled: `value(state, players)` is its number for the game (a
    list, one per player, for a measure `per player`); none where the rule gives none."""

    def __init__(self, sym: MeasureSym, ex: ExprGen, steps: int):
        d = sym.decl
        self.name = sym.name
        self.doc = d.doc
        self.per_player = d.per_player
        self.boolean = sym.boolean  # yes/no: reported as the share of games it holds in
        self.span = sym.span
        self.steps = steps
        if sym.me is not None:
            ex.bound[sym.me.slot] = "_me"
        try:
            self._fn: Callable[[State, int], Value] = ex.ns.function(
                f"_measure_{sym.name}", "st, _me", [f"return {ex.src(d.expr)}"]
            )
        finally:
            if sym.me is not None:
                del ex.bound[sym.me.slot]

    def value(self, st: State, players: int) -> Value:
        saved = st.steps
        st.steps = 0  # its own step budget, as a bot's
        fn = self._fn
        try:
            if self.per_player:
                return [fn(st, seat) for seat in range(players)]
            return fn(st, -1)
        except GameRuntimeError as exc:
            if errors.is_step_budget(exc):
                raise errors.measure_step_budget(self.name, self.steps, exc.span) from None
            raise
        except TypeError as exc:
            raise none_used(exc, self.span) from None
        finally:
            st.steps = saved

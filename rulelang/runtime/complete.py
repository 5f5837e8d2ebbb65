"""Options that can be completed: the search behind `choose ... complete`.

A `complete` choice offers an option only if, once it is taken, the rules can run on
to the end of the choice's *effect* (the end of the block the choice is written in,
at the same depth of procs; or the end of the game) such that every later choice met
on the way has an option that itself completes, and every roll and pick met on the way
completes for each of its outcomes. A choice that allows a pass completes by passing.

The search runs on clones: each clone carries `st.effect` (the effect's block, the
depth of the proc stack at the choice, and a counter shared by the whole search), and
the generated code returns DONE where that block ends. Depth first, it stops at the
first option that completes (at a choice) or the first outcome that does not (at a
roll or pick). `Limits.completion` bounds the states one search visits (R025).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang import errors
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.runtime import helpers
from rulelang.runtime.code import DONE, OVER, ChanceSpec, ChoiceSpec, Code, Value, run

if TYPE_CHECKING:
    from rulelang.runtime.state import State


class Completer:
    """The filter of one `complete` choice: `completer(st, opts)` keeps the options
    whose effect can be completed, in their order."""

    __slots__ = ("block", "code", "limit", "span", "var")

    def __init__(self, code: Code, block: int, var: str, limit: int, span: Span) -> None:
        self.code = code
        self.block = block
        self.var = var
        self.limit = limit
        self.span = span

    def __call__(
        self, st: State, opts: tuple[Value, ...], spec: ChoiceSpec, who: int
    ) -> tuple[Value, ...]:
        if not opts:
            return opts
        outer = st.effect
        seen = outer[2] if outer is not None else [0]  # one count for a whole search
        effect = (self.block, len(st.stack), seen)
        kept = []
        for v in opts:
            c = st.clone()
            c.effect = effect
            c.auto_chance = False
            c.loc[spec.slot] = v
            c.log = (spec, who, v, c.log)
            c.pending = None
            if self.completes(c, spec.pc + 1):
                kept.append(v)
        return opts if len(kept) == len(opts) else tuple(kept)

    def completes(self, st: State, pc: int) -> bool:
        """Run the clone st from pc: can it reach the end of the effect?"""
        seen = st.effect[2]  # type: ignore[index]
        seen[0] += 1
        if seen[0] > self.limit:
            raise errors.completion_budget(self.var, self.limit, self.span)
        try:
            pc = run(self.code, st, pc)
        except GameRuntimeError as err:
            if errors.is_no_option_left(err):  # a later choice with no option left
                return False
            raise
        if pc in (DONE, OVER):
            return True
        spec = st.pending
        if type(spec) is ChoiceSpec:
            opts = st.options
            if spec.allow_pass:  # passing completes
                return True
            last = len(opts) - 1
            for i, v in enumerate(opts):
                c = st if i == last else st.clone()
                c.loc[spec.slot] = v
                c.log = (spec, st.who, v, c.log)
                c.pending = None
                if self.completes(c, spec.pc + 1):
                    return True
            return False
        assert isinstance(spec, ChanceSpec)
        if spec.kind in ("roll", "pick"):  # every outcome must complete
            size = len(spec.source(st))
            outcomes: range | list[int | tuple[int, ...]] = range(size)
        else:  # the checker keeps shuffles out of effects (E324): the order as it is
            outcomes = [tuple(range(len(tuple(spec.source(st)))))]
        last = len(outcomes) - 1
        for i, outcome in enumerate(outcomes):
            c = st if i == last else st.clone()
            c.pending = None
            helpers.settle(c, spec, outcome)
            if not self.completes(c, spec.pc + 1):
                return False
        return True


__all__ = ["Completer"]

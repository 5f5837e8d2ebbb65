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
        """Run the clone st from pc: can it reach the end of the effect? Depth first,
        without recursion (an effect may ask thousands of choices in a row): each
        frame is a choice (any option completes) or a roll or pick (every outcome)."""
        node = self.step(st, pc)
        if type(node) is bool:
            return node
        stack = [node]
        result = False
        while stack:
            frame = stack[-1]
            child = frame.next()
            if child is None:  # a choice with no option left that completes; or all did
                stack.pop()
                result = not frame.any
            else:
                node = self.step(*child)
                if type(node) is not bool:
                    stack.append(node)
                    continue
                result = node
            while stack and result == stack[-1].any:  # decided: this frame too
                stack.pop()
        return result

    def step(self, st: State, pc: int) -> bool | _Frame:
        """Run on to the end of the effect (True), a choice with no option (False), or
        the next choice or chance event (its frame)."""
        assert st.effect is not None  # set by the search that runs this clone
        seen = st.effect[2]
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
            if spec.allow_pass:  # passing completes
                return True
            return _Frame(True, st, spec, tuple(st.options))
        assert isinstance(spec, ChanceSpec)
        if spec.kind in ("roll", "pick"):  # every outcome must complete
            outcomes: tuple[int | tuple[int, ...], ...] = tuple(range(len(spec.source(st))))
        else:  # the checker keeps shuffles out of effects (E324): the order as it is
            outcomes = (tuple(range(len(tuple(spec.source(st))))),)
        if not outcomes:  # nothing to draw from: the rules stop there (R012)
            return False
        return _Frame(False, st, spec, outcomes)


class _Frame:
    """A decision met by the search: a choice (`any`: one option must complete) or a
    roll or pick (every outcome must), and the alternatives not tried yet."""

    __slots__ = ("any", "at", "items", "spec", "st")

    def __init__(
        self, any_: bool, st: State, spec: ChoiceSpec | ChanceSpec, items: tuple[Value, ...]
    ) -> None:
        self.any = any_
        self.st = st
        self.spec = spec
        self.items = items
        self.at = 0

    def next(self) -> tuple[State, int] | None:
        """The state after the next alternative (the last one reuses the frame's
        state), and where the rules go on; None when none is left."""
        at, items, spec = self.at, self.items, self.spec
        if at >= len(items):
            return None
        self.at = at + 1
        c = self.st if at == len(items) - 1 else self.st.clone()
        c.pending = None
        if type(spec) is ChoiceSpec:
            v = items[at]
            c.loc[spec.slot] = v
            c.log = (spec, self.st.who, v, c.log)
        else:
            assert isinstance(spec, ChanceSpec)
            helpers.settle(c, spec, items[at])
        return c, spec.pc + 1


__all__ = ["Completer"]

"""Computer players declared as rules (`bot NAME [for COND] { when choosing VAR { ... } }`).

A bot ranks the options of the pending choice of the seat it plays: the rules of the
`when choosing` block named like the choice's variable narrow the options in the
order written (`prefer C1, C2, ...`: the options meeting the first condition that any
option meets; `best E` / `least E`: the options with the highest / lowest value), and
what is left (every option, for a choice without rules) is drawn by the bot's own
generator. The checker has proven that the rules read only what the bot's player may
see (check/hidden.py), but inside `known(me, ...)`, whose reads are checked against
its player's view as they are made (runtime/seen.py), so a bot decides the same
whatever is hidden from it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rulelang import errors
from rulelang.check.symbols import BotSym, EstimateSym
from rulelang.diagnostics import GameRuntimeError, Span
from rulelang.runtime import ruleloops
from rulelang.runtime.code import ChoiceSpec, Value, none_used
from rulelang.runtime.exprgen import ExprGen
from rulelang.runtime.state import State
from rulelang.syntax.ast import Expr

RANDOM = "random"  # the name of the bot that every ruleset has: uniformly random

# a rule's expression over the options left: those that meet it (`prefer`), or its
# value for each (`best`, `least`)
RuleFn = Callable[[State, int, list[Value], dict[Any, Value]], list[Value]]
FILTERS = True  # off: a generated function per option and rule, called from `rank`


@dataclass(frozen=True, slots=True)
class Rule:
    kind: str  # prefer best least random
    fns: tuple[RuleFn, ...]
    span: Span


class Bot:
    """One declared bot, compiled: `applies(state, seat)` says whether its `for`
    condition holds for that seat; `rank` narrows the options of a pending choice."""

    def __init__(self, sym: BotSym, ex: ExprGen, steps: int):
        self.name = sym.name
        self.span = sym.span
        self.steps = steps
        self.choices = tuple(ch.name for ch in sym.decl.choices)
        me = sym.me
        assert me is not None
        ex.bound[me.slot] = "_me"
        try:
            cond = sym.decl.cond
            self._cond: Callable[[State, int], Value] | None = None
            if cond is not None:
                self._cond = ex.ns.function(
                    f"_bc_{sym.name}", "st, _me", [f"return {ex.src(cond)}"]
                )
            self._rules: dict[str, tuple[Rule, ...]] = {}
            for ch in sym.decl.choices:
                option = sym.options.get(ch.name)
                if option is None:
                    continue
                ex.bound[option.slot] = "_opt"
                ex.memo_calls = True
                try:
                    rules = []
                    for r in ch.rules:
                        fns = tuple(_rule_fn(ex, e, r.kind) for e in r.exprs)
                        rules.append(Rule(r.kind, fns, r.span))
                    self._rules[ch.name] = tuple(rules)
                finally:
                    ex.memo_calls = False
                    del ex.bound[option.slot]
        finally:
            del ex.bound[me.slot]

    @property
    def suits_anyone(self) -> bool:
        """A bot without `for`: no bot declared after it is ever taken by default."""
        return self._cond is None

    def applies(self, st: State, seat: int) -> bool:
        """Does the bot's `for` condition hold for this seat now?"""
        cond = self._cond
        if cond is None:
            return True
        saved = st.steps
        st.steps = 0  # the bot's own step budget
        try:
            return bool(cond(st, seat))
        except GameRuntimeError as exc:
            raise self._budget(exc, "") from None
        except TypeError as exc:
            raise none_used(exc, self.span) from None
        finally:
            st.steps = saved

    def rank(self, st: State, seat: int, spec: ChoiceSpec, options: Sequence[Value]) -> list[Value]:
        """The options its rules keep for the choice (all of them without rules). The
        ranking has the bot's own step budget, apart from the game's."""
        kept = list(options)
        rules = self._rules.get(spec.name, ())
        if not rules:
            return kept
        saved = st.steps
        st.steps = 0
        span = self.span
        memo: dict[Any, Value] = {}  # the calls of defs that read no option, worked out once
        try:
            for rule in rules:
                if len(kept) <= 1:
                    break
                span = rule.span
                if rule.kind == "prefer":
                    for fn in rule.fns:
                        met = fn(st, seat, kept, memo)  # (see _rule_fn)
                        if met:
                            kept = met
                            break
                elif rule.kind in ("best", "least"):
                    values = rule.fns[0](st, seat, kept, memo)
                    top = max(values) if rule.kind == "best" else min(values)
                    kept = [v for v, x in zip(kept, values, strict=True) if x == top]
        except GameRuntimeError as exc:
            raise self._budget(exc, spec.name) from None
        except TypeError as exc:
            raise none_used(exc, span) from None
        finally:
            st.steps = saved
        return kept

    def _budget(self, exc: GameRuntimeError, choice: str) -> GameRuntimeError:
        """R001 raised inside the bot's rules is its own budget used up: R031."""
        if errors.is_step_budget(exc):
            return errors.bot_step_budget(self.name, choice, self.steps, exc.span)
        return exc


def _rule_fn(ex: ExprGen, e: Expr, kind: str) -> RuleFn:
    """One expression of a bot's rule as a generated function of the options left:
    for `prefer`, those that meet it; for `best` and `least`, its value for each. The
    loop over the options is in the function (FILTERS): a rule is asked of every
    option, and a call per option cost more than most rules' own test."""
    name = ex.ns.name_for(e, "_br")  # unique per expression
    value = ex.src(e)
    if not FILTERS:
        one = ex.ns.function(name, "st, _me, _opt, _bm", [f"return {value}"])
        if kind == "prefer":
            return lambda st, me, kept, memo: [v for v in kept if one(st, me, v, memo)]
        return lambda st, me, kept, memo: [one(st, me, v, memo) for v in kept]
    once, value = ruleloops.hoisted(value)  # what every option would work out alike
    if kind == "prefer":
        body = [f"if {value}:", "    _made.append(_opt)"]
    else:
        body = [f"_made.append({value})"]
    lines = [*once, "_made = []", "for _opt in _kept:", *("    " + x for x in body)]
    lines.append("return _made")
    return ex.ns.function(name, "st, _me, _kept, _bm", lines)


def ranked(
    bots: Sequence[Bot], st: State, seat: int, spec: ChoiceSpec, options: Sequence[Value]
) -> list[Value] | None:
    """The options that the first of `bots` whose `for` condition holds for `seat`
    keeps at the pending choice; None when none of them plays the seat."""
    for bot in bots:
        if bot.applies(st, seat):
            return bot.rank(st, seat, spec, options)
    return None


class Estimate:
    """The rules' `estimate`, compiled: `scores(state)` is every player's chance of
    winning from the position, from 0 to 1 (the rule's percent, held to 0..100), for
    search bots to score the playouts they stop `after` decisions past their tree
    (taken by the declared bots when `by_bots`, else at random), and their duels'
    playouts `duels` decisions past the option (None: on towards the end)."""

    def __init__(self, sym: EstimateSym, ex: ExprGen, steps: int):
        self.after = sym.decl.after
        self.by_bots = sym.decl.by_bots
        self.duels = sym.decl.duels
        self.span = sym.span
        self.steps = steps
        me = sym.me
        assert me is not None
        ex.bound[me.slot] = "_me"
        try:
            self._fn: Callable[[State, int], Value] = ex.ns.function(
                "_estimate", "st, _me", [f"return {ex.src(sym.decl.expr)}"]
            )
        finally:
            del ex.bound[me.slot]

    def scores(self, st: State, players: int) -> list[float]:
        saved = st.steps
        st.steps = 0  # its own step budget, as a bot's
        fn = self._fn
        try:
            return [min(max(fn(st, seat), 0), 100) / 100 for seat in range(players)]
        except GameRuntimeError as exc:
            if errors.is_step_budget(exc):
                raise errors.estimate_step_budget(self.steps, exc.span) from None
            raise
        except TypeError as exc:
            raise none_used(exc, self.span) from None
        finally:
            st.steps = saved


def bot_generator(seed: int, seat: int) -> random.Random:
    """The generator of the bot at a seat: derived from the game's seed, separate from
    the game's chance generator (a bot never changes the dice) and from other seats'."""
    return random.Random(f"rulelang bot {seed} {seat}")

"""Compiled rules: the ops, what each pause point waits for, the events of a game's log,
and the one loop that runs ops.

A game runs as a flat list of generated Python functions, `op(state) -> next pc`. An
op that needs a player's decision (or, when the dice are scripted, a chance outcome)
stores what it waits for in the state and returns PAUSE; one that ends the game
returns OVER. Everything a paused game needs is plain data in the state, so it clones
cheaply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from rulelang import errors
from rulelang.diagnostics import GameRuntimeError, Span

if TYPE_CHECKING:
    from rulelang.runtime.state import State

# A rule value at run time: a number, truth value, text, player, piece or card (an
# index), node (an index), list (a tuple) or none.
Value = Any

Op = Callable[["State"], int]
Fn = Callable[["State"], Value]
Formatter = Callable[["State", Value], str]

PAUSE = -1  # an op waits for a decision or a chance outcome
OVER = -2  # an op ended the game
CHANCE = -1  # who acts at a chance event
TERMINAL = -4  # who acts when the game is over
PUBLIC = -1  # a viewer who is none of the players: sees only what all may see
# The sizes a rule may reach, the steps it may run between two decisions and the
# decisions bots alone may take are a ruleset's `Limits` (rulelang/limits.py).

ChanceKind = Literal["roll", "pick", "shuffle", "shuffle_zone"]


@dataclass(frozen=True, slots=True)
class Require:
    """One `require` of a choice: the condition (reading the choice from its slot), the
    reason given when it fails, and where it is written."""

    cond: Fn
    reason: Fn
    span: Span


@dataclass(frozen=True, slots=True, eq=False)
class ChoiceSpec:
    """A `choose` statement: a decision a player takes."""

    pc: int
    name: str  # the variable the rule file chooses, e.g. "card"
    prompt: Fn
    slot: int
    domain: Fn  # every candidate, before the requires
    requires: tuple[Require, ...]
    show: Formatter
    allow_pass: bool
    secret: bool
    span: Span

    def options(self, st: State) -> tuple[Value, ...]:
        """The legal values now: the candidates that pass every require (and a pass)."""
        slot, saved = self.slot, st.loc[self.slot]
        kept = []
        try:
            for v in self.domain(st):
                st.loc[slot] = v
                if all(r.cond(st) for r in self.requires):
                    kept.append(v)
        finally:
            st.loc[slot] = saved
        return (*kept, None) if self.allow_pass else tuple(kept)


@dataclass(frozen=True, slots=True, eq=False)
class ChanceSpec:
    """A roll, pick or shuffle: an event the game's one seeded generator decides."""

    pc: int
    kind: ChanceKind
    name: str  # the variable rolled, picked or shuffled, or the zone shuffled
    slot: int  # the local it sets (-1 for a zone shuffle)
    source: Fn  # the die's faces, the list picked from, or what is shuffled
    show: Formatter  # shows one value of the source
    span: Span
    zone: int = -1  # the zone slot a zone shuffle reorders


Spec = ChoiceSpec | ChanceSpec


class Chose(NamedTuple):
    """A player took a decision: the chosen value (None for a pass)."""

    who: int
    decision: ChoiceSpec
    value: Value


class Drew(NamedTuple):
    """A chance event happened: the index of the face or item drawn (roll, pick), or
    the new order of a shuffled list or zone as positions in the old one; and the
    value drawn (the face or item, or the shuffled list)."""

    decision: ChanceSpec
    outcome: int | tuple[int, ...]
    value: Value


class Said(NamedTuple):
    """A message, to everyone (audience None) or to some players only."""

    audience: tuple[int, ...] | None
    text: str


class Ranked(NamedTuple):
    """A `rank` statement ordered the players, best first."""

    players: tuple[int, ...]


Event = Chose | Drew | Said | Ranked


@dataclass
class Code:
    ops: list[Op] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    choices: dict[int, ChoiceSpec] = field(default_factory=dict)
    chances: dict[int, ChanceSpec] = field(default_factory=dict)
    check_end: Callable[[State], bool] = lambda st: False
    source: list[str] = field(default_factory=list)  # the generated Python, per op


def run(code: Code, st: State, pc: int) -> int:
    """Run ops from pc until one pauses or ends the game; the one run loop."""
    ops = code.ops
    try:
        while pc >= 0:
            pc = ops[pc](st)
    except RecursionError:
        raise too_deep(code, pc) from None
    if pc == OVER:
        st.over = True
        st.pending = None
        st.options = ()
    return pc


def too_deep(code: Code, pc: int) -> GameRuntimeError:
    return errors.nests_too_deeply_at_runtime(code.spans[max(pc, 0)])

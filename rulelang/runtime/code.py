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
from enum import IntEnum
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

from rulelang.diagnostics import Span
from rulelang.runtime.lines import placed

if TYPE_CHECKING:
    from rulelang.runtime.state import State

# A rule value at run time: a number, truth value, text, player, piece or card (an
# index), node (an index), list (a tuple) or none.
Value = Any

Op = Callable[["State"], int]
Fn = Callable[["State"], Value]
Formatter = Callable[["State", Value], str]
LateFn = Callable[["State", tuple[Value, ...]], str]  # formats a line logged late (late.py)
# the line of a record told when read (tell.py): (state, the record) -> the line
TellFn = Callable[["State", tuple[Any, ...]], str]


class Stop(IntEnum):
    """Where a run of ops stops: the negative pc an op returns instead of the next op's
    (the run loop goes on while pc >= 0). Each has its own value, apart from each other
    and from the seats and viewer below, so that none is taken for another; generated
    code returns them as plain numbers (an IntEnum formats as its number)."""

    PAUSE = -11  # an op waits for a decision or a chance outcome
    OVER = -12  # an op ended the game
    IMAGINED = -13  # the end of an `imagine` block run on its own (runtime/imagine.py)
    DONE = -14  # a clone searching for a completion reached the end of the effect


PAUSE, OVER, IMAGINED, DONE = Stop.PAUSE, Stop.OVER, Stop.IMAGINED, Stop.DONE

# Who acts (`Game.current_player()`, besides the seats 0..n-1) and who views (`viewer`,
# besides the seats and None): public names whose numbers docs/api.md gives. CHANCE and
# PUBLIC are both -1 but never meet: one is who acts, the other who looks.
CHANCE: Final = -1  # who acts at a chance event
TERMINAL: Final = -4  # who acts when the game is over
PUBLIC: Final = -1  # a viewer who is none of the players: sees only what all may see
# The sizes a rule may reach, the steps it may run between two decisions and the
# decisions bots alone may take are a ruleset's `Limits` (rulelang/limits.py).

ChanceKind = Literal["roll", "pick", "shuffle", "shuffle_zone", "generate"]


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
    # asked of the reacting player of a reaction round: the pending spec and the log
    # record of such a choice are a twin of the statement's spec with this set
    reaction: bool = False
    # a `complete` choice: keeps the options whose effect can be completed
    # (runtime/complete.py); None for any other choice
    complete: Callable[[State, tuple[Value, ...], ChoiceSpec, int], tuple[Value, ...]] | None = None

    unfinished: Fn | None = None  # `complete else "..."`: the reason, reading the choice
    # `log "..." [else "..."]`: the log line, and the one for those who may not see the
    # value, reading the choice; logged when a player decides (never in a playout): the
    # line, or where `late` is set the values it shows, which `late` formats into the
    # line when it is read (runtime/late.py)
    narrate: Fn | None = None
    narrate_hidden: Fn | None = None
    # `secret to EXPR`: the players who see the value besides the chooser (a tuple of
    # seats, read when the choice is made); None: the chooser alone (or all)
    audience: Fn | None = None
    # the kind of piece or card the options are, if they are items (a determinization
    # keeps the items its seat is offered where they are: the seat sees them)
    kind: str | None = None
    late: LateFn | None = None  # formats what `narrate` logged (None: it logs the line)
    late_hidden: LateFn | None = None
    # on the twin that a record told when read names (runtime/tell.py): the line made
    # from the record, and the statement's own spec, which its events name
    tell: TellFn | None = None
    plain: ChoiceSpec | None = None

    def options(self, st: State) -> tuple[Value, ...]:
        """The legal values now: the candidates that pass every require and, for a
        `complete` choice, whose effect can be completed (and a pass)."""
        slot, saved = self.slot, st.loc[self.slot]
        kept: tuple[Value, ...] = ()
        try:
            found = []
            for v in self.domain(st):
                st.loc[slot] = v
                if all(r.cond(st) for r in self.requires):
                    found.append(v)
            kept = tuple(found)
        finally:
            st.loc[slot] = saved
        if self.complete is not None:
            kept = self.complete(st, kept, self, st.who)
        return (*kept, None) if self.allow_pass else kept


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
    narrate: Fn | None = None  # `log "..."`, as for a choice
    narrate_hidden: Fn | None = None
    # `secret [to EXPR]` (roll, pick): the seats who see the value, read when it is
    # drawn (the acting player for a bare `secret`); None: not secret
    audience: Fn | None = None
    late: LateFn | None = None  # as for a choice
    late_hidden: LateFn | None = None
    tell: TellFn | None = None  # as for a choice
    plain: ChanceSpec | None = None


Spec = ChoiceSpec | ChanceSpec


class Chose(NamedTuple):
    """A player took a decision: the chosen value (None for a pass)."""

    who: int
    decision: ChoiceSpec
    value: Value
    text: str | None = None  # the `log` line (of the choice as it was made)
    hidden: str | None = None  # the line for those who may not see the value
    audience: tuple[int, ...] | None = None  # `secret to`: who sees it besides `who`


class Drew(NamedTuple):
    """A chance event happened: the index of the face or item drawn (roll, pick), or
    the new order of a shuffled list or zone as positions in the old one; and the
    value drawn (the face or item, or the shuffled list)."""

    decision: ChanceSpec
    outcome: int | tuple[int, ...]
    value: Value
    text: str | None = None  # the log line (of the event as it was; not in a playout)
    hidden: str | None = None  # the line for those who may not see the value
    audience: tuple[int, ...] | None = None  # a secret roll or pick: who sees it


class Said(NamedTuple):
    """A message, to everyone (audience None) or to some players only."""

    audience: tuple[int, ...] | None
    text: str


class Ranked(NamedTuple):
    """A `rank` statement ordered the players, best first."""

    players: tuple[int, ...]


class Reaction(NamedTuple):
    """A step of a reaction round (`react`): "begin" (who: the first player asked),
    "pass" (who: the player who passed) or "end" (who: None)."""

    step: Literal["begin", "pass", "end"]
    who: int | None


Event = Chose | Drew | Said | Ranked | Reaction


@dataclass
class Code:
    ops: list[Op] = field(default_factory=list)
    # the ops as Game.apply runs them after a resume, to the next pause: each op as
    # first compiled, not its chained version (codegen's op_function), which is made
    # for a playout running on through many decisions and reads more of the state
    # where it starts than a run to the next pause uses
    paused_ops: list[Op] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    choices: dict[int, ChoiceSpec] = field(default_factory=dict)
    chances: dict[int, ChanceSpec] = field(default_factory=dict)
    check_end: Callable[[State], bool] = lambda st: False
    source: list[str] = field(default_factory=list)  # the generated Python, per op
    # per pc of a choice: `(st, spec: ChoiceSpec, value) -> next pc`, which records the
    # chosen value and runs on with the op after the choice in the same call (see
    # Codegen.resumes); None where the engine records it (a line for others, an audience)
    resumes: list[Callable[..., int] | None] = field(default_factory=list)
    imagine: int = -1  # where the `imagine` block starts (its end pops the stack), or -1
    # the pcs of the choices whose resume is in its last version (compiled, and compiled
    # again to run on if it was to be), in the order they came to it; and what is told
    # each time one does (runtime/inlined.py copies their code into `Game.apply`)
    settled: list[int] = field(default_factory=list)
    on_settled: Callable[[], None] | None = None


def run(code: Code, st: State, pc: int) -> int:
    """Run ops from pc until one pauses or ends the game; the one run loop."""
    ops = code.ops
    try:
        while pc >= 0:
            pc = ops[pc](st)
    except Exception as exc:  # placed on its rule line (lines.py); try costs nothing
        err = placed(exc, code.spans[max(pc, 0)])
        if err is exc:
            raise
        raise err from None
    if pc == OVER:
        st.over = True
        st.pending = None
        st.options = ()
    return pc


def none_used(exc: TypeError, fallback: Span) -> Exception:
    """R030 for a TypeError raised through generated code: `none` used as a value,
    placed on its rule line (lines.py); any other is a bug, given back unchanged."""
    return placed(exc, fallback)

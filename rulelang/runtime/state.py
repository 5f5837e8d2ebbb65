"""The game state: plain lists and ints, so that it clones cheaply."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.runtime.code import (
    ChanceSpec,
    ChoiceSpec,
    Chose,
    Drew,
    Event,
    Ranked,
    Reaction,
    Said,
    Spec,
    Value,
)

if TYPE_CHECKING:
    from rulelang.runtime.boards import Board


KEPT_ACTIONS = 1_000  # the most option sets (and texts by value) a table keeps per names
KEPT_NAMES = 16  # the most sets of players' names they are kept for
OPTION_SETS = "option sets"  # the key of their count in Config.actions
BY_PC = "by pc"  # the key of the actions kept per choice (engine.py, `_offered`)
TEXTS = "texts by pc"  # the key of each choice's actions kept by value (engine.py, `_each_kept`)
# Entries at the bottom of the proc stack that nothing pops (0: none). A Python list
# that a pop empties frees its array, and the next push allocates it again: a proc
# called from the turn did so at nearly every turn. Over two entries, a push and its
# pop resize nothing. FLOOR is no op's number, and balanced code never pops it.
STACK_FLOOR = 2
FLOOR = -99


@dataclass
class Config:
    """What is fixed for one game: the table, the options and the values computed from
    them (consts, tables, dice, boards). Shared by every clone of the game."""

    n: int
    players: tuple[int, ...]
    player_names: tuple[str, ...]
    consts: list[Value]
    boards: dict[str, Board]
    nodes: dict[str, tuple[int, ...]]
    entities: dict[str, tuple[int, ...]]
    seed: int
    options: dict[str, Value]
    memo: list[Value] = field(default_factory=list)  # defs whose value is fixed per table
    changing: tuple[int, ...] = ()  # the columns some rule changes (copied by clones)
    # what views show, kept (see runtime/views.py): tile faces, texts of log records,
    # zone labels; shared by the games of one table where it depends on fixed columns
    faces: dict[tuple[int, int], tuple[str, tuple[bool, ...], bool]] = field(default_factory=dict)
    lines: dict[int, tuple[object, str]] = field(default_factory=dict)
    labels: dict[str, list[str]] = field(default_factory=dict)
    # the actions of a decision for given options (see legal_actions): shared by the
    # games of the table with the same names (see kept_actions)
    actions: dict[object, Any] = field(default_factory=dict)
    # on a table's template: the games' `actions`, per players' names (an option's text
    # depends on the table and the names alone, so games with the same names share them)
    kept_actions: dict[tuple[str, ...], dict[object, Any]] = field(default_factory=dict)
    blank: State | None = None  # the state before setup, defaults only (runtime/imagine.py)
    # the rules' texts whose one value is a player (exprgen.named_text): their pieces,
    # None where the name goes; `named`: each one's text per seat, for these names;
    # on a table's template, those of the games' names (bounded as kept_actions)
    named_sites: tuple[tuple[str | None, ...], ...] = ()
    named: tuple[tuple[str, ...], ...] = ()
    kept_named: dict[tuple[str, ...], tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    # the search's beliefs of this game, per seat (runtime/belief.py): kept here, so that
    # they go with the game (held anywhere else, they would hold it: they replay it)
    beliefs: dict[int, list[Any]] = field(default_factory=dict, compare=False, repr=False)

    def for_game(self, player_names: tuple[str, ...], seed: int) -> Config:
        """A copy for one game: its names and seed (faster than dataclasses.replace)."""
        other = object.__new__(Config)
        # a dict of its own, assigned: its attributes read 2-3x faster than after
        # `other.__dict__.update(...)` (CPython 3.11 specialises reads of such a
        # dict; the generated code reads `cfg.*` throughout)
        other.__dict__ = dict(self.__dict__)
        other.player_names = player_names
        other.seed = seed
        kept = self.kept_actions.get(player_names)
        if kept is None or kept.get(OPTION_SETS, 0) > KEPT_ACTIONS:  # bounded: start again
            if len(self.kept_actions) >= KEPT_NAMES:
                self.kept_actions.clear()
            kept = self.kept_actions[player_names] = {}
        other.actions = kept
        other.named = self.named_for(player_names)
        other.lines = {}
        other.labels = {}
        other.beliefs = {}
        return other

    def named_for(self, player_names: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
        """The texts of `named_sites` per seat for these names, kept per names."""
        if player_names == self.player_names and len(self.named) == len(self.named_sites):
            return self.named
        named = self.kept_named.get(player_names)
        if named is None:
            if len(self.kept_named) >= KEPT_NAMES:
                self.kept_named.clear()
            named = self.kept_named[player_names] = tuple(
                tuple("".join(name if p is None else p for p in site) for name in player_names)
                for site in self.named_sites
            )
        return named


# The event log as a linked list of records, newest first: (what, a, b, the record
# before). Appending is one small tuple, the generated code writes it inline, and a
# clone shares the whole history instead of copying it. `what` is the ChoiceSpec of a
# decision (a = who, b = value), the ChanceSpec of a chance event (a = outcome,
# b = value drawn), "said" (a = audience, b = text, or a `%` template and its values
# for a message to all, formatted when read), "ranked" (a = players) or
# "reaction" (a = a seat or None, b = "begin", "pass" or "end": see Reaction).
# (what, a, b, the record before) and, for a choice or chance event logged outside a
# playout, its log line and the line for those who may not see the value; and, for a
# secret one with an audience (`secret to`, a secret roll or pick), the seats who see it.
# A decision or chance event told when read (runtime/tell.py) names a twin of its spec
# instead, and holds after the record before only the values its line needs.
Log = tuple[Any, ...] | None


def typed(record: tuple[Any, ...], st: State) -> Event:
    """A log record as its typed event; a line logged late (runtime/late.py) is
    formatted with `st`, a state of the same game."""
    what, a, b = record[0], record[1], record[2]
    if isinstance(what, ChoiceSpec):
        if what.plain is not None:  # told when read (runtime/tell.py): as if logged so
            return Chose(a, what.plain, b, what.tell(st, record), None)  # type: ignore[misc]
        return Chose(a, what, b, *_lines(record, what, st))
    if isinstance(what, ChanceSpec):
        if what.plain is not None:
            return Drew(what.plain, a, b, what.tell(st, record), None)  # type: ignore[misc]
        return Drew(what, a, b, *_lines(record, what, st))
    if what == "said":  # a message to all may be kept as (template, values): see say
        return Said(a, b if type(b) is str else b[0] % b[1])
    if what == "reaction":
        return Reaction(b, a)
    return Ranked(a)


def _lines(record: tuple[Any, ...], spec: Spec, st: State) -> tuple[Any, ...]:
    """The record's line, hidden line and audience, the lines formatted if late."""
    rest = record[4:]
    if not rest or (spec.late is None and spec.late_hidden is None):
        return rest
    text, hidden = rest[0], rest[1]
    if type(text) is tuple and spec.late is not None:
        text = spec.late(st, text)
    if type(hidden) is tuple and spec.late_hidden is not None:
        hidden = spec.late_hidden(st, hidden)
    return (text, hidden, *rest[2:])


Place = tuple[Any, ...]  # ("zone", slot) or ("tile", layer, cell)


def left(st: State, place: Place, item: Value) -> None:
    """An item left a place (item None: the zone was shuffled): what `reveal ... to`
    showed of it there no longer counts (were it to come back, nobody saw where it
    went in between). An item nobody was shown before leaves no record: it would
    void nothing (a reveal after it is newer), and every item moved would write one."""
    if item is None or item in st.shown_items:
        st.shown = (None, place, item, st.shown)


def known_records(shown: Log) -> Iterator[tuple[Any, ...]]:
    """The records of `State.shown`, newest first: (audience, place, item); (None,
    place, item) where the item left that place, (None, place, None) where the rules
    shuffled a zone (what was shown there before is void)."""
    while shown is not None:
        yield shown[:3]
        shown = shown[3]


def known_places(st: State, seat: int) -> set[tuple[Place, Value]]:
    """What `reveal ... to` showed `seat` and still holds, as (place, item): each item
    still where it was shown, never moved since, its zone never shuffled since."""
    out: set[tuple[Place, Value]] = set()
    for (place, item), audience in _standing(st.shown).items():
        if seat in audience:
            if place[0] == "zone":
                still = item in st.zones[place[1]]
            else:
                cell = st.layers[place[1]].get(place[2])
                still = cell is not None and cell[0] == item
            if still:
                out.add((place, item))
    return out


# the reveals still standing after each record of `State.shown`, by the record's id
# (kept with the record, so that the id is not reused); bounded
_STANDING: dict[int, tuple[Log, dict[tuple[Place, Value], frozenset[int]]]] = {}


def _standing(shown: Log) -> dict[tuple[Place, Value], frozenset[int]]:
    """The reveals that no later record voids, with whom each was shown to: worked out
    from the oldest record on, and kept per record, so that a long history (every move
    of an item leaves a record) is read once, not at every view."""
    todo = []
    record = shown
    while record is not None:
        hit = _STANDING.get(id(record))
        if hit is not None and hit[0] is record:
            break
        todo.append(record)
        record = record[3]
    standing = {} if record is None else _STANDING[id(record)][1]
    if len(_STANDING) > 200_000:
        _STANDING.clear()
    for record in reversed(todo):
        audience, place, item = record[0], record[1], record[2]
        if audience is None:  # the item left the place, or the zone was shuffled
            if item is None:
                standing = {k: a for k, a in standing.items() if k[0] != place}
            elif (place, item) in standing:
                standing = dict(standing)
                del standing[(place, item)]
        else:
            standing = dict(standing)
            standing[(place, item)] = standing.get((place, item), frozenset()) | frozenset(audience)
        _STANDING[id(record)] = (record, standing)
    return standing


def newest_first(log: Log, st: State) -> Iterator[Event]:
    """The events of a log of `st` (its log or its private messages), newest first."""
    link = log
    while link is not None:
        yield typed(link, st)
        link = link[3]


def private_first(private: Log) -> Iterator[Said]:
    """The messages of `State.private`, newest first: each is a record of the log too
    (one tuple in both lists), which links the private message before it fifth."""
    link = private
    while link is not None:
        yield Said(link[1], link[2])
        link = link[4]


def events_of(st: State) -> list[Event]:
    """Every event, oldest first."""
    events = list(newest_first(st.log, st))
    events.reverse()
    return events


def _no_bot() -> float:
    raise AssertionError("no decision may be taken for a player outside a playout")


class State:
    __slots__ = (
        "cfg",
        "vars",
        "cols",
        "zones",
        "loc",
        "layers",
        "stack",
        "current",
        "reactor",
        "phase",
        "turn",
        "index",
        "steps",
        "dirty",
        "over",
        "ended",
        "outcome",
        "pending",
        "who",
        "options",
        "rng",
        "rng_shared",
        "log",
        "private",
        "shown",
        "shown_items",
        "viewer",
        "auto_chance",
        "reach",
        "bot",
        "budget",
        "effect",
        "quiet",
        "hushed",
        "mute",
    )

    def __init__(self, cfg: Config, rng: random.Random):
        self.cfg = cfg
        self.vars: list[Value] = []  # globals, by slot
        self.cols: list[list[Value]] = []  # player and kind attributes: cols[column][owner]
        self.zones: list[tuple[Value, ...]] = []  # by zone slot (see check/layout.py)
        self.loc: list[Value] = []  # locals of the rules, by slot
        # tiles on grid boards, two dicts per board (see runtime/tiles.py)
        self.layers: list[dict[Value, Value]] = []
        self.stack: list[int] = [FLOOR] * STACK_FLOOR  # where each running proc returns to
        self.current = 0  # the turn player
        self.reactor = -1  # the player reacting in a reaction round (-1: none)
        self.phase = 0
        self.turn = 0
        self.index = 0  # the item whose default value is being computed
        self.steps = 0  # loop rounds since the last decision
        self.dirty = True  # something an end rule reads may have changed
        self.over = False
        self.ended = -1  # which end rule ended the game (its index in Program.ends)
        self.outcome: list[str] | None = None  # win, draw or loss per player, at the end
        self.pending: Spec | None = None  # the decision or chance event the game waits for
        self.who = 0  # who takes the pending decision (CHANCE for chance events)
        self.options: Sequence[Value] = ()  # the legal values of the pending decision
        self.rng = rng  # the game's one seeded generator
        self.rng_shared = False  # shared with a clone: copy it before drawing
        self.log: Log = None  # the newest event first, linked to the ones before
        # the messages said to some players only, likewise (see private_first)
        self.private: Log = None
        # what `reveal ITEM to PLAYERS` showed, newest first (see known_places below)
        self.shown: Log = None
        # the items named by a record of `shown` with an audience: only these leave a
        # record when they move (see left)
        self.shown_items: frozenset[Value] = frozenset()
        # while `known(P, ...)` is worked out, P's seat (runtime/seen.py); else -1
        self.viewer = -1
        self.auto_chance = True  # False: a test or a replay supplies chance outcomes
        # kept answers about tile networks (tiles.py): (layer, start) -> its Network,
        # (layer, start, node, tile, turn) -> whether the tile joins it there
        self.reach: dict[int, Any] = {}  # kept tile answers by start (tiles.py `Kept`)
        # during Game.playout: the random bot's generator and how many more decisions it
        # may take (0 otherwise)
        self.bot: Callable[[], float] = _no_bot
        self.budget = 0
        # while a clone looks for a way to complete an effect (runtime/complete.py): the
        # effect's block, the depth of the proc stack in it, and the states visited
        self.effect: tuple[int, int, list[int]] | None = None
        # during a quiet playout (Game.playout(quiet=True)), and always in a quiet game
        # (mute: Game.quiet()): the generated code runs no `say` and logs no decision or
        # roll; hushed: the log has such holes
        self.quiet = False
        self.hushed = False
        self.mute = False

    def draw(self) -> random.Random:
        """The generator, copied first if a clone shares it (copy on write: cloning
        stays cheap for search bots that never draw)."""
        if self.rng_shared:
            rng = random.Random.__new__(random.Random)
            rng.setstate(self.rng.getstate())
            self.rng = rng
            self.rng_shared = False
        return self.rng

    def clone(self) -> State:
        other = State.__new__(State)
        other.cfg = self.cfg
        other.vars = self.vars.copy()
        cols = other.cols = self.cols.copy()  # columns no rule changes are shared
        for i in self.cfg.changing:
            cols[i] = cols[i].copy()
        other.zones = self.zones.copy()  # tuples
        other.loc = self.loc.copy()
        other.layers = [layer.copy() for layer in self.layers]
        other.stack = self.stack.copy()
        other.current = self.current
        other.reactor = self.reactor
        other.phase = self.phase
        other.turn = self.turn
        other.index = self.index
        other.steps = self.steps
        other.dirty = self.dirty
        other.over = self.over
        other.ended = self.ended
        other.outcome = None if self.outcome is None else self.outcome.copy()
        other.pending = self.pending
        other.who = self.who
        other.options = self.options  # never changed in place
        other.rng = self.rng
        other.rng_shared = self.rng_shared = True
        other.log = self.log  # shared: events are never changed, only added in front
        other.private = self.private
        other.shown = self.shown
        other.shown_items = self.shown_items  # replaced, never changed in place
        other.viewer = -1
        other.auto_chance = self.auto_chance
        other.reach = self.reach  # replaced, never changed in place, when tiles change
        other.bot = _no_bot
        other.budget = 0
        other.effect = self.effect
        other.quiet = other.mute = self.mute  # a quiet game's clones are quiet too
        other.hushed = self.hushed  # the shared log lacks the same messages
        return other

    def fingerprint(self) -> tuple[object, ...]:
        """Everything that defines the position, for comparing two states."""
        return (
            tuple(self.vars),
            tuple(map(tuple, self.cols)),
            tuple(self.zones),
            self.pending,
            tuple(self.stack),
            self.current,
            self.reactor,
            self.phase,
            self.over,
            self.ended,
            tuple(self.outcome or ()),
            self.turn,
            tuple(known_records(self.shown)),
            tuple(events_of(self)),
            tuple(tuple(sorted(layer.items())) for layer in self.layers),
        )

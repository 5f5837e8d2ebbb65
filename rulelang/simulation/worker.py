"""Playing games for a simulation: a chunk of seeds, each game played to its end by
the seats' bots (the fast path of the generated code when every seat plays at random),
and recorded. A chunk is all a worker process (or a Dask worker) needs."""

from __future__ import annotations

import dataclasses
import gc
import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import TYPE_CHECKING

from rulelang import CHANCE, PUBLIC, Action, Game, Ruleset, search
from rulelang.api import compile_file
from rulelang.diagnostics import NO_SPAN, GameRuntimeError
from rulelang.limits import Limits
from rulelang.runtime.belief import NoBelief
from rulelang.runtime.bots import RANDOM
from rulelang.simulation.measured import UNKNOWN, Declared, declared_by
from rulelang.simulation.summary import Record

if TYPE_CHECKING:
    from rulelang.runtime.view_types import PlayerRow

# rulesets a Dask worker compiled from what the client shipped it (it may be another
# machine, which cannot read the rule file), by the name its chunks give for the path;
# see rulelang/simulation/on_dask.py
SHIPPED: dict[tuple[str, Limits], Ruleset] = {}


def _rules(path: str, limits: Limits) -> Ruleset:
    shipped = SHIPPED.get((path, limits))
    return shipped if shipped is not None else _compiled(path, limits, _stamp(path))


def _stamp(path: str) -> tuple[int, int]:
    """When the rule file was last changed, and its size: a file edited between two
    runs in one process (a notebook, a test) is compiled anew. (Its bases are not
    watched: edit the file run, or start a new process.)"""
    try:
        stat = os.stat(path)
    except OSError:
        return (0, 0)  # compile_file says what is wrong with the path
    return (stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4)
def _compiled(path: str, limits: Limits, stamp: tuple[int, int]) -> Ruleset:
    """The ruleset a worker plays, compiled once per process and version of the file
    (keyed by the limits too: they are written into the generated code)."""
    return compile_file(path, limits=limits)


def declared_of(path: str, limits: Limits) -> Declared:
    """What the rule file says the reports count: its end rules and measures."""
    return declared_by(_rules(path, limits))


def bot_rng(seed: int) -> random.Random:
    """The random bots' generator, derived from the game's one seed."""
    return random.Random(f"bots:{seed}")


def secrets_of(game: Game, public: list[PlayerRow] | None = None) -> list[dict[str, str]]:
    """Per player, the single values they see of their own seat and nobody else does
    (not a hand of cards), as the views derived from the rule file say."""
    if public is None:
        public = game.view(PUBLIC, only={"players"})["players"]
    secrets = []
    for p in range(game.players):
        own = game.view(p, only={"players"})["players"][p]
        shown = public[p]
        secrets.append(
            {k: str(v) for k, v in own.items() if k not in shown and not isinstance(v, list)}
        )
    return secrets


# attributes every player has, that are no score
BUILTIN_NUMBERS = frozenset({"seat"})


def scores_of(
    public: list[PlayerRow], bookkeeping: frozenset[str] = frozenset()
) -> list[dict[str, float]]:
    """Per player, the numeric attributes (not yes/no) everybody sees at the end: the
    final table's scores, points, coins, as the rule file's visibility declares them;
    not those it declares `display bookkeeping` (a bot's notebook is no outcome)."""
    left_out = BUILTIN_NUMBERS | bookkeeping
    return [
        {
            k: v
            for k, v in row.items()
            if isinstance(v, int | float) and not isinstance(v, bool) and k not in left_out
        }
        for row in public
    ]


def record(
    game: Game, decisions: int, start: list[dict[str, str]], seed: int, first: int = -1
) -> Record:
    """A finished game. A secret identity is a secret value that is the same at the end
    as when the game started (a role, an agent); one that changed in play (an item
    held, an injury) is the game's state, not who the player is."""
    public = game.view(PUBLIC, only={"players"})["players"]
    end = secrets_of(game, public)
    changed = {k for s, e in zip(start, end, strict=True) for k in e if s.get(k) != e[k]}
    secrets = [{k: v for k, v in e.items() if k not in changed} for e in end]
    return Record(
        game.results(),
        game.turn_number,
        decisions,
        secrets,
        seed,
        changed=changed,
        first=first,
        scores=scores_of(public, _bookkeeping(game.rules)),
        end=reason.index if (reason := game.end_reason()) is not None else UNKNOWN,
        measures=game.measures(),
    )


@lru_cache(maxsize=8)
def _bookkeeping(rules: Ruleset) -> frozenset[str]:
    """The players' attributes the rules declare `display bookkeeping`."""
    return frozenset(a.name for a in rules.program.player_attrs if a.display == "bookkeeping")


def first_turn(game: Game, step: Callable[[], int], most: int) -> tuple[int, int]:
    """Play on (one decision at a time, with `step`) until turn 1 has begun: the seat
    whose turn it is then moved first (with `order random` it need not be seat 1), and
    the decisions taken so far. -1 when that is unknown: the game ended first, or turn
    1 ended without waiting for any decision (the game is then already past it)."""
    taken = 0
    while game.turn_number < 1 and not game.is_over() and taken < most:
        taken += step()
    first = game.turn_player if game.turn_number == 1 else -1
    return first, taken


# the bot of each seat: a name ("random" or a declared bot), or None for the declared
# bots (random when the rules declare none)
SeatBots = tuple[str | None, ...]


@dataclass(frozen=True, slots=True)
class Chunk:
    """Some games of a simulation: everything a worker process needs to play them (the
    limits too: they are written into the generated code). `path` names the rule file,
    or a rule file a Dask client shipped (see SHIPPED)."""

    path: str
    players: int
    seeds: tuple[int, ...]
    options: dict[str, str]
    limits: Limits
    seat_bots: SeatBots = ()


# the collector's first threshold while games are played (Python's default is 700)
FEWER_COLLECTIONS = 20_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Run the garbage collector less often. A game makes many small tuples (its log,
    its messages, the lists of the rules) and next to no cycles, and every few
    hundred of them Python's collector passes over them, and now and then over every
    object of the process, the compiled rules included: a fifth of the time of a
    game of random bots on a large maze. The threshold is put back afterwards."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], FEWER_COLLECTIONS), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


def play_chunk(args: Chunk) -> list[Record]:
    """Play the games of some seeds (in a worker process when --jobs > 1: everything it
    needs, the limits too, is in `args`), collecting garbage less often."""
    with fewer_collections():
        return _play_chunk(args)


def _play_chunk(args: Chunk) -> list[Record]:
    rules = _rules(args.path, args.limits)
    seat_bots = args.seat_bots
    searching = any(search.is_search(b) for b in seat_bots)
    random_only = not searching and (
        not rules.bots or bool(seat_bots) and all(b == RANDOM for b in seat_bots)
    )
    out = []
    for seed in args.seeds:
        try:
            out.append(_play_one(rules, args, seed, random_only))
        except GameRuntimeError as error:
            raise in_game_of(error, seed) from None
    return out


def in_game_of(error: GameRuntimeError, seed: int) -> GameRuntimeError:
    """The error, its hint naming the game it happened in, so that the designer can
    play that game again (the other games tell nothing of it)."""
    where = f"in the game of seed {seed} (`--seed {seed} -n 1` plays it alone)"
    hint = f"{error.hint}; {where}" if error.hint else where
    return GameRuntimeError(error.code, error.message, error.span, hint)


def _play_one(rules: Ruleset, args: Chunk, seed: int, random_only: bool) -> Record:
    """One game of the chunk, played to its end or cut off at the decision limit."""
    most = args.limits.decisions
    game = rules.new_game(args.players, seed, args.options)
    start = secrets_of(game)
    if random_only:  # the fast path: the generated code takes the decisions
        rng = bot_rng(seed)
        first, taken = first_turn(game, partial(game.playout, rng, 1, quiet=True), most)
        decisions = taken + game.playout(rng, max_decisions=most - taken, quiet=True)
    else:
        gave_up: set[int] = set()
        play = partial(play_bots, game, args.seat_bots, 1, gave_up)
        first, taken = first_turn(game, play, most)
        decisions = taken + play_bots(game, args.seat_bots, most - taken, gave_up)
        if gave_up:
            return _gave_up(game, decisions, start, seed, first, gave_up)
    if not game.is_over():
        return _cut_off(game, decisions, seed)
    return record(game, decisions, start, seed, first)


def _cut_off(game: Game, decisions: int, seed: int) -> Record:
    decision = game.pending()
    span = decision.span if decision is not None and decision.span else NO_SPAN
    return Record([], game.turn_number, decisions, [], seed, True, span)


def _gave_up(
    game: Game, decisions: int, start: list[dict[str, str]], seed: int, first: int, seats: set[int]
) -> Record:
    """A game in which a search bot found no world: its record says at which seats."""
    over = game.is_over()
    done = record(game, decisions, start, seed, first) if over else _cut_off(game, decisions, seed)
    return dataclasses.replace(done, gave_up=tuple(sorted(seats)))


def play_bots(game: Game, seat_bots: SeatBots, most: int, gave_up: set[int] | None = None) -> int:
    """Play on with each seat's bot (`Game.bot_choice`) until the end or `most`
    decisions; return how many were taken. `gave_up`: the seats whose search bot found
    no world that fits what they saw (see `seat_action`), added to as it happens."""
    taken = 0
    gave_up = set() if gave_up is None else gave_up
    while not game.is_over() and taken < most:
        who = game.current_player()
        if who == CHANCE:
            game.resolve_chance()
            continue
        game.apply(
            seat_action(game, who, seat_bots[who] if who < len(seat_bots) else None, gave_up)
        )
        taken += 1
    return taken


def seat_action(game: Game, seat: int, name: str | None, gave_up: set[int]) -> Action:
    """The action of the seat's bot. A search bot that finds no world fitting what its
    seat saw refuses to guess (NoBelief); in a simulation the game is not thrown away
    with every game played before it: from that decision on, the rules' declared bots
    (random where there are none) play the seat, which reads no more than it sees, and
    the game's record says so. (`play` stops instead: a person is there to choose.)"""
    if seat not in gave_up:
        try:
            return search.bot_action(game, name)
        except NoBelief:
            gave_up.add(seat)
    return game.bot_choice(None)

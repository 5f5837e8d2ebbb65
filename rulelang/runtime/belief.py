"""What a seat may believe: worlds drawn again from the game's history (docs/bots.md).

A search bot must not read what its seat cannot see, and should not forget what the
seat has learnt. A belief is a set of weighted worlds (particles, as POMCP's belief
state: Silver and Veness 2010), games replayed from the start along the real game's
record, in which

- what the seat saw is forced: its own decisions, the public ones and those shown to it
  (`secret to`), the outcomes of rolls, of picks whose line it reads, of secret ones
  shown to it, and of shuffles of zones it sees; a public decision illegal in a world
  rejects it;
- what it did not see is drawn again, from generators derived from the seed, the seat
  and the event's number: a world follows each outcome of a secret roll or pick and
  each option of another player's secret decision (up to BRANCHES; for a card, each
  kind of card it could be), and draws a shuffle or a `generate` once;
- after every event, a world is kept only if the seat's view of it (everything `view`
  shows the seat, and the log lines it may read) is the seat's view of the real game
  at that point. The real record is replayed once, on its own, for that view only: the
  real game's hidden values are never read.

Items the seat never saw are exchangeable, so a world may swap two of them rather than
be rejected (`_repair`: the cards dealt or offered to the seat are the very ones it
saw; `_swap_in`: a card played from a hidden hand that the world's hand lacks). The
branches of a secret are kept until what the seat sees tells them apart, up to WORLDS
* PARTICLES; they are resampled by weight when a new secret would branch them past
that, or when rejections leave fewer than PARTICLES, and a copy of a world has the
items the seat never saw dealt anew (determinize.redeal_unseen). The belief is kept
from decision to decision, with the game's table; brought up to date or built from
scratch, it is the same. When every world is rejected, it starts again from a copy of
itself kept before one of the last hidden events (a mark), or from the first event,
with more worlds, within a budget of worlds tried (RETRY_WORK); then `NoBelief` (a
UsageError: the bot refuses, it never falls back on the truth). Rules with an
`imagine` block do not use this module.
"""

from __future__ import annotations

import itertools
import random
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulelang.diagnostics import GameRuntimeError, UsageError
from rulelang.runtime.code import ChanceSpec, ChoiceSpec, Chose, Drew, Value
from rulelang.runtime.redeal import PARTS, Seen, redeal_unseen
from rulelang.runtime.state import Config, Log, State, known_places, typed
from rulelang.runtime.views import log_lines, may_see, view

if TYPE_CHECKING:
    from rulelang.runtime.engine import Game

PARTICLES = 16  # worlds drawn per seat (more while secrets are told apart)
WORLDS = 18  # at most WORLDS * PARTICLES worlds are followed at once
BRANCHES = 8  # the most outcomes or options a hidden event is followed into, per world
# ... and kinds of card a secret choice of a card: all of a hand of several kinds, so that
# each world has a branch that fits the card then seen played (fewer: worlds die out
# and the few left stand for every past secret, as the roles)
CARD_BRANCHES = 8
# When every world is rejected, the belief starts again from its last MARKS hidden
# events (the newest first), then from the first event, each time with more worlds
# (PARTICLES << 1, then << 2), as long as all these fresh starts together have tried
# at most RETRY_WORK worlds (a world following one event is one; each branch of a
# hidden event is one): a budget counted in work, not time, so that the bot's choice
# stays the same on every machine, and a decision's CPU stays bounded (a fresh start
# from the first event with 32 and 64 worlds took up to 1.5 s of CPU late in a game).
# About 70 µs a world: 8,000 is about 0.6 s. (3,000 was too few: a random four-player
# game of the official three-round rules needed 4,704 worlds, from the second mark.)
MARKS = 3
RETRY_WORK = 8000


class NoBelief(UsageError):
    """No world fits what the seat has seen: a search cannot play it honestly."""


@dataclass
class Mark:
    """The belief as it was before a hidden event (copies of its worlds and of the
    truth), where it may start again when every world is later rejected."""

    number: int  # the events taken before it
    truth: Game
    particles: list[Game]
    seen: list[Seen]
    weights: list[float]


def _mark(b: Belief) -> Mark:
    """A mark of the belief as it is now."""
    copies = [p.clone() for p in b.particles]
    return Mark(len(b.events), b.truth.clone(), copies, list(b.seen), list(b.weights))


@dataclass
class Belief:
    """The worlds one seat may believe, kept in step with the real game's record."""

    seat: int
    truth: Game  # the real record replayed: only the seat's view of it is read
    particles: list[Game]
    # per particle: the items the seat has seen in it (never dealt anew: it knows where
    # they went), in the particles' order
    seen: list[Seen] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)  # likewise: how likely each is
    events: list[Chose | Drew] = field(default_factory=list)  # consumed, oldest first
    synced: Log = None  # the real log record the belief has caught up with
    attempt: int = 0  # 0, or which fresh start is under way (more worlds, other draws)
    marks: list[Mark] = field(default_factory=list)  # the last MARKS, oldest first
    first: Mark | None = None  # the belief before the first event
    tried: int = 0  # the worlds tried so far (see RETRY_WORK), fresh starts included
    # the last real state checked by follows_record, its log record, and the answer
    checked: tuple[State, Log, bool] | None = None


def _kept(cfg: Config, seat: int) -> list[Belief]:
    """The beliefs of one seat, kept per game table (Config: one per game, shared by its
    clones), on the table itself: a belief holds its game (it replays the record), so
    kept anywhere else it would keep every game alive (Config.beliefs)."""
    return cfg.beliefs.setdefault(seat, [])


def world(game: Game, seat: int, rng: random.Random) -> Game:
    """A world `seat` could believe it is in, drawn by `rng`: a clone of one particle,
    its future dice drawn from `rng` too. NoBelief if none fits what the seat saw."""
    belief = current(game, seat)
    pick = belief.particles[-1]
    if len(belief.particles) > 1:  # a world, by how likely it is
        at = rng.random() * sum(belief.weights)
        for p, w in zip(belief.particles, belief.weights, strict=True):
            at -= w
            if at < 0:
                pick = p
                break
    other = pick.clone()
    other.state.rng = rng  # its dice come from the caller's generator
    other.state.rng_shared = False
    other.state.auto_chance = game.state.auto_chance
    return other


def follows_record(game: Game, seat: int) -> bool:
    """Does the game's record lead to what the seat sees now? Not when the position
    was set up by hand (`Game.edit()` changed what the seat sees: edits are not in the
    record); then determinize.py deals what it holds anew instead. (An edit of what
    the seat cannot see changes nothing here: the belief never reads it.)"""
    st = game.state
    hit = _BY_HAND.get((id(st), seat))
    if hit is not None and hit[0] is st and hit[1] is st.log:
        return False
    try:
        b = current(game, seat)
    except NotFromRecord:  # the record no longer replays: edits made it
        if len(_BY_HAND) > 1000:
            _BY_HAND.clear()
        _BY_HAND[(id(st), seat)] = (st, st.log)
        return False
    if b.checked is not None and b.checked[0] is st and b.checked[1] is st.log:
        return b.checked[2]
    fits = view(b.truth, seat, PARTS) == view(game, seat, PARTS)
    b.checked = (st, st.log, fits)
    return fits


class NotFromRecord(Exception):
    """The game's record does not replay (a position set up by hand)."""


# real states whose record does not replay, per seat (kept with the state, bounded)
_BY_HAND: dict[tuple[int, int], tuple[State, Log]] = {}


def current(game: Game, seat: int) -> Belief:
    """The seat's belief brought up to the game's last event (kept between calls)."""
    kept = _kept(game.state.cfg, seat)
    log = game.state.log
    for b in kept:
        if b.synced is log:
            return b
    for b in kept:
        news = _since(game.state, b.synced)
        if news is not None:
            try:
                _catch_up(b, news, game)
            except NotFromRecord:
                kept.remove(b)  # half brought up to date: not kept
                raise
            return b
    b = _start(game, seat)
    _catch_up(b, _since(game.state, None) or [], game)
    kept.insert(0, b)
    del kept[4:]  # a few, for clones that went other ways
    return b


def _since(st: State, mark: Log) -> list[Chose | Drew] | None:
    """The decisions and chance events after `mark`, oldest first; None if `mark` is
    not in this state's log."""
    out: list[Chose | Drew] = []
    record = st.log
    while record is not mark:
        if record is None:
            return None
        if isinstance(record[0], ChoiceSpec | ChanceSpec):
            out.append(typed(record, st))  # type: ignore[arg-type]
        record = record[3]
    out.reverse()
    return out


def _raw(value: Value) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _fresh(game: Game) -> Game:
    """The game as it was before its first event, every chance event waiting."""
    options = {k: _raw(v) for k, v in game.options.items()}
    names = game.state.cfg.player_names
    other = game.rules.new_game(game.players, game.seed, options, names, auto_chance=False)
    other.state.rng = random.Random(0)  # never drawn: every outcome is supplied
    return other


def _start(game: Game, seat: int) -> Belief:
    first = _fresh(game)  # one world, until something is hidden from the seat
    seen = _seen_in(first, seat, frozenset())
    b = Belief(seat, _fresh(game), [first], [seen], [1.0])
    b.first = _mark(b)
    return b


def _catch_up(b: Belief, news: list[Chose | Drew], game: Game) -> None:
    for event in news:
        _step(b, event, game)
    b.synced = game.state.log


def _step(b: Belief, event: Chose | Drew, game: Game) -> None:
    """Take one real event; where every world is rejected, start again."""
    if not _take(b, event, game):
        _start_again(b, game)


def _take(b: Belief, event: Chose | Drew, game: Game, stop: int | None = None) -> bool:
    """Take one real event: the truth moves on, each world follows (or branches, or is
    rejected), and the survivors are resampled. False if every world was rejected, or
    if `stop` worlds have been tried (`b.tried`) before it is done."""
    truth = b.truth
    mark = truth.state.log
    look = _look(truth, event)
    fans = _fan_out(event, truth)
    hidden = _hidden(event, b.seat, truth)
    if hidden:  # where a fresh start may begin
        b.marks.append(_mark(b))
        del b.marks[: max(0, len(b.marks) - MARKS)]
    try:
        _force(truth, event)
    except (UsageError, GameRuntimeError):
        raise NotFromRecord from None
    seen = _observe(truth, b.seat, mark)
    number = len(b.events)
    b.events.append(event)
    rng = random.Random(f"rulelang belief {game.seed} {b.seat} {number} {b.attempt}")
    size = PARTICLES << min(b.attempt, 2)
    _before_secret(b, event, truth, size, rng, fans)
    worlds = []
    rejected = False
    # where the first world's window of options starts (see `_some`)
    first = rng.randrange(1 << 30) if hidden and isinstance(event, Chose) else 0
    for i, (p, known, weight) in enumerate(zip(b.particles, b.seen, b.weights, strict=True)):
        if stop is not None and b.tried >= stop:
            return False
        before = p.state.log
        known = _shuffled(p, event, known)
        # the world before the event, should the event show the seat items the world
        # holds unseen and tell them in a line (see _shown_before)
        was = p.clone()
        # (a fresh start, `stop` given, weighs no choice by the opponent model: its
        # questions to the bots, about 0.17 ms each and up to CARD_BRANCHES a world,
        # would make the worlds RETRY_WORK counts cost several times the 70 µs it assumes)
        window = first + i * BRANCHES
        branches = _follow(p, event, b.seat, rng, known, look, window, model=stop is None)
        b.tried += max(1, len(branches))
        rejected = rejected or not branches
        for q, w in branches:
            # the zones the seat sees hold the very items of the truth's (not just
            # items that look the same), so that its own later moves name them
            swaps: list[tuple[str, Value, Value]] = []
            _repair(q, truth, b.seat, known, swaps)
            fit: Game | None = q
            if not _fits(q, b.seat, before, seen):
                fit = None
                if swaps:
                    fit = _shown_before(was, swaps, q, before, truth, b.seat, known)
                    b.tried += 1
                    if fit is not None and not _fits(fit, b.seat, before, seen):
                        fit = None
            if fit is not None:
                worlds.append((fit, weight * w, _seen_in(fit, b.seat, known)))
            else:
                rejected = True
    if not worlds:
        return False
    if len(worlds) > size * WORLDS or (rejected and len(worlds) < size):
        # too many (never: _before_secret bounds the branches), or too few left: the
        # copies of a world that fits have what the seat never saw dealt anew
        b.particles, b.seen, b.weights = _resample(worlds, size, rng, b.seat)
    else:  # every world kept, each as likely as its branches made it
        b.particles = [q for q, _w, _k in worlds]
        b.seen = [known for _q, _w, known in worlds]
        b.weights = [w for _q, w, _k in worlds]
    return True


def _before_secret(
    b: Belief, event: Chose | Drew, truth: Game, size: int, rng: random.Random, fans: int
) -> None:
    """Before an event the seat does not see: as many worlds as it may branch into.
    The worlds are kept, branches and all, until what the seat sees tells them apart
    (the dice under a cup, shown when it is lifted): resampled only when the next
    secret would branch them past `size * WORLDS`, or to `size` copies before a draw
    that each world makes once (a shuffle: the copies then shuffle differently)."""
    if not _hidden(event, b.seat, truth):
        return
    # a secret choice is soon told apart (a card played is seen where it goes): the
    # worlds branch from `size`; dice may stay hidden for long: from as many as fit
    target = size if fans == 1 or isinstance(event, Chose) else max(size, size * WORLDS // fans)
    if len(b.particles) > target or (fans == 1 and len(b.particles) < size):
        worlds = list(zip(b.particles, b.weights, b.seen, strict=True))
        b.particles, b.seen, b.weights = _resample(
            worlds, target if fans > 1 else size, rng, b.seat, copies=fans == 1
        )


def _fan_out(event: Chose | Drew, truth: Game) -> int:
    """How many branches a world may make at a hidden event (1: one draw), read
    before the truth takes it."""
    spec = truth.state.pending
    if isinstance(event, Chose):
        if not isinstance(spec, ChoiceSpec):
            return 1
        return (CARD_BRANCHES if spec.kind is not None else BRANCHES) + 1
    if event.decision.kind in ("roll", "pick") and isinstance(spec, ChanceSpec):
        return min(len(spec.source(truth.state)), BRANCHES)
    return 1


def _start_again(b: Belief, game: Game) -> None:
    """Every world was rejected at the last event: start again from the marks before
    the last hidden events, the newest first (what went wrong is most often the
    branches of the last secret: the card then seen played is in none), then from the
    first event, each time with more worlds and other draws, within RETRY_WORK worlds
    tried in all; then NoBelief."""
    events = b.events
    starts = [*reversed(b.marks)]
    if b.first is not None and all(m.number > 0 for m in starts):
        starts.append(b.first)
    spent = b.tried
    stop = spent + RETRY_WORK
    attempt = 0
    # round the marks again, with other draws, while the budget lasts: a game whose
    # one hidden event is its first shuffle has one mark, and gave up after 384 worlds
    for mark in itertools.cycle(starts):
        if b.tried >= stop:
            break
        attempt += 1
        if _again(b, mark, attempt, events, game, stop):
            b.attempt = 0  # the hard part is past: the usual number of worlds
            return
    name = game.state.cfg.player_names[b.seat]
    raise NoBelief(
        f"the search found no world that fits what {name} has seen ({b.tried - spent} "
        f"worlds tried in {attempt} fresh start{'' if attempt == 1 else 's'}): it will "
        "not play on a guess that reads the secrets; use a declared bot or random"
    )


def _again(
    b: Belief, mark: Mark, attempt: int, events: list[Chose | Drew], game: Game, stop: int
) -> bool:
    """Start again from `mark` with twice or four times the worlds (copies of its
    worlds with what the seat never saw dealt anew) and take the events since then,
    while fewer than `stop` worlds have been tried in all. False if it fails."""
    rng = random.Random(f"rulelang belief {game.seed} {b.seat} {mark.number} again {attempt}")
    copies = zip(mark.particles, mark.weights, mark.seen, strict=True)
    worlds = [(p.clone(), w, k) for p, w, k in copies]
    size = PARTICLES << min(attempt, 2)
    b.particles, b.seen, b.weights = _resample(worlds, size, rng, b.seat, copies=True)
    b.tried += size  # each world dealt is one tried
    b.truth = mark.truth.clone()
    b.marks = [m for m in b.marks if m.number < mark.number]
    b.events, b.attempt = events[: mark.number], attempt
    return all(_take(b, event, game, stop) for event in events[mark.number :])


def _force(g: Game, event: Chose | Drew) -> None:
    """Apply a real event as it happened (the truth's replay)."""
    if isinstance(event, Chose):
        g.choose(event.value)
    else:
        g.chance_index(event.outcome)


def _observe(g: Game, seat: int, mark: Log) -> tuple[Any, ...]:
    """What `seat` sees of `g`: the log lines it may read since `mark`, and its view."""
    return (log_lines(g, seat, since=mark), view(g, seat, PARTS))


def _fits(g: Game, seat: int, mark: Log, seen: tuple[Any, ...]) -> bool:
    """Does the seat see in `g` what it saw (the log first: it is quick to read)?"""
    if log_lines(g, seat, since=mark) != seen[0]:
        return False
    return bool(view(g, seat, PARTS) == seen[1])


def _hidden(event: Chose | Drew, seat: int, truth: Game) -> bool:
    """Does the seat miss what happens at this event (so that worlds branch on it)?"""
    if isinstance(event, Chose):
        return not sees_choice(event, seat)
    return not sees_draw(truth, event, seat)


def sees_choice(event: Chose, seat: int) -> bool:
    return (
        event.who == seat
        or not event.decision.secret
        or (event.audience is not None and seat in event.audience)
    )


def sees_draw(g: Game, event: Drew, seat: int) -> bool:
    """Does `seat` see the outcome of a chance event (by the rules' visibility)?"""
    spec = event.decision
    if spec.audience is not None:  # a secret roll or pick
        return event.audience is not None and seat in event.audience
    if spec.kind == "roll":
        return True
    if spec.kind == "pick":  # as the log shows it (views.event_line): announced only
        return event.hidden is None  # with a `log` text and no `else` text
    if spec.kind == "shuffle_zone":  # the new order of a zone the seat looks into
        return _zone_seen(g, spec.zone, seat)
    return False  # a shuffled list, a generated drawing: what they give may be hidden


def _zone_seen(g: Game, slot: int, seat: int) -> bool:
    return slot in _visible_zones(g, seat)


def _look(truth: Game, event: Chose | Drew) -> str | None:
    """How the value of an event looks (an item's text), before the truth takes it."""
    spec = truth.state.pending
    if isinstance(event, Chose) and isinstance(spec, ChoiceSpec) and spec.kind is not None:
        return None if event.value is None else spec.show(truth.state, event.value)
    if isinstance(event, Drew) and isinstance(spec, ChanceSpec) and spec.kind == "pick":
        return spec.show(truth.state, event.value)
    return None


def _alike(
    p: Game, spec: ChoiceSpec | ChanceSpec, values: Sequence[Value], look: str | None
) -> Value:
    """The first of `values` that looks as the seat saw it (an item the same to its
    eyes, as another copy of a card), or None."""
    if look is None:
        return None
    return next((v for v in values if v is not None and spec.show(p.state, v) == look), None)


def _follow(
    p: Game,
    event: Chose | Drew,
    seat: int,
    rng: random.Random,
    known: Seen,
    look: str | None,
    window: int = 0,
    model: bool = True,
) -> list[tuple[Game, float]]:
    """The worlds `p` becomes with the event: one if the seat saw it (none if it cannot
    happen there), else one per outcome or option tried, with its probability (of
    many options, the window `_some` gives this world; another player's secret choice
    weighed by the opponent model unless `model` is False)."""
    st = p.state
    spec = st.pending
    if st.over or spec is None or spec.name != event.decision.name:
        return []
    try:
        if isinstance(event, Chose):
            if not isinstance(spec, ChoiceSpec) or st.who != event.who:
                return []
            if sees_choice(event, seat):
                value = event.value
                if value not in st.options:  # another item that looks the same, or
                    value = _alike(p, spec, st.options, look)  # one swapped in for an
                    if value is None:  # unseen option; else illegal: not this world
                        value = _swap_in(p, spec, event.value, look, seat, known)
                    if value is None:
                        return []
                p.choose(value)
                return [(p, 1.0)]
            if spec.kind is not None:  # items from a hidden hand: any it could hold
                return _item_choices(p, spec, seat, rng, known, window, model)
            tried: Sequence[Value] = _some(st.options, window)
            odds = _modelled(p, tried) if model else None  # read before p takes the last branch
            return _branch(p, tried, lambda g, v: g.choose(v), odds)
        if not isinstance(spec, ChanceSpec):
            return []
        if sees_draw(p, event, seat):
            outcome = _forced(p, spec, event, look)
            if outcome is None:
                return []
            p.chance_index(outcome)
            return [(p, 1.0)]
        return _branch(p, _draws(p, spec, rng), lambda g, o: g.chance_index(o))
    except (GameRuntimeError, UsageError):  # the world breaks a rule: not this world
        return []


# The opponent model: another player's secret choice is weighed, in each world, by how
# likely the declared bot that plays that seat there (it reads only what its player
# sees in that world) was to make it, mixed with a random player's choice (the share
# RANDOM_SHARE: a player may play otherwise than its bot). A world in which a card
# played is one that player's bot would not have chosen there (a dead end laid by a
# player whose hidden role digs tunnels) loses weight, so the worlds come to believe
# what the players' choices tell, as a player at the table would (Ponsen et al.,
# "Integrating opponent models with Monte-Carlo tree search in poker", 2010; Richards
# and Amir 2007 weigh the hidden racks by the moves seen likewise). Without a declared
# bot for the seat, every option is as likely, as before.
RANDOM_SHARE = 0.2


def _likelihood(q: Game, spec: ChoiceSpec, look: str) -> float:
    """How much more likely than a random player the seat's declared bot in world `q`
    was to choose an item that looks like `look` (`spec`'s pending choice, not taken)."""
    kept = _kept_by_bot(q)
    if kept is None:
        return 1.0
    options = [v for v in q.state.options if v is not None]
    alike = sum(1 for v in options if spec.show(q.state, v) == look)
    chosen = sum(1 for v in kept if v is not None and spec.show(q.state, v) == look)
    if not alike:
        return 1.0
    return _odds(chosen / len(kept), alike / len(options))


def _odds(bot: float, random_player: float) -> float:
    """How much more likely than a random player a player is to make a choice its bot
    makes with probability `bot` and a random player with `random_player`."""
    return RANDOM_SHARE + (1 - RANDOM_SHARE) * bot / random_player


def _kept_by_bot(q: Game) -> Sequence[Value] | None:
    """The options the declared bot of the deciding seat keeps in `q` (None if none
    plays it, or it keeps nothing)."""
    try:
        kept = q.bot_options()
    except (GameRuntimeError, UsageError):
        return None
    return kept or None


def _modelled(p: Game, tried: Sequence[Value]) -> list[float] | None:
    """Per option tried of another player's secret choice (not of items), how much more
    likely than a random player its declared bot in world `p` was to take it (see
    RANDOM_SHARE); None where no declared bot plays the seat."""
    kept = _kept_by_bot(p)
    if kept is None:
        return None
    share = 1.0 / len(p.state.options)
    bot = 1.0 / len(kept)
    return [_odds(bot if v in kept else 0.0, share) for v in tried]


def _branch(
    p: Game, values: Sequence[Any], take: Any, odds: Sequence[float] | None = None
) -> list[tuple[Game, float]]:
    out = []
    weight = 1.0 / len(values) if values else 0.0
    for i, v in enumerate(values):
        q = p if i == len(values) - 1 else p.clone()  # the last one takes p itself
        try:
            take(q, v)
        except (GameRuntimeError, UsageError):
            continue
        out.append((q, weight if odds is None else weight * odds[i]))
    return out


def _some(values: Sequence[Any], window: int, count: int = BRANCHES) -> Sequence[Any]:
    """At most `count` of `values`, in their order: those from `window` on (round the
    end). The worlds of one event take windows BRANCHES apart from a random start, so
    that between them they try every option (a sample drawn per world missed, in some
    games, the one card that every world then needed, and the belief started again)."""
    n = len(values)
    if n <= count:
        return values
    return [values[i] for i in sorted((window + k) % n for k in range(count))]


def _forced(
    p: Game, spec: ChanceSpec, event: Drew, look: str | None
) -> int | tuple[int, ...] | None:
    """The outcome the seat saw, in this world's terms (by value, else by how the item
    looks), or None."""
    source = spec.source(p.state)
    if isinstance(event.outcome, tuple):
        return event.outcome if len(event.outcome) == len(source) else None
    if spec.kind == "generate":
        return event.outcome
    for i, v in enumerate(source):
        if v == event.value and type(v) is type(event.value):
            return i
    alike = _alike(p, spec, source, look)
    return None if alike is None else source.index(alike)


def _draws(p: Game, spec: ChanceSpec, rng: random.Random) -> list[int | tuple[int, ...]]:
    """The outcomes a world follows a hidden chance event into."""
    size = len(spec.source(p.state))
    if size == 0:
        return []
    if spec.kind in ("roll", "pick"):
        if size <= BRANCHES:
            return list(range(size))
        return sorted(rng.sample(range(size), BRANCHES))
    if spec.kind == "generate":
        return [int(rng.random() * size)]
    order = list(range(size))
    rng.shuffle(order)
    return [tuple(order)]


def _seen_in(g: Game, seat: int, before: Seen) -> Seen:
    """The items the seat has seen in world `g`: `before`, and those it sees now (in
    the zones it looks into, shown to it by `reveal`, offered to it)."""
    st = g.state
    now: set[tuple[str, Value]] = set()
    for slot, kind in _visible_zones(g, seat, with_kind=True):
        now.update((kind, item) for item in st.zones[slot])
    if st.shown is not None:
        now.update(_kind_at(g, place, item) for place, item in known_places(st, seat))
    spec = st.pending
    if isinstance(spec, ChoiceSpec) and spec.kind is not None and st.who == seat:
        now.update((spec.kind, v) for v in st.options if v is not None)
    return before if now <= before else before | now


def _shuffled(g: Game, event: Chose | Drew, known: Seen) -> Seen:
    """When a zone is shuffled (`g` before the shuffle), the seat no longer knows where
    its items are: they may be swapped again (a new deal)."""
    spec = event.decision
    if not isinstance(spec, ChanceSpec) or not known:
        return known
    if spec.kind == "shuffle_zone":
        items = set(g.state.zones[spec.zone])
        kind = _zone_kind(g, spec.zone)
        return frozenset(x for x in known if x[1] not in items or x[0] != kind)
    if spec.kind == "shuffle":  # a list (of items of any kind: each value forgotten)
        values = set(v for v in spec.source(g.state) if type(v) is int)
        return frozenset(x for x in known if x[1] not in values)
    return known


def _zone_kind(g: Game, slot: int) -> str:
    layout = g.rules.layout
    for z in g.rules.program.zones:
        if _holds(g, layout.zone_base[z.name], z.per_player, slot):
            return layout.zone_kind[z.name]
    return ""


def _kind_at(g: Game, place: tuple[Any, ...], item: Value) -> tuple[str, Value]:
    if place[0] == "zone":
        layout = g.rules.layout
        for z in g.rules.program.zones:
            base = layout.zone_base[z.name]
            if base <= place[1] < base + (g.players if z.per_player else 1):
                return (layout.zone_kind[z.name], item)
    for ops in g.rules.ex.tiles.values():
        if ops.layer == place[1]:
            return (ops.kind, item)
    return ("", item)


# by the ruleset's id, with a weak reference to it: a ruleset compiled again and again
# (an editor, a test run) is not kept alive by its lists
_ZONES: dict[tuple[int, int, object], tuple[weakref.ref[Any], list[Any]]] = {}


def _cached(g: Game, key: tuple[int, object], make: Any) -> list[Any]:
    """A list of zone slots worked out once per ruleset (and player count)."""
    full = (id(g.rules), g.players, key)
    hit = _ZONES.get(full)
    if hit is None or hit[0]() is not g.rules:
        if len(_ZONES) > 1_000:  # the lists of rulesets gone
            _ZONES.clear()
        hit = _ZONES[full] = (weakref.ref(g.rules), make())
    return hit[1]


def _visible_zones(g: Game, seat: int, with_kind: bool = False) -> list[Any]:
    """The zone slots `seat` looks into (with the kind of item each holds)."""
    return _cached(g, (seat, ("visible", with_kind)), lambda: _list_visible(g, seat, with_kind))


def _list_visible(g: Game, seat: int, with_kind: bool) -> list[Any]:
    layout = g.rules.layout
    out: list[Any] = []
    for z in g.rules.program.zones:
        base, kind = layout.zone_base[z.name], layout.zone_kind[z.name]
        for owner in range(g.players) if z.per_player else (None,):
            if may_see(z.visibility, seat, owner):  # the views' own rule
                slot = base + (owner or 0)
                out.append((slot, kind) if with_kind else slot)
    return out


def _resample(
    worlds: list[tuple[Game, float, Seen]],
    size: int,
    rng: random.Random,
    seat: int,
    copies: bool = False,
) -> tuple[list[Game], list[Seen], list[float]]:
    """`size` draws by weight (systematic resampling). A world drawn again is a copy
    with the items the seat never saw dealt anew (redeal_unseen); where nothing can be
    dealt anew, the world counts twice instead (its weight), unless `copies` asks for
    a copy of it (to draw its next secret apart). What the other players hold is dealt
    anew too, although their bots chose by it (see RANDOM_SHARE): kept, a world whose
    hands are wrong for players who do not play like their bots (random players, people)
    lives on until every world is rejected, and a belief of a seat among random players
    of a tile game found no world within RETRY_WORK (tests/test_secrecy.py, --full)."""

    total = sum(w for _g, w, _k in worlds)
    step = total / size
    at = rng.random() * step
    out: list[Game] = []
    seen: list[Seen] = []
    weights: list[float] = []
    used: dict[int, int] = {}  # a world drawn: where it is in `out`
    acc = 0.0
    i = 0
    for _ in range(size):
        while i < len(worlds) - 1 and acc + worlds[i][1] <= at:
            acc += worlds[i][1]
            i += 1
        at += step
        g, _w, known = worlds[i]
        if id(g) in used:
            other = redeal_unseen(g, seat, rng, known)
            if other is None and not copies:
                weights[used[id(g)]] += 1.0
                continue
            g = g.clone() if other is None else other
        used[id(g)] = len(out)
        out.append(g)
        seen.append(known)
        weights.append(1.0)
    return out, seen, weights


# ---------------------------------------------------------------- items the seat never saw
# Items the seat never saw are exchangeable: a world may swap two of them (one where
# the seat now sees an item, or one another player chose in secret) without changing
# anything the seat saw before. These swaps stand for the other deals that the shuffle
# could have made, so that a world follows a deal to the seat or a secret choice among
# many cards without being rejected almost every time.


def _held(g: Game, kind: str, known: Seen) -> set[Value]:
    """Items of `kind` a world may not swap: those the seat saw. (Not those the rules
    hold in variables: most are stale, as a comprehension's; a world where a rule then
    misses an item it holds breaks a rule or shows the seat something else, and is
    rejected.)"""
    return {v for k, v in known if k == kind}


def _hidden_zones(g: Game, seat: int, kind: str | None = None) -> list[int]:
    """The zone slots `seat` may not look into (of one kind of item, if given)."""
    return _cached(g, (seat, ("hidden", kind)), lambda: _list_hidden(g, seat, kind))


def _list_hidden(g: Game, seat: int, kind: str | None) -> list[int]:
    layout = g.rules.layout
    out = []
    for z in g.rules.program.zones:
        if kind is not None and layout.zone_kind[z.name] != kind:
            continue
        base = layout.zone_base[z.name]
        for owner in range(g.players) if z.per_player else (None,):
            if not may_see(z.visibility, seat, owner):
                out.append(base + (owner or 0))
    return out


def _swap(st: State, a: Value, b: Value, slots: Sequence[int]) -> bool:
    """Swap the places of items a and b, each in one of `slots` (False if not found)."""
    at_a = next((s for s in slots if a in st.zones[s]), None)
    at_b = next((s for s in slots if b in st.zones[s]), None)
    if at_a is None or at_b is None:
        return False
    za = list(st.zones[at_a])
    za[za.index(a)] = b
    st.zones[at_a] = tuple(za)
    zb = list(st.zones[at_b])
    zb[zb.index(b)] = a
    st.zones[at_b] = tuple(zb)
    return True


def _shown_before(
    was: Game,
    swaps: list[tuple[str, Value, Value]],
    q: Game,
    before: Log,
    truth: Game,
    seat: int,
    known: Seen,
) -> Game | None:
    """World `q` made again from `was` (it before the event): with the items
    `_repair` swapped into `q` swapped in `was` instead, then what `q` did since
    `before` (the event, with its outcome or option) done again; None if an item is
    not where it can be swapped or the event cannot be done again. An event that moves
    unseen items into sight (a market dealt from a hidden pile) may tell them in a line
    as it does (`say "On sale: {market}"`): swapped in afterwards, they show in the
    zone but not in the line, and the world would be rejected. Both items of each swap
    are ones the seat never saw, so the world with them exchanged before is as likely
    (a shuffle since moves the one where it would have moved the other)."""
    events = _since(q.state, before)
    g = was.clone()
    for kind, a, b in swaps:  # items are numbered per kind: look among its zones
        if not _swap(g.state, a, b, _hidden_zones(g, seat, kind)):
            return None
    _refresh(g.state)
    try:
        for event in events or ():
            _force(g, event)
    except (UsageError, GameRuntimeError):
        return None
    _repair(g, truth, seat, known)
    return g


def _repair(
    q: Game,
    truth: Game,
    seat: int,
    known: Seen,
    swaps: list[tuple[str, Value, Value]] | None = None,
) -> bool:
    """Make the zones the seat sees in world `q` hold the very items they hold in the
    truth, by swapping in items from the zones it does not see, where every item
    swapped is one the seat never saw (each pair noted in `swaps`, with its kind, if
    given). False if
    that cannot be done."""
    st, real = q.state, truth.state
    swapped = False
    for slot, kind in _visible_zones(q, seat, with_kind=True):
        if st.zones[slot] == real.zones[slot]:
            continue
        held = _held(q, kind, known)
        hidden = _hidden_zones(q, seat, kind)
        if len(st.zones[slot]) != len(real.zones[slot]):
            return False
        for i, b in enumerate(real.zones[slot]):
            a = st.zones[slot][i]
            if a == b:
                continue
            here = list(st.zones[slot])
            if b in here:  # here already, elsewhere in the zone: the order differs
                here[here.index(b)], here[i] = a, b
            elif a in held:  # the seat saw this one here before: it looks the same
                continue
            else:
                at = next((s for s in hidden if b in st.zones[s]), None)
                if at is None or b in held:  # another one that looks the same may do
                    b, at = _look_alike(q, truth, slot, b, hidden, held)
                    if at is None:
                        continue
                z = list(st.zones[at])
                z[z.index(b)] = a
                st.zones[at] = tuple(z)
                here[i] = b
                if swaps is not None:
                    swaps.append((kind, a, b))
            st.zones[slot] = tuple(here)
            swapped = True
    swapped = _repair_offered(q, truth, seat, known, swaps) or swapped
    if not swapped:
        return False
    _refresh(st)
    return True


def _repair_offered(
    q: Game, truth: Game, seat: int, known: Seen, swaps: list[tuple[str, Value, Value]] | None
) -> bool:
    """Likewise for the items the truth offers the seat at its pending choice (it sees
    them, as `choose c in pot` shows a hidden pot's coins): swapped in for the world's
    offers that the truth does not make, from the zones the seat does not see."""
    st, real = q.state, truth.state
    spec = real.pending
    if (
        not isinstance(spec, ChoiceSpec)
        or spec.kind is None
        or real.who != seat
        or st.pending is not spec
        or st.options == real.options
    ):
        return False
    held = _held(q, spec.kind, known)
    hidden = _hidden_zones(q, seat, spec.kind)
    wanted = [b for b in real.options if b is not None and b not in st.options]
    spare = [a for a in st.options if a is not None and a not in real.options and a not in held]
    swapped = False
    for a, b in zip(spare, wanted, strict=False):
        if b not in held and _swap(st, a, b, hidden):
            swapped = True
            if swaps is not None:
                swaps.append((spec.kind, a, b))
    if swapped:
        _refresh(st)
    if st.options != real.options and set(st.options) == set(real.options):
        _reorder(st, real.options, hidden)  # offered in the order the truth offers them
        _refresh(st)
        swapped = True
    return swapped


def _reorder(st: State, order: Sequence[Value], slots: list[int]) -> None:
    """Put the items of `order` in that order within the zones (of `slots`) that hold
    them, each in the places those items hold there."""
    rank = {v: i for i, v in enumerate(order)}
    for s in slots:
        zone = list(st.zones[s])
        places = [i for i, x in enumerate(zone) if x in rank]
        items = sorted((zone[i] for i in places), key=rank.__getitem__)
        for i, x in zip(places, items, strict=True):
            zone[i] = x
        st.zones[s] = tuple(zone)


def _look_alike(
    q: Game, truth: Game, slot: int, b: Value, hidden: list[int], held: set[Value]
) -> tuple[Value, int | None]:
    """An item in the hidden zones of world `q` that looks as item `b` does in zone
    `slot` of the truth, and where it is (None if there is none)."""
    convert = next(
        c for _n, base, per, _v, c in q.rules.view_plan.zones if _holds(q, base, per, slot)
    )
    look = convert(truth.state, b)
    for s in hidden:
        for item in q.state.zones[s]:
            if item not in held and convert(q.state, item) == look:
                return item, s
    return b, None


def _holds(g: Game, base: int, per_player: bool, slot: int) -> bool:
    return base <= slot < base + (g.players if per_player else 1)


def _refresh(st: State) -> None:
    """After items were swapped: the pending decision's options again."""
    st.dirty = True
    spec = st.pending
    if isinstance(spec, ChoiceSpec) and not st.over:
        st.options = spec.options(st)


def _swap_in(
    p: Game, spec: ChoiceSpec, value: Value, look: str | None, seat: int, known: Seen
) -> Value:
    """An item the seat saw chosen (`value`, or one that looks the same) that lies in a
    zone the seat does not see, swapped with an option of world `p` the seat never saw
    (the hand it was played from, say); None if there is none or it is still illegal."""
    if spec.kind is None or value is None:
        return None
    st = p.state
    held = _held(p, spec.kind, known)
    slots = _hidden_zones(p, seat, spec.kind)
    spare = [v for v in st.options if v is not None and v not in held]
    if not spare:
        return None
    here = {i for s in slots for i in st.zones[s] if i not in held and i not in st.options}
    if value not in here:
        value = next((i for i in sorted(here) if spec.show(st, i) == look), None)
    if value is None or not _swap(st, value, spare[0], slots):
        return None
    _refresh(st)
    return value if value in st.options else None


def _item_choices(
    p: Game,
    spec: ChoiceSpec,
    seat: int,
    rng: random.Random,
    known: Seen,
    window: int,
    model: bool = True,
) -> list[tuple[Game, float]]:
    """Another player's secret choice of an item: one branch per kind of item it could
    be (by its name), weighted by how many such items the seat never saw; an item not
    among the options is first swapped with an option the seat never saw."""
    st = p.state
    assert spec.kind is not None
    held = _held(p, spec.kind, known)
    slots = _hidden_zones(p, seat, spec.kind)
    options = [v for v in st.options if v is not None]
    swappable = [v for v in options if v not in held]
    free = set(options)
    pool = [i for s in slots for i in st.zones[s] if i not in held and i not in free]
    classes: dict[str, list[Value]] = {}
    for v in (*options, *(pool if swappable else ())):
        classes.setdefault(spec.show(st, v), []).append(v)
    names = list(_some(sorted(classes), window, CARD_BRANCHES))
    total = sum(len(classes[n]) for n in classes)
    out: list[tuple[Game, float]] = []
    if None in st.options:  # a pass: as likely as any one item
        out += _branch(p.clone(), [None], lambda g, v: g.choose(v))
        total += 1
    for name in names:
        items = classes[name]
        weight = len(items) / total
        q = p.clone()
        v = next((i for i in items if i in free), None)
        try:
            if v is None:  # not in the hand: swap one in for an option never seen
                v = items[int(rng.random() * len(items))]
                out_item = swappable[int(rng.random() * len(swappable))]
                if not _swap(q.state, v, out_item, slots):
                    continue
                _refresh(q.state)
                if v not in q.state.options:
                    continue
            if model:  # the opponent model (see RANDOM_SHARE)
                weight *= _likelihood(q, spec, name)
            q.choose(v)
        except (GameRuntimeError, UsageError):
            continue
        out.append((q, weight))
    return out

"""Named helpers that generated code calls: runtime checks that need a source position,
moving things between places, outcomes and chance. Nothing here knows any game."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import filterfalse
from typing import TYPE_CHECKING, Any

from rulelang import errors
from rulelang.check.layout import SIDES
from rulelang.diagnostics import Span
from rulelang.runtime import hints
from rulelang.runtime.code import ChanceSpec, ChoiceSpec, Value
from rulelang.runtime.shuffling import shuffled_range
from rulelang.runtime.state import Place, left

if TYPE_CHECKING:
    from rulelang.runtime.boards import Board, GridBoard
    from rulelang.runtime.state import State
    from rulelang.runtime.tiles import TileOps

_new = tuple.__new__


# ---------------------------------------------------------------- checked reads
def index(seq: Sequence[Value], i: int, span: Span) -> Value:
    if 0 <= i < len(seq):
        return seq[i]
    raise errors.index_outside(i, len(seq), span)


def items(seq: Sequence[Value], low: int, high: int, limit: int) -> tuple[Value, ...] | None:
    """`[seq[k] for k in low..high]` when every index lies inside the list and the range
    is within the limit of items; else None (also for an empty result), and the caller
    reads item by item, with the checks."""
    if 0 <= low <= high < len(seq) and high - low < limit:
        return tuple(seq[low : high + 1])
    return None


def tile_edges(kind: str, edges: Sequence[Value] | None, span: Span) -> Sequence[Value] | None:
    """The edges a rule gives a tile, checked to have a value per side (R026)."""
    if edges is None or len(edges) != SIDES:
        raise errors.tile_sides(kind, SIDES, len(edges or ()), span)
    return edges


def item_to_set(seq: Sequence[Value], i: int, span: Span) -> Value:
    """`xs[i]` on the way to an item that `set xs[i][j] = v` changes (R023 outside)."""
    try:
        if 0 <= i < len(seq):
            return seq[i]
    except TypeError:  # none as the index
        pass
    raise errors.set_outside(i, len(seq), span)


def replaced(seq: Sequence[Value], i: int, value: Value, span: Span) -> tuple[Value, ...]:
    """A copy of the list with item i replaced: `set xs[i] = v` (R023 outside). Lists
    are tuples that are never changed in place, so no clone or other variable that
    holds the old list sees the change."""
    try:
        if 0 <= i < len(seq):
            return (*seq[:i], value, *seq[i + 1 :])
    except TypeError:  # none as the index
        pass
    raise errors.set_outside(i, len(seq), span)


_MISSING = object()


def memo_call(cache: dict[Any, Value], fn: Callable[..., Value], st: State, *args: Value) -> Value:
    """fn(st, *args), worked out once per cache: a bot's ranking, during which the state
    does not change, so a def gives the same value for the same arguments."""
    key = (fn, *args)
    value = cache.get(key, _MISSING)
    if value is _MISSING:
        value = cache[key] = fn(st, *args)
    return value


def memo_for(cache: dict[Any, Value], viewer: int) -> dict[Any, Value]:
    """The part of a bot's def-call cache for calls made inside `known` (viewer >= 0),
    whose values may differ from the same calls outside it."""
    if viewer < 0:
        return cache
    part: dict[Any, Value] = cache.setdefault(("known", viewer), {})
    return part


def lookup(table: dict[Value, Value], key: Value, span: Span) -> Value:
    try:
        return table[key]
    except KeyError:
        raise errors.no_table_entry(key, span) from None


def divide(a: int, b: int, span: Span) -> int:
    if b == 0:
        raise errors.division_by_zero(span)
    return a // b


# a product of two computed numbers is bounded: without it a number squared on every
# step of a loop fills the memory within the step budget (a number times a constant
# grows by a few bits a step, which the step budget bounds)
MOST = 2**63 - 1


def multiply(a: int, b: int, span: Span) -> int:
    product = a * b
    if -MOST - 1 <= product <= MOST:
        return product
    raise errors.number_too_large(span)


def modulo(a: int, b: int, span: Span) -> int:
    if b == 0:
        raise errors.division_by_zero(span)
    return a % b


def extreme(
    values: Iterable[Value], which: Callable[[list[Value]], Value], span: Span, name: str
) -> Value:
    items = list(values)
    if not items:
        raise errors.empty_list(name, span)
    return which(items)


def first(seq: Sequence[Value], span: Span) -> Value:
    if not seq:
        raise errors.empty_list("first", span)
    return seq[0]


def last(seq: Sequence[Value], span: Span) -> Value:
    if not seq:
        raise errors.empty_list("last", span)
    return seq[-1]


def step(board: Board, node: int, k: int, span: Span) -> int:
    target = (board.steps.get(k) or board.step_table(k))[node]
    if target < 0:
        raise errors.step_off_board(board.name, span)
    return target


def number(text: str, span: Span) -> int:
    try:
        return int(text)
    except ValueError:
        raise errors.not_a_number(text, span) from None


def upto(low: int, high: int, limit: int, span: Span) -> range:
    """`low..high`, refused past `limit` numbers (the ruleset's limit of items, written
    into the generated code)."""
    if high - low + 1 > limit:
        raise errors.range_too_long(low, high, limit, span)
    return range(low, high + 1)


def node(board: Board, n: int | None, span: Span) -> int | None:
    """A number (or `none`) made a node of `board`: it must be one of its nodes (R007),
    not wrap round to the last one as a Python index would."""
    if n is None or 0 <= n < board.size:
        return n
    raise errors.node_outside(n, board.name, board.size, span)


def side(board: Board, cell: int | None, d: int | None, span: Span) -> int:
    """The number of side d of a cell (see GridBoard._sides); R042 for no such side."""
    canon = getattr(board, "canon", None)
    if canon is None or cell is None or d is None or not 0 <= cell < board.size or not 0 <= d < 4:
        raise errors.no_such_side(board.name, cell, d, span)
    return int(canon[4 * cell + d])


def side_part(s: int | None, part: int, span: Span) -> int:
    """side_cell (part 0) or side_dir (part 1) of a side; none is R030."""
    if s is None:
        raise errors.none_used(span)
    return s >> 2 if part == 0 else s & 3


def across(board: GridBoard, s: int | None, span: Span) -> int | None:
    """The cell on the other side of side s, none on the rim; s none is R030."""
    if s is None:
        raise errors.none_used(span)
    nb = board.across[s]
    return None if nb < 0 else nb


def neighbour(board: GridBoard, cell: int, d: int, span: Span) -> int | None:
    """The next cell in direction d: 0-3 north, east, south, west; 4-7 the diagonals
    north-east, south-east, south-west, north-west (a step one way, then the next way
    clockwise: the same cells on every grid, bounded or not). None off the grid; R045
    for a number that is no direction."""
    around = board.neighbour
    if 0 <= d < 4:
        nb = around[cell][d]
    elif 4 <= d < 8:
        first = around[cell][d - 4]
        nb = -1 if first < 0 else around[first][(d - 3) % 4]
    else:
        raise errors.no_direction(d, span)
    return None if nb < 0 else nb


def line_from(
    board: GridBoard, cell: int, d: int, n: int, most: int, span: Span
) -> tuple[int, ...]:
    """The n cells from `cell` on in direction d, `cell` first; fewer where the grid
    ends. R009 past `most` cells (the ruleset's limit of items)."""
    if n > most:
        raise errors.range_too_long(1, n, most, span)
    out: list[int] = []
    at: int | None = cell
    while at is not None and len(out) < n:
        out.append(at)
        at = neighbour(board, at, d, span) if len(out) < n else None
    return tuple(out)


AXES = (1, 0, 4, 5)  # east, north, north-east, south-east: each line read one way


def lines_through(
    board: GridBoard, cell: int, n: int, most: int, span: Span
) -> tuple[tuple[int, ...], ...]:
    """Every line of n cells on the grid that holds `cell`: along a row (west to east),
    a column (south to north) and both diagonals, each line once."""
    if n < 1:
        return ()
    lines = []
    for d in AXES:
        back = line_from(board, cell, (d + 2) % 4 if d < 4 else 4 + (d - 2) % 4, n, most, span)
        for start in back:  # the line that starts k cells back, if it fits
            line = line_from(board, start, d, n, most, span)
            if len(line) == n:
                lines.append(line)
    return tuple(lines)


def next_seat(p: int | None, delta: int, n: int, span: Span, what: str) -> int:
    """The seat after (delta 1) or before (delta -1) player p; `none` is R023."""
    if p is None:
        raise errors.no_player(f"the player given to {what}", span)
    return (p + delta) % n


def next_in_order(
    st: State, p: int | None, delta: int, orders: tuple[int, ...], span: Span, what: str
) -> int:
    """next_player / prev_player in a program where some phase plays in a drawn order
    (`order random`): in such a phase, once its order is drawn, the player after (or
    before) p in that order; elsewhere the next (previous) seat."""
    if p is None:
        raise errors.no_player(f"the player given to {what}", span)
    slot = orders[st.phase]
    order = st.loc[slot] if slot >= 0 else None
    if order is None:
        return (p + delta) % st.cfg.n
    after: int = order[(order.index(p) + delta) % len(order)]  # a seat of the drawn order
    return after


def zone_slot(base: int, owner: int | None, span: Span) -> int:
    if owner is None:
        raise errors.zone_of_nobody(span)
    return base + owner


# ---------------------------------------------------------------- places
# Zones are tuples, bottom first: a clone shares them, and a change makes a new one.
class Places:
    """Where an item of one kind may be: shared zones, players' zones (each a base
    slot, then one zone per seat) and boards; and `hint`, the zone (its slot) or board
    (-1 - its index) each item was last put in or found in by the games of the
    ruleset and their clones, so that taking
    an item out of wherever it is (`detach`) looks there first. A hint is checked
    before it is trusted (a clone, an edit or a redeal may have moved the item since
    without a word): a stale one costs the search it would have saved, never a wrong
    answer, since an item is in one place at a time. Kept as a list indexed by item
    (runtime/hints.py)."""

    __slots__ = ("boards", "hint", "player_slots", "slots", "zones")

    def __init__(
        self, slots: Sequence[int], player_slots: Sequence[int], boards: Sequence[TileOps]
    ) -> None:
        self.slots = tuple(slots)
        self.player_slots = tuple(player_slots)
        self.boards = tuple(boards)
        self.hint: hints.Hints = hints.new()
        self.zones: dict[int, tuple[int, ...]] = {}  # players -> `_zones_of`


# The hints of many items are written one by one: `hint.update(dict.fromkeys(items,
# slot))` built a dict of them first, growing it as it went (CPython sizes it from a
# set or a dict, not from a tuple), and hashed every item twice: about 3.7 against 1.6
# microseconds for 70 items, a round's reset gathering every card back.
HINT_LOOP = True


def _hint(places: Places, items: Sequence[Value], slot: int) -> None:
    """Each item was put in the zone at `slot`."""
    hint = places.hint
    if HINT_LOOP or not isinstance(hint, dict):
        try:
            for item in items:
                hint[item] = slot
        except (IndexError, TypeError):  # past the list's end: grown (runtime/hints.py)
            hints.put_each(hint, items, slot)
    else:
        hint.update(dict.fromkeys(items, slot))


# A deal takes every player's share from the one pile it read, and leaves the pile's
# rest once at the end: the pile (a tuple) was copied after each player's share, some
# 40-60 cards nine times over for ten players. Off (or HINT_LOOP off), or where the
# pile is itself one of the zones dealt to: player by player (`_deal_each`), as before
DEAL_ONCE = True


# Whether a share's or a zone's items leave records (`deal`, `add_from`) is asked of
# them at once (`isdisjoint`, in C) before a loop in Python tests each item: a round's
# reset gathers and deals some 150 cards, of which none, or the one a player was shown,
# leaves one. Off: each item tested in the loop (the same records, in the same order)
SHOWN_AT_ONCE = True


def deal(st: State, count: int, src: int, dst: int, places: Places | None = None) -> None:
    """`count` items to each player, one at a time from the top of the pile."""
    n = st.cfg.n
    if not DEAL_ONCE or not HINT_LOOP or dst <= src < dst + n:
        _deal_each(st, count, src, dst, places)
        return
    zones = st.zones
    pile = zones[src]
    end = len(pile)  # the top of what is left of the pile
    for p in range(n):
        take = count if count < end else end
        if take <= 0:
            break
        stop = end - take - 1  # the share, top first: `pile[end - take : end]` reversed
        share = pile[end - 1 : stop : -1] if stop >= 0 else pile[end - 1 :: -1]
        zones[dst + p] += share
        end -= take
        shown = st.shown_items  # only an item shown before leaves a record (`left`)
        if st.shown is not None and (not SHOWN_AT_ONCE or shown and not shown.isdisjoint(share)):
            for item in pile[end : end + take]:
                if item in shown:
                    left(st, ("zone", src), item)
        if places is not None:  # `_hint` in place, each player's share
            hint, slot = places.hint, dst + p
            try:
                for item in share:
                    hint[item] = slot
            except (IndexError, TypeError):  # past the list's end (runtime/hints.py)
                hints.put_each(hint, share, slot)
    zones[src] = pile[:end]


def _deal_each(st: State, count: int, src: int, dst: int, places: Places | None) -> None:
    """`deal`, the pile sliced after each player's share."""
    zones = st.zones
    for p in range(st.cfg.n):
        pile = zones[src]
        take = min(count, len(pile))
        if take > 0:
            zones[dst + p] += pile[: -take - 1 : -1]  # the top first
            zones[src] = pile[:-take]
            if st.shown is not None:  # only an item shown before leaves a record (`left`)
                for item in pile[-take:]:
                    if item in st.shown_items:
                        left(st, ("zone", src), item)
            if places is not None and HINT_LOOP:  # `_hint` in place, each player's share
                hint, slot = places.hint, dst + p
                try:
                    for item in pile[-take:]:
                        hint[item] = slot
                except (IndexError, TypeError):  # past the list's end (runtime/hints.py)
                    hints.put_each(hint, pile[-take:], slot)
            elif places is not None:
                _hint(places, pile[-take:], dst + p)


def move(
    st: State,
    item: Value,
    src: int,
    dst: int,
    span: Span,
    name: str,
    places: Places | None = None,
) -> None:
    zones = st.zones
    zone = zones[src]
    if zone and zone[-1] == item:  # the top card (`move last(deck) ...`): no search
        zones[src] = zone[:-1]
    else:  # (an item lies in one place once: the top one is the one `index` finds)
        rest = list(zone)  # `_less`, written in place
        try:
            rest.remove(item)
        except ValueError:
            raise errors.not_in_zone(name, span) from None
        zones[src] = tuple(rest)
    zones[dst] += (item,)
    if st.shown is not None and item in st.shown_items:
        left(st, ("zone", src), item)
    if places is not None:
        try:
            places.hint[item] = dst
        except (IndexError, TypeError):  # past the list's end (runtime/hints.py)
            hints.put(places.hint, item, dst)


def move_top(st: State, src: int, dst: int, span: Span, places: Places | None = None) -> None:
    """`move last(z) from z to ...`: `move` of the top item, which `last` would give
    (and raise for an empty zone as `last` does)."""
    zones = st.zones
    zone = zones[src]
    if not zone:
        raise errors.empty_list("last", span)
    item = zone[-1]
    zones[src] = zone[:-1]
    zones[dst] += (item,)
    if st.shown is not None and item in st.shown_items:
        left(st, ("zone", src), item)
    if places is not None:
        try:
            places.hint[item] = dst
        except (IndexError, TypeError):  # past the list's end (runtime/hints.py)
            hints.put(places.hint, item, dst)


def reveal_to(st: State, items: Iterable[Value], audience: Iterable[int], places: Places) -> None:
    """`reveal ITEM to PLAYERS`: they learn where each item lies now (an item in no
    zone and on no board teaches nothing). Face-down tiles stay face down: only these
    players' views show them, and a search for one of them keeps them in place."""
    seen = tuple(sorted(set(audience)))
    if not seen:
        return
    for item in items:
        place = (HINTED and _hinted(st, item, places)) or _search(st, item, places)
        if place is not None:
            st.shown = (seen, place, item, st.shown)
            st.shown_items = st.shown_items | {item}


# Where an item lies is asked of its hint first (`_hinted`), as `detach` does: an item
# on a board was found by searching every zone of its kind first, each a full scan of a
# tuple (some 13 zones for a card revealed on a board, at every `reveal`).
HINTED = True


def _hinted(st: State, item: Value, places: Places) -> Place | None:
    """The place `places.hint` names for the item, if it is there (else None): the
    place `_search` finds, since an item lies in one place at a time."""
    try:  # `hints.of`, read in place: NONE (no hint) is neither a zone nor a board
        slot = places.hint[item]
    except (LookupError, TypeError):
        return None
    if 0 <= slot < len(st.zones):
        return ("zone", slot) if item in st.zones[slot] else None
    if slot < 0 and -slot <= len(places.boards):
        ops = places.boards[-1 - slot]
        cell = ops.cell_of(st, item)
        return ("tile", ops.layer, cell) if cell >= 0 else None
    return None


def _search(st: State, item: Value, places: Places) -> Place | None:
    """The first place of the item's kind (its zones in order, then its boards) that
    holds it, or None."""
    zones = st.zones
    for slot in _zones_of(places, st.cfg.n):
        if item in zones[slot]:
            return ("zone", slot)
    for ops in places.boards:
        cell = ops.cell_of(st, item)
        if cell >= 0:
            return ("tile", ops.layer, cell)
    return None


def detach(st: State, item: Value, places: Places) -> None:
    """Take an item out of wherever it is (any zone or board cell of its kind): the
    zone its hint names if it is there, else the first place found (`add`, `place`
    and `move` keep every piece and card in one place). The hinted place is read in
    place (`_take`, `cell_of` written out: a tile laid and a card gathered each
    detach one item)."""
    zones = st.zones
    try:  # `hints.of`, read in place: NONE (no hint) is neither a zone nor a board
        slot = places.hint[item]
    except (LookupError, TypeError):
        slot = hints.NONE
    if 0 <= slot < len(zones):
        rest = list(zones[slot])  # `_less`, written in place: one scan, no call
        try:
            rest.remove(item)
        except ValueError:
            pass  # a stale hint: searched below
        else:
            zones[slot] = tuple(rest)
            if st.shown is not None and item in st.shown_items:
                left(st, ("zone", slot), item)
            return
    elif slot < 0 and -slot <= len(places.boards):
        ops = places.boards[-1 - slot]
        where = st.layers[ops.layer + 1].get(item, -1)  # `ops.cell_of`
        if where >= 0:
            ops.clear(st, where)
            return
    for slot in _zones_of(places, st.cfg.n):
        if item in zones[slot]:
            _take(st, slot, item)
            hints.put(places.hint, item, slot)
            return
    for ops in places.boards:
        where = ops.cell_of(st, item)
        if where >= 0:
            ops.clear(st, where)
            return


def _zones_of(places: Places, n: int) -> tuple[int, ...]:
    """The slots of the zones an item of the kind may be in, in the order searched;
    kept per player count."""
    found = places.zones.get(n)
    if found is None:
        found = places.zones[n] = (
            *places.slots,
            *(s for base in places.player_slots for s in range(base, base + n)),
        )
    return found


def _less(zone: tuple[Value, ...], item: Value) -> tuple[Value, ...]:
    """The zone without the item (which it holds; ValueError if not), the others in
    order: through a list, whose `remove` scans and shifts in one call, then one
    tuple made. Two slices and their concatenation made three tuples and two slice
    objects: 35,000 machine instructions more in a five-player match of the tile
    game benchmarked (callgrind), most zones being hands of a few items."""
    rest = list(zone)
    rest.remove(item)
    return tuple(rest)


def _take(st: State, slot: int, item: Value) -> None:
    zone = st.zones[slot]
    st.zones[slot] = _less(zone, item)
    if st.shown is not None and item in st.shown_items:
        left(st, ("zone", slot), item)


def add(st: State, items: Iterable[Value], dst: int, places: Places) -> None:
    """Put items on top of a zone, each taken from wherever it was: as if one by one (an
    item named twice ends where its last mention puts it), but every zone is passed
    over once, not once per item, and the zone grows once: one by one, adding a whole
    kind of 500,000 cards (a data file may make a million) was quadratic."""
    if type(items) is tuple and len(items) == 1:  # `add x to z`: nothing to deduplicate
        moving: Sequence[Value] = items
    else:
        moving = list(dict.fromkeys(reversed(tuple(items))))[::-1]
    if len(moving) == 1:
        detach(st, moving[0], places)
        try:
            places.hint[moving[0]] = dst
        except (IndexError, TypeError):  # past the list's end (runtime/hints.py)
            hints.put(places.hint, moving[0], dst)
    elif moving:
        _detach_all(st, moving, places)
        _hint(places, moving, dst)
    st.zones[dst] += tuple(moving)


def add_from(st: State, items: tuple[Value, ...], src: int, dst: int, places: Places) -> None:
    """`add [x for x in z where ...] to d`: `add` of items just listed from the one zone
    `z` (at slot src), where each lies once: no duplicates to drop, and no other zone
    or board to take them from."""
    if not items:
        return
    zones = st.zones
    zone = zones[src]
    gone = None
    if len(items) == len(zone):  # the whole zone
        zones[src] = ()
    else:
        gone = set(items)
        zones[src] = _without(zone, gone)
    shown = st.shown_items  # only an item shown before leaves a record (`left`)
    if st.shown is not None and (not SHOWN_AT_ONCE or shown and not shown.isdisjoint(items)):
        for x in zone:
            if (gone is None or x in gone) and x in shown:
                left(st, ("zone", src), x)
    if HINT_LOOP:  # `_hint` written in place: a call less for each `add` of a list
        hint = places.hint
        try:
            for item in items:
                hint[item] = dst
        except (IndexError, TypeError):  # past the list's end (runtime/hints.py)
            hints.put_each(hint, items, dst)
    else:
        _hint(places, items, dst)
    zones[dst] += items


def _without(zone: tuple[Value, ...], gone: set[Value]) -> tuple[Value, ...]:
    """The zone's items not in `gone`, in order: filtered in C (a comprehension here
    made a function object and read `gone` as a cell, at each call)."""
    return tuple(filterfalse(gone.__contains__, zone))


# The tiles among many items taken off their board in one call (TileOps.take), not
# two calls (`cell_of`, `clear`) per tile. Off: tile by tile (the same cells cleared,
# records made, in the same order)
TAKE_AT_ONCE = True


def _detach_all(st: State, items: Sequence[Value], places: Places) -> None:
    """`detach` of many items at once."""
    gone = set(items)
    zones = st.zones
    for slot in _zones_of(places, st.cfg.n):
        zone = zones[slot]
        if gone.isdisjoint(zone):
            continue
        zones[slot] = () if gone.issuperset(zone) else _without(zone, gone)
        if st.shown is not None:  # only an item shown before leaves a record (`left`)
            for x in zone:
                if x in gone and x in st.shown_items:
                    left(st, ("zone", slot), x)
    for ops in places.boards:
        if gone.isdisjoint(st.layers[ops.layer + 1]):  # tile -> cell: none of them is there
            continue
        if TAKE_AT_ONCE:
            ops.take(st, items)
            continue
        for item in items:
            where = ops.cell_of(st, item)
            if where >= 0:
                ops.clear(st, where)


def place(
    st: State,
    ops: TileOps,
    where: int | None,
    item: Value,
    turn: int,
    secret: bool,
    places: Places,
    span: Span,
) -> None:
    if where is None:
        raise errors.no_such_cell(span)
    if where in st.layers[ops.layer]:
        raise errors.cell_taken(span)
    detach(st, item, places)
    ops.place(st, where, item, turn, secret)
    if ops in places.boards:
        slot = -1 - places.boards.index(ops)
        try:
            places.hint[item] = slot
        except (IndexError, TypeError):  # past the list's end (runtime/hints.py)
            hints.put(places.hint, item, slot)


# ---------------------------------------------------------------- the end
def outcome(st: State, kind: str, players: Sequence[int]) -> None:
    result = st.outcome
    assert result is not None
    if kind == "rank":
        for i, p in enumerate(players):
            result[p] = "win" if i == 0 else "loss"
        st.log = ("ranked", tuple(players), None, st.log)
        return
    for p in players:
        result[p] = kind


# ---------------------------------------------------------------- chance
def sample(
    st: State, spec: ChanceSpec, source: Sequence[Value] | None = None
) -> int | tuple[int, ...]:
    """Draw a chance outcome from the game's one seeded generator (`source`: the
    event's candidates, if the caller has them already)."""
    if source is None:
        source = spec.source(st)
    if spec.kind in ("roll", "pick", "generate"):  # generate: a seed (runtime/generate.py)
        if not source:
            raise errors.nothing_to_draw(spec.kind, spec.span)
        return int(st.draw().random() * len(source))
    return shuffled_range(st.draw(), len(source))


def chance(st: State, spec: ChanceSpec) -> None:
    """`settle(st, spec, sample(st, spec))` with the candidates worked out once (a
    shuffle's may be a comprehension over a whole zone): the generated code's chance
    event where nobody supplies the outcome."""
    source = spec.source(st)
    settle(st, spec, sample(st, spec, source), source)


def settle(
    st: State,
    spec: ChanceSpec,
    outcome: int | tuple[int, ...],
    source: Sequence[Value] | None = None,
) -> None:
    """Apply a chance outcome (see `Drew`) and log it."""
    if source is None:
        source = spec.source(st)
    value: Value
    if isinstance(outcome, int):
        value = st.loc[spec.slot] = source[outcome]
    elif spec.kind == "shuffle":
        value = st.loc[spec.slot] = tuple(map(source.__getitem__, outcome))
    else:
        value = st.zones[spec.zone] = tuple(map(source.__getitem__, outcome))
        if st.shown is not None:  # what was shown of the zone's order is void
            left(st, ("zone", spec.zone), None)
    st.log = (
        (spec, outcome, value, st.log)
        if st.budget and spec.audience is None
        else chance_record(st, spec, outcome, value)
    )


def chance_record(st: State, spec: ChanceSpec, outcome: object, value: Value) -> tuple[Any, ...]:
    """The log record of a chance event outside a playout, with its line: the rule
    file's `log` text, or a sentence (who rolls is the current player). A secret roll
    or pick also records its audience, in a playout too (without the line)."""
    if spec.audience is None:
        return _chance_line(st, spec, outcome, value)
    seen = spec.audience(st)
    if st.budget:
        return (spec, outcome, value, st.log, None, None, seen)
    if spec.narrate is None:  # the sentence, for its audience only
        text = _chance_line(st, spec, outcome, value)[4]
        return (spec, outcome, value, st.log, text, None, seen)
    hidden = spec.narrate_hidden(st) if spec.narrate_hidden is not None else None
    return (spec, outcome, value, st.log, spec.narrate(st), hidden, seen)


def _chance_line(st: State, spec: ChanceSpec, outcome: object, value: Value) -> tuple[Any, ...]:
    if spec.narrate is not None:
        hidden = spec.narrate_hidden(st) if spec.narrate_hidden is not None else None
        return (spec, outcome, value, st.log, spec.narrate(st), hidden)
    name = st.cfg.player_names[st.current]
    if spec.kind == "roll":
        text = f"{name} rolls {spec.show(st, value)}"
    elif spec.kind == "pick":  # seen by the referee only
        text = f"picked at random: {spec.show(st, value)}"
        return (spec, outcome, value, st.log, text, "something is picked at random")
    elif st.turn == 0:  # the setup: nobody's turn, so nobody shuffles
        text = f"{spec.name} is shuffled" if spec.kind == "shuffle_zone" else "an order is drawn"
    else:
        text = f"{name} shuffles {spec.name}" if spec.kind == "shuffle_zone" else f"{name} shuffles"
    return (spec, outcome, value, st.log, text, None)


def choice_record(st: State, spec: ChoiceSpec, who: int, value: Value) -> tuple[Any, ...]:
    """The log record of a player's decision (outside a playout; the choice is in its
    slot): with the rule file's `log` lines when it has them."""
    if spec.audience is not None and value is not None:  # `secret to`, in a playout too
        seen = spec.audience(st)
        if spec.narrate is None or st.budget:
            return (spec, who, value, st.log, None, None, seen)
        hidden = spec.narrate_hidden(st) if spec.narrate_hidden is not None else None
        return (spec, who, value, st.log, spec.narrate(st), hidden, seen)
    if spec.narrate is None or value is None:
        return (spec, who, value, st.log)
    hidden = spec.narrate_hidden(st) if spec.narrate_hidden is not None else None
    return (spec, who, value, st.log, spec.narrate(st), hidden)


def face_up(entry: tuple[Value, int, bool]) -> Value:
    """The tile of a cell's (tile, turn, face down) entry if it lies face up, else none."""
    return None if entry[2] else entry[0]

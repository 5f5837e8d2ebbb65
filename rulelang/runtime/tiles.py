"""Tiles on grid boards: placing, matching edges, and the network joined to a start.

A tile is a piece or card with `edges: list(bool)` (open sides N, E, S, W) and
optionally `joined: bool` (false: its open sides are stubs that do not meet in the
middle, so a path cannot pass through it). A tile lies turned by 0-3 quarter turns
clockwise, face up or face down ("secret": nobody sees it, and any side matches it).

The state keeps, per tiled board, two dicts: cell -> (tile, quarter turns, face down)
for the cells that hold a tile, and tile -> its cell. They are small (only what is
placed) and copy quickly when a game is cloned.
What is joined to a start cell is computed once per layout and kept in `state.reach`;
a tile laid on an empty cell grows it from that cell, and only a tile that goes or
turns over drops it, so that legal moves for a whole hand are found without repeating
the search per candidate, nor per tile laid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.check.layout import TileLayer
from rulelang.runtime.boards import GridBoard
from rulelang.runtime.state import left

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rulelang.runtime.code import Value
    from rulelang.runtime.state import State

OPPOSITE = (2, 3, 0, 1)
# a spot's demands (must be open * 256 + must be closed * 16 + meet the network) -> the
# open-side masks that fit it, one bit each (TileOps.fit_mask), None until first met: a
# list, not a dict keyed by the number (keys of 256 and more are not Python's shared
# small ints, so each lookup hashed the key and compared it with the one kept), and the
# key made with `*` and `+`, which CPython 3.11 runs as integer fast paths (`<<` and
# `|` it does not)
FITS: list[int | None] = [None] * 4096
Network = tuple[frozenset[int], tuple[int, ...], tuple[int, ...]]
# The open sides of each open-side mask (0-15), in order N, E, S, W: the search over a
# joined tile's sides (`_spread`, `_meets`) visits its open sides alone, read from this
# table, not all four with a test of the mask's bit for each (about 10 bytecodes a
# closed side, with a tuple made by `enumerate`). Off: each mask's bits tested at every
# read (`_Tested`: the same sides, to measure the table alone)
OPEN_SIDES = True
SIDES_OF = tuple(tuple(d for d in range(4) if mask >> d & 1) for mask in range(16))
# What is kept of a start is `state.reach[start]` on the first tiled board (`base + start`
# on the others, `base` the board's number times KEY_SPAN, more than any cell's number):
# the start's own number, the one object the grid hands out for it, so that a read finds
# it by identity and makes no number nor tuple to hash (a key `-1 - start`, made anew at
# each read, was hashed digit by digit and compared with the one kept)
KEY_SPAN = 1 << 63
NO_NETWORK: Network = (frozenset(), (), ())


class Kept:
    """What is worked out once per layout for one start: its network, its spots'
    demands (`_demands`, None until asked) and the answers of `fitting` by the tile's
    turned masks (`ways`). One object, so one read of `state.reach` finds all three; it
    is filled as questions come but only ever for its own layout (a tile laid or taken
    makes new ones), so clones that share it share valid answers."""

    __slots__ = ("answers", "demands", "net")

    def __init__(self, net: Network, demands: dict[int, int] | None = None) -> None:
        self.net = net
        self.demands = demands
        self.answers: dict[int, tuple[int, ...]] = {}


# A `Kept` is made without calling its `__init__` (`_NEW(Kept)` and its three slots
# written in place): called from C, a Python `__init__` enters the interpreter anew
# (some 230 machine instructions more, counted), at each of the 45-odd layouts a tile
# game's match keeps. Off: `Kept(net, demands)`, to measure this alone (same objects)
FRAMELESS = True
_NEW = object.__new__


class TileOps:
    """The tile functions of one tiled board, bound to its layers in the state."""

    def __init__(self, layer: TileLayer, number: int = 0):
        self.board = layer.board
        self.base = number * KEY_SPAN  # where this board's keys of `state.reach` start
        self.placed_key = -1 - number  # `placed`'s key in `state.reach`: below every start's
        self.kind = layer.kind
        self.layer = layer.first  # state.layers[layer]: cells; [layer + 1]: where
        self.edges_col = layer.edges_col
        self.joined_col = layer.joined_col
        self._masks: dict[Value, tuple[int, int, int, int]] = {}  # edges -> open sides
        # each tile's masks by tile (`masks_of`), for the edges column `_col`: a list
        # read by index instead of a dict keyed by the edges, which hashed a tuple of
        # four values at each read. Only for a column no rule changes (`fixed_edges`,
        # set by the Ruleset): such a column is one object shared by every clone, and
        # an edit copies it before writing
        self.fixed_edges = False
        self._col: object = None
        self._by_tile: list[tuple[int, int, int, int]] = []
        self._ways: dict[tuple[int, ...], list[int]] = {}  # turns -> `_ways` by tile
        # (the turns `fitting` was last asked with, their `_ways` by tile) (SAME_TURNS):
        # a rule's turns are a constant of its code, the same tuple at every call, found
        # by identity without hashing it (a tuple's hash is worked out at each lookup).
        # One attribute, written at once: threads that share the ruleset (a search bot
        # thinking in a worker thread) never read one part of one pair with another's
        self._turned: tuple[tuple[int, ...] | None, list[int]] = (None, [])

    # ---------------------------------------------------------------- reading
    def grid(self, st: State) -> GridBoard:
        b = st.cfg.boards[self.board]
        assert isinstance(b, GridBoard)
        return b

    def tile_open(self, st: State, tile: int, turn: int, d: int) -> bool:
        return bool(st.cols[self.edges_col][tile][(d - turn) % 4])

    def sides(self, st: State, tile: int, turn: int) -> list[bool]:
        """The open sides N, E, S, W of a tile lying turned by `turn`."""
        edges = st.cols[self.edges_col][tile]
        return [bool(edges[(d - turn) % 4]) for d in range(4)]

    def joined(self, st: State, tile: int) -> bool:
        return self.joined_col is None or bool(st.cols[self.joined_col][tile])

    def open_side(self, st: State, node: int, d: int) -> bool:
        cell = st.layers[self.layer].get(node)
        if cell is None or cell[2]:
            return False
        return bool(st.cols[self.edges_col][cell[0]][(d - cell[1]) % 4])

    def fits(self, st: State, node: int | None, tile: int, turn: int) -> bool:
        """The cell is empty and every side meets a matching side (or an empty cell, the
        edge of the board, or a face-down tile, which matches anything)."""
        cells = st.layers[self.layer]
        if node is None or node in cells:
            return False
        edges = st.cols[self.edges_col]
        mine = edges[tile]
        for d, nb in enumerate(self.grid(st).neighbour[node]):
            other = cells.get(nb) if nb >= 0 else None
            if other is None or other[2]:
                continue
            if bool(mine[(d - turn) % 4]) != bool(edges[other[0]][(d + 2 - other[1]) % 4]):
                return False
        return True

    def network(self, st: State, start: int) -> Network:
        """(cells joined to start, face-down cells it touches, empty cells it touches)."""
        if start is None:  # no cell (`none`): nothing is joined to it
            return NO_NETWORK
        kept: Kept | None = st.reach.get(start + self.base if self.base else start)
        if kept is not None:
            return kept.net
        return self._kept(st, start).net

    def _kept(self, st: State, start: int) -> Kept:
        """What is kept of a start that is not none, searched anew if not kept."""
        key = start + self.base if self.base else start
        found: Kept | None = st.reach.get(key)
        if found is not None:
            return found
        joined: set[int] = set()
        touching: set[int] = set()
        spots: set[int] = set()
        first = st.layers[self.layer].get(start)
        if first is not None and not first[2]:
            joined.add(start)
            self._spread(st, [(start, first)], joined, touching, spots)
        net = (frozenset(joined), tuple(sorted(touching)), tuple(sorted(spots)))
        if FRAMELESS:  # `Kept(net)` without its `__init__`'s frame
            found = _NEW(Kept)
            found.net, found.demands, found.answers = net, None, {}
        else:
            found = Kept(net)
        st.reach[key] = found
        return found

    def _spread(
        self,
        st: State,
        todo: list[tuple[int, tuple[int, int, bool]]],
        joined: set[int],
        touching: set[int],
        spots: set[int],
    ) -> None:
        """Search on from the joined cells in `todo`, adding to the three sets."""
        cells = st.layers[self.layer]
        neighbour = st.cfg.boards[self.board].neighbour  # type: ignore[attr-defined]
        col = st.cols[self.edges_col]
        masks = self._by_tile if col is self._col else self.masks_of(col)
        joined_col = st.cols[self.joined_col] if self.joined_col is not None else None
        sides_of = SIDES_OF if OPEN_SIDES else _TESTED
        while todo:
            node, (tile, turn, _secret) = todo.pop()
            open_ = masks[tile][turn]
            around = neighbour[node]
            for d in sides_of[open_]:  # its open sides only (N, E, S, W in order)
                nb = around[d]
                if nb < 0 or nb in joined:
                    continue
                other = cells.get(nb)
                if other is None:
                    spots.add(nb)
                elif other[2]:
                    touching.add(nb)
                elif masks[other[0]][other[1]] >> OPPOSITE[d] & 1 and (
                    joined_col is None or joined_col[other[0]]
                ):
                    joined.add(nb)
                    todo.append((nb, other))

    def _grown(self, st: State, old: Kept, node: int) -> Kept:
        """What is kept after a tile was laid on the empty cell `node`: the network grown
        (`_grown_net`), and the demands, if they were worked out, of the spots whose
        neighbours changed worked out again, the others' kept (`_grown_demands`)."""
        net = self._grown_net(st, old.net, node)
        demands = old.demands
        if demands is None:  # nothing but the network kept
            if net is old.net:
                return old
        elif net is old.net:  # not on a spot: its neighbours' demands alone may change
            around = st.cfg.boards[self.board].neighbour[node]  # type: ignore[attr-defined]
            if demands.keys().isdisjoint(around):
                return old  # no spot next to the tile: nothing kept changed
        if demands is not None:
            demands = self._grown_demands(st, old, net, node) if GROW_DEMANDS else None
        if not FRAMELESS:
            return Kept(net, demands)
        found = _NEW(Kept)  # `Kept(net, demands)` without its `__init__`'s frame
        found.net, found.demands, found.answers = net, demands, {}
        return found

    def _grown_demands(self, st: State, old: Kept, net: Network, node: int) -> dict[int, int]:
        """The demands of the spots of `net`, the layout's after a tile on `node`, from
        those kept before: a spot's demands change only with the cells next to it, so
        only the spots next to the tile or to a cell it joined (and the new spots) are
        worked out again; the others' are copied (in C) with the dict."""
        before = old.demands
        assert before is not None
        found = before.copy()
        found.pop(node, None)  # a spot no more
        neighbour = st.cfg.boards[self.board].neighbour  # type: ignore[attr-defined]
        todo = []  # a loop, not a comprehension (in 3.11 a function made and called)
        for s in neighbour[node]:
            if s in found:
                todo.append(s)
        spots = net[2]
        joined, was = net[0], old.net[0]
        if joined is not was:  # the tile joined: its new spots, and if cells joined
            # through it, the spots next to them (they meet the network now)
            more = joined - was - {node} if len(joined) > len(was) + 1 else None
            for s in spots:
                if s not in found or (more and not more.isdisjoint(neighbour[s])):
                    todo.append(s)
        if todo:
            self._work_out(st, net[0], todo, found)
        return found

    def _grown_net(self, st: State, old: Network, node: int) -> Network:
        """The network after a tile was laid on the empty cell `node`, from the one
        before: a cell it did not touch changes nothing; on a spot, the tile joins (and
        the search goes on from it), is touched face down, or just fills the spot. What
        was joined, touched or a spot stays so: nothing was taken away, so the parts
        that do not change are the old ones, shared (they are never changed in place:
        clones hold them too), and only a tile that joins copies the joined cells."""
        net, touching, spots = old
        if node not in spots:
            return old
        cell = st.layers[self.layer][node]
        i = spots.index(node)
        still = spots[:i] + spots[i + 1 :]  # still in order
        if cell[2]:
            return (net, tuple(sorted((*touching, node))), still)
        if not self._meets(st, node, cell, net):
            return (net, touching, still)
        joined, touched, more = set(net), set(touching), set(still)
        joined.add(node)
        self._spread(st, [(node, cell)], joined, touched, more)
        if len(touched) > len(touching):
            touching = tuple(sorted(touched))
        if len(more) > len(still):
            still = tuple(sorted(more))
        return (frozenset(joined), touching, still)

    def _meets(
        self, st: State, node: int, cell: tuple[int, int, bool], net: frozenset[int]
    ) -> bool:
        """A face-up tile on `node` is joined to the network: a joined tile with an open
        side against an open side of a joined cell."""
        tile, turn, _secret = cell
        if self.joined_col is not None and not st.cols[self.joined_col][tile]:
            return False
        col = st.cols[self.edges_col]
        masks = self._by_tile if col is self._col else self.masks_of(col)
        mine = masks[tile][turn]
        cells = st.layers[self.layer]
        around = st.cfg.boards[self.board].neighbour[node]  # type: ignore[attr-defined]
        for d in (SIDES_OF if OPEN_SIDES else _TESTED)[mine]:
            if around[d] in net:
                tile, turn, _secret = cells[around[d]]
                if masks[tile][turn] >> OPPOSITE[d] & 1:
                    return True
        return False

    def joins(self, st: State, node: int, tile: int, turn: int, start: int) -> bool:
        """`fits`, and an open side of the tile meets an open side of the network.

        Each spot's demands are worked out once per layout (`_demands`), as the set of
        open-side masks that fit there, so that the question for a card, a spot and a
        turn, which rules ask over and over, tests one bit."""
        if start is None:  # no network, no spot
            return False
        kept: Kept | None = st.reach.get(start + self.base if self.base else start)
        demands = None if kept is None else kept.demands  # `_demands`, called only when
        if demands is None:  # not kept: a call less for the question asked most
            demands = self._demands(st, start)
        fit = demands.get(node, 0)  # 0: not an empty cell next to the network
        col = st.cols[self.edges_col]
        masks = self._by_tile if col is self._col else self.masks_of(col)
        return fit >> masks[tile][turn % 4] & 1 == 1  # a bool, with no call of `bool`

    def fitting(self, st: State, start: int, tile: int, turns: tuple[int, ...]) -> tuple[int, ...]:
        """The spots of the network joined to start, in their order, where the tile
        `joins` turned by one of `turns`: what rules ask with `joins` over the spots
        (runtime/fitting.py), kept per layout and per the tile's turned masks (`ways`:
        tiles alike share the answer)."""
        if start is None:
            return ()
        kept: Kept | None = st.reach.get(start + self.base if self.base else start)
        if kept is None:
            kept = self._kept(st, start)
        spots = kept.net[2]
        if not spots:
            return ()  # no tile read: the plain code calls no `joins` either
        col = st.cols[self.edges_col]
        if col is self._col:
            turned = self._turned
            if turned[0] is turns:  # the last call's turns (SAME_TURNS)
                ways = turned[1][tile]
            else:
                by_tile = self._ways.get(turns) or self._ways_by_tile(turns)
                if SAME_TURNS:
                    self._turned = (turns, by_tile)
                ways = by_tile[tile]
        else:
            ways = _ways(self.masks_of(col)[tile], turns)
        found = kept.answers.get(ways)
        if found is None:
            demands = kept.demands
            if demands is None:
                demands = self._demands(st, start)
            hits = []  # the spots whose masks that fit hold one of `ways`: a loop, not a
            # comprehension (in CPython 3.11 a function made and called each time)
            for s in spots:
                if demands[s] & ways:
                    hits.append(s)
            found = kept.answers[ways] = tuple(hits)
        return found

    def _ways_by_tile(self, turns: tuple[int, ...]) -> list[int]:
        """`_ways` of every tile for these turns, kept while the edges column is `_col`."""
        found = self._ways[turns] = [_ways(masks, turns) for masks in self._by_tile]
        return found

    @staticmethod
    def fit_mask(must: int, closed: int, meets: int) -> int:
        """The open-side masks w (bit w, w in 0..15) of a tile that fits a spot whose
        sides `must` be open, must be `closed`, and of which `meets` meet the network:
        w holds must, none of closed and one of meets. Kept per the three masks."""
        key = must * 256 + closed * 16 + meets
        fit = FITS[key]
        if fit is None:
            ok = (w for w in range(16) if w & must == must and not w & closed and w & meets)
            fit = FITS[key] = sum(1 << w for w in ok)
        return fit

    def masks_of(self, col: list[Value]) -> list[tuple[int, int, int, int]] | _Sides:
        """The open sides of each tile (`_sides`) by tile, for the edges column `col`;
        kept as `_by_tile` if no rule changes the column."""
        if col is self._col:
            return self._by_tile
        if not self.fixed_edges:  # read at each call: the column may change in place
            return _Sides(self, col)
        self._col, self._by_tile = col, [self._sides(e) for e in col]
        self._ways, self._turned = {}, (None, [])
        return self._by_tile

    def _sides(self, edges: Value) -> tuple[int, int, int, int]:
        """The open sides of a tile with these edges, as a mask per quarter turn."""
        masks = self._masks.get(edges)
        if masks is None:
            open_ = [bool(edges[d]) for d in range(4)]
            turned = (sum(1 << d for d in range(4) if open_[(d - t) % 4]) for t in range(4))
            masks = self._masks[edges] = tuple(turned)  # type: ignore[assignment]
        return masks  # type: ignore[return-value]

    def _demands(self, st: State, start: int) -> dict[int, int]:
        """spot -> the open-side masks that fit it (`fit_mask` of the sides that must be
        open, that must be closed, that meet the network) for every empty cell next to
        the network, kept per layout."""
        if start is None:
            return {}
        kept = self._kept(st, start)
        if kept.demands is None:
            net = kept.net
            kept.demands = self._work_out(st, net[0], net[2], {})
        return kept.demands

    def _work_out(
        self, st: State, net: frozenset[int], spots: Sequence[int], found: dict[int, int]
    ) -> dict[int, int]:
        """`_demands` of these spots, written into `found`. An empty neighbour, a
        face-down tile or the edge of the board (-1, never a key of the cells) demands
        nothing. The four sides are written out, not looped over: asked at nearly every
        layout of a tile game, the loop cost about 2% of a whole game."""
        cells = st.layers[self.layer]
        col = st.cols[self.edges_col]  # each side read as a bit of the turned tile's mask
        masks = self._by_tile if col is self._col else self.masks_of(col)  # (no `%`)
        neighbour = st.cfg.boards[self.board].neighbour  # type: ignore[attr-defined]
        fits = FITS
        for node in spots:
            must = closed = meets = 0
            north, east, south, west = neighbour[node]
            other = cells.get(north)
            if other is not None and not other[2]:  # its south side (2) faces this cell
                if masks[other[0]][other[1]] & 4:
                    must, meets = 1, 1 if north in net else 0
                else:
                    closed = 1
            other = cells.get(east)
            if other is not None and not other[2]:  # its west side (3)
                if masks[other[0]][other[1]] & 8:
                    must, meets = must | 2, meets | 2 if east in net else meets
                else:
                    closed |= 2
            other = cells.get(south)
            if other is not None and not other[2]:  # its north side (0)
                if masks[other[0]][other[1]] & 1:
                    must, meets = must | 4, meets | 4 if south in net else meets
                else:
                    closed |= 4
            other = cells.get(west)
            if other is not None and not other[2]:  # its east side (1)
                if masks[other[0]][other[1]] & 2:
                    must, meets = must | 8, meets | 8 if west in net else meets
                else:
                    closed |= 8
            fit = fits[must * 256 + closed * 16 + meets]
            found[node] = self.fit_mask(must, closed, meets) if fit is None else fit
        return found

    def placed(self, st: State) -> tuple[int, ...]:
        """The cells that hold a tile, in order: sorted once per layout and kept in
        `state.reach` (which every tile laid, taken or turned replaces) under a key no
        start has (`place` carries over only its starts' keys)."""
        if not KEEP_PLACED:
            return tuple(sorted(st.layers[self.layer]))
        found: tuple[int, ...] | None = st.reach.get(self.placed_key)
        if found is None:
            found = st.reach[self.placed_key] = tuple(sorted(st.layers[self.layer]))
        return found

    # ---------------------------------------------------------------- changing
    def changed(self, st: State) -> None:
        st.reach = {}  # a new dict: clones that share the old one keep valid answers

    def cell_of(self, st: State, tile: int) -> int:
        """The cell a tile lies on, or -1."""
        return int(st.layers[self.layer + 1].get(tile, -1))

    def place(self, st: State, node: int, tile: Value, turn: int, secret: bool) -> None:
        layer = self.layer
        cells, where = st.layers[layer], st.layers[layer + 1]
        fresh = node not in cells and tile not in where
        cells[node] = (tile, turn % 4, bool(secret))
        where[tile] = node
        before = st.reach
        reach = st.reach = {}  # as `changed`: clones that share `before` keep it whole
        if fresh:  # the networks known before grow from the new tile: no search anew
            low, high = self.base, self.base + KEY_SPAN
            for key, old in before.items():
                if low <= key < high:
                    reach[key] = self._grown(st, old, node)

    def clear(self, st: State, node: int) -> None:
        cell = st.layers[self.layer].pop(node, None)
        if cell is not None:
            st.layers[self.layer + 1].pop(cell[0], None)
            # what `reveal ... to` showed here no longer counts (only an item shown
            # before leaves a record: asked here, no place made nor call for the others)
            if st.shown is not None and cell[0] in st.shown_items:
                left(st, ("tile", self.layer, node), cell[0])
        st.reach = {}  # as `changed`, in place: a call less for each tile taken

    def take(self, st: State, items: Sequence[Value]) -> None:
        """`clear` of the cell of each item that lies on the board, in the items' order
        (`add` of many, a round's reset gathering every tile): one call, not two per
        tile, and the networks dropped once."""
        cells, where = st.layers[self.layer], st.layers[self.layer + 1]
        for item in items:
            node = where.get(item, -1)
            if node < 0:
                continue
            cell = cells.pop(node, None)
            if cell is not None:
                where.pop(cell[0], None)
                if st.shown is not None and cell[0] in st.shown_items:
                    left(st, ("tile", self.layer, node), cell[0])
        st.reach = {}  # as `changed`, in place

    def reveal(self, st: State, node: int, turn: int | None) -> None:
        cells = st.layers[self.layer]
        cell = cells.get(node)
        if cell is not None:
            cells[node] = (cell[0], cell[1] if turn is None else turn % 4, False)
        st.reach = {}  # as `changed`, in place: a call less for each tile taken


class _Sides:
    """`TileOps.masks_of` for an edges column that rules change: each read worked out
    (and kept per edges value) from the column as it is."""

    def __init__(self, ops: TileOps, col: list[Value]):
        self.ops, self.col = ops, col

    def __getitem__(self, tile: int) -> tuple[int, int, int, int]:
        edges = self.col[tile]
        return self.ops._masks.get(edges) or self.ops._sides(edges)


class _Tested:
    """`SIDES_OF` worked out at each read (OPEN_SIDES off)."""

    def __getitem__(self, mask: int) -> tuple[int, ...]:
        return tuple(d for d in (0, 1, 2, 3) if mask >> d & 1)


_TESTED = _Tested()


# Off: `fitting` looks its turns up at each call, not first by identity with the last
# call's (to measure this alone; the same answers)
SAME_TURNS = True

# Off: `placed` sorts the cells at each call (to measure the keeping alone). A rule may
# ask it several times of one layout (a card's test, then the choice among the cells):
# each a sort of some 10-20 cells, numbers of three digits compared digit by digit
KEEP_PLACED = True

# Off: a tile laid drops the kept demands, worked out anew for the whole network when
# next asked (to measure the growth alone; tests/test_tile_kept_demands.py)
GROW_DEMANDS = True


def _ways(sides: tuple[int, ...], turns: tuple[int, ...]) -> int:
    """The open-side masks of a tile (its masks per quarter turn) turned as allowed,
    one bit each."""
    ways = 0
    for t in turns:
        ways |= 1 << sides[t % 4]
    return ways

"""`generate`: random paths, sides and cells of a grid board (docs/language.md, "Board
state, sides and generation").

A generate statement is a chance event whose outcome is a number drawn from the game's
one seeded generator (so that a replay, which scripts chance events, gives the same
map); that number seeds the drawing here. Everything works on plain ints: cells are
node numbers, sides the side numbers of GridBoard (4 * cell + direction).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulelang import errors
from rulelang.diagnostics import Span
from rulelang.runtime.boards import GridBoard

if TYPE_CHECKING:
    from rulelang.runtime.state import State

SEEDS = range(2**31)  # the outcomes of a generate's chance event
PATH_STEPS = 20000  # steps of search before a path is called impossible (R040)


@dataclass(frozen=True, slots=True)
class GenerateOp:
    """One compiled generate statement."""

    what: str  # path, sides, rim sides, cells
    board: str
    seed_slot: int  # the local the chance event set
    out: tuple[int, ...]  # the locals it sets
    count: Callable[[State], object]
    bends: Callable[[State], object] | None
    from_rim: bool
    to_rim: bool
    cond: Callable[[State], object] | None
    var_slot: int  # the local COND reads (the side or cell drawn)
    keep: bool
    span: Span

    def run(self, st: State) -> None:
        board = st.cfg.boards[self.board]
        assert isinstance(board, GridBoard)  # the checker allows generate on grids only
        rng = random.Random(st.loc[self.seed_slot])
        n = self.number(self.count(st))
        if self.what == "path":
            bends = self.number(self.bends(st)) if self.bends is not None else None
            cells, dirs = self.path(board, rng, n, bends)
            st.loc[self.out[0]] = cells
            st.loc[self.out[1]] = dirs
            return
        if self.what == "cells":
            pool: Sequence[int] = range(board.size)
        else:
            pool = board.rim_sides if self.what == "rim sides" else board.inner_sides
        st.loc[self.out[0]] = self.draw(st, board, in_random_order(pool, rng), n)

    def number(self, value: object) -> int:
        if not isinstance(value, int) or value < 0:
            raise errors.negative_generate(value, self.span)
        return value

    def draw(self, st: State, board: GridBoard, pool: Iterator[int], n: int) -> tuple[int, ...]:
        """The first n of the pool (in random order) that meet COND (and, with `keep
        connected`, leave every cell reachable across the sides not drawn)."""
        chosen: list[int] = []
        cond, var = self.cond, self.var_slot
        keep = self.keep and self.what == "sides"  # a rim side never parts two cells
        # the inner sides not drawn, as bits: cell c's north side (open[0]) and east side
        # (open[1]); an inner side's number is 4 * c + 0 or 1 (see GridBoard._sides)
        opened = [board.has_north, board.has_east]
        width = board.width
        for item in pool:
            if len(chosen) == n:
                break
            if cond is not None:
                st.loc[var] = item
                if not cond(st):
                    continue
            if keep:
                bit = 1 << (item >> 2)
                opened[item & 1] &= ~bit
                if not joined(bit, 1 << board.across[item], opened[0], opened[1], width):
                    opened[item & 1] |= bit
                    continue
            chosen.append(item)
        if len(chosen) < n:
            raise errors.too_few_candidates(self.what, n, len(chosen), self.span)
        return tuple(chosen)

    def path(
        self, board: GridBoard, rng: random.Random, n: int, bends: int | None
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A random path found by a depth-first search that tries the ways on in a
        random order (straight on, or a quarter turn while bends are left; never back,
        never onto a cell of the path), from start cells in a random order. R040 when
        every start fails, or after PATH_STEPS steps of search."""
        if n == 0:
            return (), ()
        nb = board.neighbour
        most = n if bends is None else bends
        rim = self.from_rim
        starts = (
            [c for c in range(board.size) if min(nb[c]) < 0] if rim else list(range(board.size))
        )
        rng.shuffle(starts)
        budget = PATH_STEPS if n <= board.size else 0
        for start in starts:
            if budget <= 0:
                break
            # from the rim: entered across a rim side, so flowing away from it
            first = [d for d in range(4) if not rim or nb[start][(d + 2) % 4] < 0]
            rng.shuffle(first)
            cells, used, turns, ways = [start], {start}, [0], [first]
            dirs: list[int] = []
            while ways:
                budget -= 1
                if budget <= 0:
                    break
                if not ways[-1]:  # every way on from the last cell failed: back one cell
                    ways.pop()
                    turns.pop()
                    used.discard(cells.pop())
                    if dirs:
                        dirs.pop()
                    continue
                d = ways[-1].pop()
                c = cells[-1]
                t = turns[-1] + (1 if dirs and d != dirs[-1] else 0)
                if t > most:
                    continue
                if len(cells) == n:
                    if self.to_rim and nb[c][d] >= 0:
                        continue
                    return tuple(cells), (*dirs, d)
                nxt = nb[c][d]
                if nxt < 0 or nxt in used:
                    continue
                cells.append(nxt)
                dirs.append(d)
                used.add(nxt)
                turns.append(t)
                on = [d, (d + 1) % 4, (d + 3) % 4]
                rng.shuffle(on)
                ways.append(on)
        ends = " from the rim" if self.from_rim else ""
        ends += " to the rim" if self.to_rim else ""
        raise errors.no_path(n, bends, ends, self.span)


def in_random_order(pool: Sequence[int], rng: random.Random) -> Iterator[int]:
    """The items of pool in a random order, each drawn only when it is needed (a
    Fisher-Yates shuffle, one step per item taken)."""
    items = list(pool)
    k = len(items)
    while k:
        i = int(rng.random() * k)
        k -= 1
        items[i], items[k] = items[k], items[i]
        yield items[k]


def joined(a: int, b: int, north: int, east: int, width: int) -> bool:
    """Does cell set b meet the cells reached from cell set a, across the open north and
    east sides given as bits (a cell's south side is the north side of the cell below)?
    A breadth-first search on whole sets of cells: a few shifts a round. The grid was
    joined before one side was closed, so every cell still is if that side's two cells
    are: usually a round or three."""
    seen = frontier = a
    while frontier:
        frontier = (
            ((frontier & north) << width)
            | ((frontier >> width) & north)
            | ((frontier & east) << 1)
            | ((frontier >> 1) & east)
        ) & ~seen
        if frontier & b:
            return True
        seen |= frontier
    return False

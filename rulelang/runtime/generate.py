"""`generate`: random paths, sides and cells of a grid board (docs/language.md, "Board
state, sides and generation").

A generate statement is a chance event whose outcome is a number drawn from the game's
one seeded generator (so that a replay, which scripts chance events, gives the same
map); that number seeds the drawing here. Everything works on plain ints: cells are
node numbers, sides the side numbers of GridBoard (4 * cell + direction).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulelang import errors
from rulelang.diagnostics import Span

if TYPE_CHECKING:
    from rulelang.runtime.boards import GridBoard
    from rulelang.runtime.state import State

SEEDS = range(2**31)  # the outcomes of a generate's chance event
PATH_TRIES = 2000  # random walks tried before a path is called impossible (R040)


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
        board: GridBoard = st.cfg.boards[self.board]  # type: ignore[assignment]
        rng = random.Random(st.loc[self.seed_slot])
        n = self.number(self.count(st))
        if self.what == "path":
            bends = self.number(self.bends(st)) if self.bends is not None else None
            cells, dirs = self.path(board, rng, n, bends)
            st.loc[self.out[0]] = cells
            st.loc[self.out[1]] = dirs
            return
        if self.what == "cells":
            pool = list(range(board.size))
        else:
            pool = list(board.rim_sides if self.what == "rim sides" else board.inner_sides)
        rng.shuffle(pool)
        st.loc[self.out[0]] = self.draw(st, board, pool, n)

    def number(self, value: object) -> int:
        if not isinstance(value, int) or value < 0:
            raise errors.negative_generate(value, self.span)
        return value

    def draw(self, st: State, board: GridBoard, pool: list[int], n: int) -> tuple[int, ...]:
        """The first n of the shuffled pool that meet COND (and, with `keep connected`,
        leave every cell reachable across the sides not drawn)."""
        chosen: list[int] = []
        blocked: set[int] = set()
        cond, var = self.cond, self.var_slot
        keep = self.keep and self.what == "sides"  # a rim side never parts two cells
        links = board_links(board) if keep else ()
        for item in pool:
            if len(chosen) == n:
                break
            if cond is not None:
                st.loc[var] = item
                if not cond(st):
                    continue
            if keep:
                blocked.add(item)
                if not still_joined(links, item >> 2, board.across[item], blocked):
                    blocked.discard(item)
                    continue
            chosen.append(item)
        if len(chosen) < n:
            raise errors.too_few_candidates(self.what, n, len(chosen), self.span)
        return tuple(chosen)

    def path(
        self, board: GridBoard, rng: random.Random, n: int, bends: int | None
    ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A random walk that never meets itself, tried again from the start when it
        gets stuck; R040 after PATH_TRIES walks."""
        nb = board.neighbour
        most = n if bends is None else bends
        if self.from_rim:
            starts = [c for c in range(board.size) if min(nb[c]) < 0]
        else:
            starts = list(range(board.size))
        for _ in range(PATH_TRIES if 0 < n <= board.size else 0):
            c = starts[int(rng.random() * len(starts))]
            if self.from_rim:  # entered across a rim side: flowing away from it
                first = [d for d in range(4) if nb[c][(d + 2) % 4] < 0]
            else:
                first = [0, 1, 2, 3]
            cells, dirs, used, turns = [c], [], {c}, 0
            options = first
            while True:
                last = len(cells) == n
                if last:
                    if self.to_rim:
                        options = [d for d in options if nb[c][d] < 0]
                else:
                    options = [d for d in options if nb[c][d] >= 0 and nb[c][d] not in used]
                if not options:
                    break
                d = options[int(rng.random() * len(options))]
                if dirs and d != dirs[-1]:
                    turns += 1
                dirs.append(d)
                if last:
                    return tuple(cells), tuple(dirs)
                c = nb[c][d]
                cells.append(c)
                used.add(c)
                options = [d, (d + 1) % 4, (d + 3) % 4] if turns < most else [d]
        ends = " from the rim" if self.from_rim else ""
        ends += " to the rim" if self.to_rim else ""
        raise errors.no_path(n, bends, ends, PATH_TRIES, self.span)


def board_links(board: GridBoard) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell: (neighbour, side number) across each inner side (kept on the board)."""
    links = getattr(board, "_links", None)
    if links is None:
        links = tuple(
            tuple(
                (nb, board.canon[4 * c + d]) for d, nb in enumerate(board.neighbour[c]) if nb >= 0
            )
            for c in range(board.size)
        )
        board._links = links  # type: ignore[attr-defined]
    return links  # type: ignore[no-any-return]


def still_joined(
    links: tuple[tuple[tuple[int, int], ...], ...], a: int, b: int, blocked: set[int]
) -> bool:
    """Can cell b be reached from cell a across sides not blocked? The grid was joined
    before the one new side was blocked, so every cell still is if a and b are: a
    search from a that stops at b (usually after a few cells)."""
    seen = {a}
    todo = [a]
    for c in todo:
        for nb, s in links[c]:
            if nb not in seen and s not in blocked:
                if nb == b:
                    return True
                seen.add(nb)
                todo.append(nb)
    return False

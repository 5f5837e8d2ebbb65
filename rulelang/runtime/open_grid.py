"""A grid without bounds (`grid()`): its cells exist wherever tiles go.

A card table has no edge: a maze of cards grows as far as the cards reach. The cells
of an open grid are numbered row by row over a square far larger than any game can
fill (coordinates -REACH..REACH, about 4 * 10^18 cells), so a cell is a number like
any node, cells sort row by row as on a bounded grid, and nothing is stored per cell:
a cell's name, coordinates and neighbours are worked out from its number when asked
(and kept, up to KEPT cells: tile searches and views ask about the same cells again
and again). The
state holds only the tiles laid (runtime/tiles.py), so a sparse maze costs what it
holds. What needs every cell listed (`nodes`, state and edge attributes, `generate`)
is refused by the checker (E257).
"""

from __future__ import annotations

from collections.abc import Iterable

from rulelang import errors
from rulelang.diagnostics import Span
from rulelang.runtime.boards import GridBoard, spread

REACH = 1_000_000_000  # farthest coordinate, either way: no table of cards gets near it
SPAN = 2 * REACH + 1  # cells in a row
KEPT = 1 << 16  # most cells whose neighbours or names are kept (a maze uses hundreds)


# A cell is one Python object per number (`_Around.one`): a cell's number is about
# 2·10^18, an int CPython makes anew at each sum, and a dict or set finding a key equal
# to one it holds compares their digits unless they are the same object. Handing out
# one object per number (the neighbours of a cell, `cell(x, y)`) makes those lookups
# stop at the identity test. Off: every sum a new object, as before.
CANONICAL = True


class _Around(dict[int, tuple[int, int, int, int]]):
    """neighbour[cell][d]: the next cell north, east, south, west (-1 past REACH),
    worked out the first time a cell is asked about."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: dict[int, int] = {}  # number -> the one object for it (CANONICAL)

    def one(self, node: int) -> int:
        """The object that stands for the cell `node` (itself, the first time)."""
        if not CANONICAL:
            return node
        if len(self.cells) >= KEPT:
            self.cells.clear()
        return self.cells.setdefault(node, node)

    def __missing__(self, node: int) -> tuple[int, int, int, int]:
        if len(self) >= KEPT:  # rules that wander over many cells: start again
            self.clear()
        y, x = divmod(node, SPAN)
        one = self.one
        row = (
            one(node + SPAN) if y < SPAN - 1 else -1,
            one(node + 1) if x < SPAN - 1 else -1,
            one(node - SPAN) if y > 0 else -1,
            one(node - 1) if x > 0 else -1,
        )
        self[node] = row
        return row


class _Cells:
    """A read-only sequence indexed by cell, each item computed from the number: the
    names `"x,y"` or one coordinate. It cannot be listed (there are too many cells)."""

    def __init__(self, part: int | None):
        self.part = part  # 0: x, 1: y, None: the name
        self.known: dict[int, object] = {}  # views name the same cells again and again

    def __len__(self) -> int:
        return SPAN * SPAN

    def __getitem__(self, node: int) -> object:
        item = self.known.get(node)
        if item is not None:
            return item
        if not 0 <= node < SPAN * SPAN:
            raise IndexError(node)
        y, x = divmod(node, SPAN)
        item = f"{x - REACH},{y - REACH}" if self.part is None else (x, y)[self.part] - REACH
        if len(self.known) >= KEPT:
            self.known.clear()
        self.known[node] = item
        return item

    def __iter__(self) -> object:
        raise TypeError("the cells of a grid without bounds cannot be listed")

    def __contains__(self, name: object) -> bool:
        try:
            self.index(name)
        except ValueError:
            return False
        return True

    def index(self, name: object) -> int:
        """The cell named `"x,y"`; ValueError (as a tuple's index) for a text that names
        none."""
        parts = str(name).split(",")
        try:
            x, y = (int(p) for p in parts)
        except ValueError:
            raise ValueError(f"{name!r} names no cell") from None
        if max(abs(x), abs(y)) > REACH:
            raise ValueError(f"{name!r} names no cell")
        return (y + REACH) * SPAN + x + REACH


class _Still:
    """step(b, n, k) on a grid: no forward order, so only 0 steps lead anywhere."""

    def __init__(self, k: int):
        self.k = k

    def __getitem__(self, node: int) -> int:
        return node if self.k == 0 else -1


class OpenGrid(GridBoard):
    """A grid without bounds; direction d is N, E, S, W as on a bounded grid."""

    bounded = False

    def __init__(self, name: str, limit: int):
        # GridBoard.__init__ builds every cell: none of that here. The cells are endless,
        # so their names, coordinates and neighbours are stand-ins computed on demand
        # that index like the bounded grid's tuples (but cannot be listed): mypy sees
        # other types than GridBoard's, hence the ignores
        self.name, self.shape = name, "grid"
        self.limit = limit  # most cells a path_length search may cover
        self.size = SPAN * SPAN
        self.names = _Cells(None)  # type: ignore[assignment]
        self.attrs = {"x": _Cells(0), "y": _Cells(1)}  # type: ignore[dict-item]
        self._around = _Around()
        self.neighbour = self._around  # type: ignore[assignment]
        self.steps = {}
        self._dist = {}
        self._frame: Frame | None = None  # the last goals and walls of path_length

    def __len__(self) -> int:
        return self.size

    def step_table(self, k: int) -> tuple[int, ...]:
        return _Still(k)  # type: ignore[return-value]  # indexes like the table: see above

    def cell(self, x: int, y: int) -> int | None:
        if abs(x) <= REACH and abs(y) <= REACH:
            return self._around.one((y + REACH) * SPAN + x + REACH)
        return None

    def distance(self, a: int | None, b: int | None) -> int:
        """Steps between two cells: nothing stands in the way on an open grid (-1 if
        either is none)."""
        if a is None or b is None:
            return -1
        ay, ax = divmod(a, SPAN)
        by, bx = divmod(b, SPAN)
        return abs(ax - bx) + abs(ay - by)

    def path_length(
        self,
        start: int | None,
        goals: Iterable[int | None],
        walls: Iterable[int | None],
        span: Span,
    ) -> int:
        """As on a bounded grid. A shortest path never needs to leave the box around the
        goals and the walls grown by one cell, once the start is in it (a path that
        leaves the box can follow its rim instead, which holds no wall, and be no
        longer), so the search runs on that box; with no walls it is the nearest goal's
        distance. Rules ask for many starts with the same goals and walls (a bot, for
        each spot): the box of the last goals and walls (lists, which never change) is
        kept for the next call."""
        frame = self._frame
        if frame is None or frame.goals != goals or frame.walls != walls:
            frame = Frame(goals, walls, self.node_set(goals, span), self.node_set(walls, span))
            if type(goals) is tuple and type(walls) is tuple:  # unchanging: keep it
                self._frame = frame
        if start is None:
            return -1
        if start in frame.targets:
            return 0
        if not frame.live:
            return -1
        if not frame.blocked:
            return min(self.distance(start, g) for g in frame.live)
        y, x = divmod(start, SPAN)
        if frame.box is None:
            frame.box = Box(self, (*frame.live, *frame.blocked), span)
        box = frame.box
        if not (box.x0 <= x <= box.x1 and box.y0 <= y <= box.y1):
            box = Box(self, (start, *frame.live, *frame.blocked), span)
        return box.search(start, frame.live, frame.blocked)


class Frame:
    """The goals and walls of a path_length call, checked, and the box around them."""

    __slots__ = ("goals", "walls", "targets", "blocked", "live", "box")

    def __init__(self, goals: object, walls: object, targets: set[int], blocked: set[int]):
        self.goals, self.walls = goals, walls
        self.targets, self.blocked = targets, blocked
        self.live = targets - blocked  # a goal that is a wall cannot be reached
        self.box: Box | None = None


class Box:
    """The rectangle around some cells grown by one, as bit sets for boards.spread: a
    cell (x, y) of the box is bit (y - y0) * width + x - x0."""

    def __init__(self, grid: OpenGrid, nodes: Iterable[int], span: Span):
        rows = [divmod(n, SPAN) for n in nodes]
        self.x0 = max(min(x for _y, x in rows) - 1, 0)
        self.x1 = min(max(x for _y, x in rows) + 1, SPAN - 1)
        self.y0 = max(min(y for y, _x in rows) - 1, 0)
        self.y1 = min(max(y for y, _x in rows) + 1, SPAN - 1)
        self.width = self.x1 - self.x0 + 1
        cells = self.width * (self.y1 - self.y0 + 1)
        if cells > grid.limit:
            raise errors.search_too_wide(grid.name, cells, grid.limit, span)
        self.every = (1 << cells) - 1
        self.east = ((1 << (self.width - 1)) - 1) * (self.every // ((1 << self.width) - 1))
        self.known: tuple[object, object, int, int] | None = None

    def bits(self, nodes: Iterable[int]) -> int:
        out = 0
        for n in nodes:
            y, x = divmod(n, SPAN)
            out |= 1 << ((y - self.y0) * self.width + x - self.x0)
        return out

    def search(self, start: int, live: set[int], blocked: set[int]) -> int:
        known = self.known
        if known is None or known[0] is not live or known[1] is not blocked:
            known = self.known = (live, blocked, self.bits(live), self.bits(blocked))
        frontier = self.bits((start,))
        free = self.every & ~known[3] & ~frontier
        return spread(frontier, known[2], free, self.east, self.east << 1, self.width)

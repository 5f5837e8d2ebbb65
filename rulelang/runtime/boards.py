"""Boards as graphs. The topology is built once, frozen, and shared by every clone."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from rulelang import errors
from rulelang.diagnostics import Span

if TYPE_CHECKING:
    import networkx as nx

# networkx is imported where a graph is built or searched, not at module level: it costs a
# noticeable part of a cold start, and validating a rule file never builds a board.


class TooLarge(ValueError):
    """A board past the limit of items (the ruleset's `Limits.items`)."""


class Board:
    """A directed graph of numbered nodes with a forward order (ring or line)."""

    bounded = True  # every node is known when the board is built (see OpenGrid)

    def __init__(self, name: str, shape: str, names: Sequence[str]):
        self.name = name
        self.shape = shape
        self.names = tuple(names)
        self.size = len(self.names)
        import networkx as nx

        n = len(self.names)
        graph: nx.DiGraph = nx.DiGraph()
        graph.add_nodes_from(range(n))
        last = n if shape == "ring" else n - 1
        for i in range(last):
            graph.add_edge(i, (i + 1) % n, direction="forward")
        self.graph = graph
        self.forward = tuple(next(iter(graph.successors(i)), -1) for i in range(n))
        self.backward = tuple(next(iter(graph.predecessors(i)), -1) for i in range(n))
        self.attrs: dict[str, tuple[object, ...]] = {}
        self.steps: dict[int, tuple[int, ...]] = {}
        self._dist: dict[int, dict[int, int]] = {}

    def __len__(self) -> int:
        return len(self.names)

    def step_table(self, k: int) -> tuple[int, ...]:
        """Where k steps lead from every node (negative k goes backwards; -1 off the end)."""
        table = self.steps.get(k)
        if table is None:
            links = self.forward if k >= 0 else self.backward
            out = []
            for start in range(len(self.names)):
                node = start
                for _ in range(abs(k)):
                    node = links[node] if node >= 0 else -1
                out.append(node)
            table = self.steps[k] = tuple(out)
        return table

    def distance(self, a: int | None, b: int | None) -> int:
        """Shortest number of forward steps from a to b, or -1 if unreachable or either
        is none (as path_length from none) (cached)."""
        if a is None or b is None:
            return -1
        row = self._dist.get(a)
        if row is None:
            import networkx as nx

            row = self._dist[a] = dict(nx.single_source_shortest_path_length(self.graph, a))
        return row.get(b, -1)

    def path_length(
        self,
        start: int | None,
        goals: Iterable[int | None],
        walls: Iterable[int | None],
        span: Span,
    ) -> int:
        """The fewest forward steps from start to the first of goals met, never entering a
        wall (-1 if none can be reached). A ring or a line has one way forward, so the
        search is a walk along it."""
        size, forward = self.size, self.forward
        targets = self.node_set(goals, span)
        blocked = self.node_set(walls, span)
        if start is None:
            return -1
        node = start
        for steps in range(size):
            if node in targets:
                return steps
            node = forward[node]
            if node < 0 or node in blocked:
                return -1
        return -1

    def node_set(self, nodes: Iterable[int | None], span: Span) -> set[int]:
        """The nodes of a list given to a rule's function (none left out; R007 for a
        number that is not a node)."""
        out = set()
        size = self.size
        for n in nodes:
            if n is None:
                continue
            if not 0 <= n < size:
                raise errors.node_outside(n, self.name, size, span)
            out.add(n)
        return out


def spread(frontier: int, targets: int, free: int, east: int, west: int, width: int) -> int:
    """Breadth-first search on a rectangle of cells held as the bits of numbers (cell
    i is bit i, rows of `width`): the steps until the frontier meets a target, or -1.
    `east`/`west`: the cells that have a neighbour that way; `free`: the cells that may
    be entered."""
    steps = 0
    while frontier:
        steps += 1
        frontier = (
            ((frontier & east) << 1)
            | ((frontier & west) >> 1)
            | (frontier << width)
            | (frontier >> width)
        ) & free
        if frontier & targets:
            return steps
        free ^= frontier
    return -1


DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W: y grows upwards
SIDE_NAMES = ("north", "east", "south", "west")


class GridBoard(Board):
    """A rectangle of cells from (x0, y0) to (x1, y1); direction d is N, E, S, W."""

    def __init__(self, name: str, x0: int, x1: int, y0: int, y1: int):
        if x1 < x0 or y1 < y0:
            raise ValueError(f"grid '{name}' is empty: x {x0}..{x1}, y {y0}..{y1}")
        self.width, self.height = x1 - x0 + 1, y1 - y0 + 1
        self.x0, self.y0 = x0, y0
        coords = [(x, y) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)]
        self.name, self.shape = name, "grid"
        self.names = tuple(f"{x},{y}" for x, y in coords)
        self.size = len(self.names)
        import networkx as nx

        grid = nx.grid_2d_graph(range(x0, x1 + 1), range(y0, y1 + 1))
        graph: nx.DiGraph = nx.DiGraph()
        graph.add_nodes_from(range(len(coords)))
        index = {c: i for i, c in enumerate(coords)}
        for a, b in grid.edges():
            for p, q in ((a, b), (b, a)):
                d = DIRECTIONS.index((q[0] - p[0], q[1] - p[1]))
                graph.add_edge(index[p], index[q], direction=d)
        self.graph = graph
        # neighbour[node][d]: the next cell in direction d, or -1 off the grid
        self.neighbour = tuple(
            tuple(
                next((q for q in graph.successors(i) if graph.edges[i, q]["direction"] == d), -1)
                for d in range(4)
            )
            for i in range(len(coords))
        )
        # the same with None off the grid: `neighbour(b, c, d)` read inline (exprgen)
        self.next_cell = tuple(
            tuple(None if nb < 0 else nb for nb in row) for row in self.neighbour
        )
        self.forward = self.backward = tuple(-1 for _ in coords)
        self.attrs = {"x": tuple(x for x, _ in coords), "y": tuple(y for _, y in coords)}
        self.steps = {}
        self._dist = {}
        # sets of cells as the bits of a number (cell i is bit i), for path_length
        self.all_cells = (1 << self.size) - 1
        self.has_east = sum(1 << i for i, (x, _y) in enumerate(coords) if x < x1)
        self.has_west = sum(1 << i for i, (x, _y) in enumerate(coords) if x > x0)
        self.has_north = sum(1 << i for i, (_x, y) in enumerate(coords) if y < y1)
        self._sides()

    def _sides(self) -> None:
        """Side numbers: side d of cell c is 4 * c + d. The side between two cells is one
        side, numbered from the cell to the south or west (direction north or east):
        canon[4 * c + d] is that number, for either cell. A rim side (d pointing off the
        grid) is numbered from its one cell. The state of an edge attribute is a list
        indexed by side number (the numbers no side uses keep the default, unseen)."""
        canon = []
        for c, row in enumerate(self.neighbour):
            for d, nb in enumerate(row):
                canon.append(4 * nb + d - 2 if nb >= 0 and d >= 2 else 4 * c + d)
        self.canon = tuple(canon)
        self.inner_sides = tuple(
            4 * c + d for c, row in enumerate(self.neighbour) for d in (0, 1) if row[d] >= 0
        )
        self.rim_sides = tuple(
            4 * c + d for c, row in enumerate(self.neighbour) for d in range(4) if row[d] < 0
        )
        self.all_sides = tuple(sorted(self.inner_sides + self.rim_sides))
        # across[s]: the cell on the other side of side s (-1 on the rim)
        self.across = tuple(self.neighbour[s >> 2][s & 3] for s in range(4 * self.size))

    def side_name(self, s: int) -> str:
        return f"{self.names[s >> 2]} {SIDE_NAMES[s & 3]}"

    def path_length(
        self,
        start: int | None,
        goals: Iterable[int | None],
        walls: Iterable[int | None],
        span: Span,
    ) -> int:
        """The fewest steps (N, E, S, W) from start to the nearest of goals, never
        entering a wall; -1 if no goal can be reached. A breadth-first search on sets of
        cells held as the bits of a number: each round moves the whole frontier one step
        in the four directions with a few shifts, so a round costs about as much as a
        handful of Python operations however many cells the frontier holds."""
        size = self.size
        blocked = 0
        for n in walls:
            if n is not None:
                if not 0 <= n < size:
                    raise errors.node_outside(n, self.name, size, span)
                blocked |= 1 << n
        targets = 0
        for n in goals:
            if n is not None:
                if not 0 <= n < size:
                    raise errors.node_outside(n, self.name, size, span)
                targets |= 1 << n
        if start is None:
            return -1
        frontier = 1 << start
        if frontier & targets:
            return 0
        free = self.all_cells & ~blocked & ~frontier
        if not targets & free:
            return -1
        return spread(frontier, targets, free, self.has_east, self.has_west, self.width)

    def cell(self, x: int, y: int) -> int | None:
        if 0 <= x - self.x0 < self.width and 0 <= y - self.y0 < self.height:
            return (y - self.y0) * self.width + (x - self.x0)
        return None

"""Boards as graphs. The topology is built once, frozen, and shared by every clone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import networkx as nx

# networkx is imported where a graph is built or searched, not at module level: it costs a
# noticeable part of a cold start, and validating a rule file never builds a board.


class TooLarge(ValueError):
    """A board past the limit of items (the ruleset's `Limits.items`)."""


class Board:
    """A directed graph of numbered nodes with a forward order (ring or line)."""

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

    def distance(self, a: int, b: int) -> int:
        """Shortest number of forward steps from a to b, or -1 if unreachable (cached)."""
        row = self._dist.get(a)
        if row is None:
            import networkx as nx

            row = self._dist[a] = dict(nx.single_source_shortest_path_length(self.graph, a))
        return row.get(b, -1)


def build(name: str, shape: str, args: list[object], limit: int) -> Board:
    """A board of `shape` built from its arguments; ValueError (TooLarge past `limit`
    nodes or cells) saying why it cannot be."""
    if shape == "grid":
        if len(args) != 4 or not all(isinstance(a, int) for a in args):
            raise ValueError("grid() takes four numbers: x from, x to, y from, y to")
        x0, x1, y0, y1 = (int(a) for a in args)  # type: ignore[call-overload]
        if (x1 - x0 + 1) * (y1 - y0 + 1) > limit:
            raise TooLarge(
                f"grid '{name}' would have {(x1 - x0 + 1) * (y1 - y0 + 1)} cells; "
                f"at most {limit} are allowed"
            )
        return GridBoard(name, x0, x1, y0, y1)
    if len(args) != 1:
        raise ValueError(f"{shape}() takes one argument: a number of nodes or a list of names")
    arg = args[0]
    size = arg if isinstance(arg, int) else len(arg)  # type: ignore[arg-type]
    if size > limit:
        raise TooLarge(f"board '{name}' would have {size} nodes; at most {limit} are allowed")
    if isinstance(arg, int):
        names: Sequence[str] = [str(i) for i in range(arg)]
    else:
        names = [str(x) for x in arg]  # type: ignore[attr-defined]
    if not names:
        raise ValueError(f"board '{name}' has no nodes")
    return Board(name, shape, names)


DIRECTIONS = ((0, 1), (1, 0), (0, -1), (-1, 0))  # N, E, S, W: y grows upwards


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
        self.forward = self.backward = tuple(-1 for _ in coords)
        self.attrs = {"x": tuple(x for x, _ in coords), "y": tuple(y for _, y in coords)}
        self.steps = {}
        self._dist = {}

    def cell(self, x: int, y: int) -> int | None:
        if 0 <= x - self.x0 < self.width and 0 <= y - self.y0 < self.height:
            return (y - self.y0) * self.width + (x - self.x0)
        return None

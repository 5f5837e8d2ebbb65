"""Boards as graphs. The topology is built once, frozen, and shared by every clone."""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx


class Board:
    """A directed graph of numbered nodes with a forward order (ring or line)."""

    def __init__(self, name: str, shape: str, names: Sequence[str]):
        self.name = name
        self.shape = shape
        self.names = tuple(names)
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
            row = self._dist[a] = dict(nx.single_source_shortest_path_length(self.graph, a))
        return row.get(b, -1)


def build(name: str, shape: str, args: list[object]) -> Board:
    if len(args) != 1:
        raise ValueError(f"{shape}() takes one argument: a number of nodes or a list of names")
    arg = args[0]
    if isinstance(arg, int):
        names: Sequence[str] = [str(i) for i in range(arg)]
    else:
        names = [str(x) for x in arg]  # type: ignore[attr-defined]
    if not names:
        raise ValueError(f"board '{name}' has no nodes")
    return Board(name, shape, names)

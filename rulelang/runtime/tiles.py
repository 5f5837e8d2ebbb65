"""Tiles on grid boards: placing, matching edges, and the network joined to a start.

A tile is a piece or card with `edges: list(bool)` (open sides N, E, S, W) and
optionally `joined: bool` (false: its open sides are stubs that do not meet in the
middle, so a path cannot pass through it). A tile lies turned by 0-3 quarter turns
clockwise, face up or face down ("secret": nobody sees it, and any side matches it).

The state keeps, per tiled board, three lists indexed by cell: the tile (or None),
its turn, and whether it is face down; and a fourth indexed by tile: its cell, or -1.
What is joined to a start cell is computed once per layout and kept in `state.reach`
until a tile comes or goes, so that legal moves for a whole hand are found without
repeating the search per candidate.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rulelang.check.layout import TileLayer
from rulelang.runtime.boards import GridBoard

if TYPE_CHECKING:
    from rulelang.runtime.code import Value
    from rulelang.runtime.state import State

OPPOSITE = (2, 3, 0, 1)
Network = tuple[frozenset[int], tuple[int, ...], tuple[int, ...]]


class TileOps:
    """The tile functions of one tiled board, bound to its layer in the state."""

    def __init__(self, layer: TileLayer):
        self.board = layer.board
        self.kind = layer.kind
        self.layer = layer.first  # state.layers[layer], [layer + 1], [layer + 2], [layer + 3]
        self.edges_col = layer.edges_col
        self.joined_col = layer.joined_col

    # ---------------------------------------------------------------- reading
    def grid(self, st: State) -> GridBoard:
        b = st.cfg.boards[self.board]
        assert isinstance(b, GridBoard)
        return b

    def tile_open(self, st: State, tile: int, turn: int, d: int) -> bool:
        return bool(st.cols[self.edges_col][tile][(d - turn) % 4])

    def joined(self, st: State, tile: int) -> bool:
        return self.joined_col is None or bool(st.cols[self.joined_col][tile])

    def open_side(self, st: State, node: int, d: int) -> bool:
        layers = st.layers
        tile = layers[self.layer][node]
        if tile is None or layers[self.layer + 2][node]:
            return False
        return bool(st.cols[self.edges_col][tile][(d - layers[self.layer + 1][node]) % 4])

    def fits(self, st: State, node: int | None, tile: int, turn: int) -> bool:
        """The cell is empty and every side meets a matching side (or an empty cell, the
        edge of the board, or a face-down tile, which matches anything)."""
        layers = st.layers
        tiles, turns, secret = layers[self.layer], layers[self.layer + 1], layers[self.layer + 2]
        if node is None or tiles[node] is not None:
            return False
        edges = st.cols[self.edges_col]
        mine = edges[tile]
        for d, nb in enumerate(self.grid(st).neighbour[node]):
            if nb < 0:
                continue
            other = tiles[nb]
            if other is None or secret[nb]:
                continue
            if bool(mine[(d - turn) % 4]) != bool(edges[other][(d + 2 - turns[nb]) % 4]):
                return False
        return True

    def network(self, st: State, start: int) -> Network:
        """(cells joined to start, face-down cells it touches, empty cells it touches)."""
        key = (self.layer, start)
        found = st.reach.get(key)
        if found is not None:
            return found  # type: ignore[return-value]
        layers = st.layers
        tiles, secret = layers[self.layer], layers[self.layer + 2]
        neighbour = self.grid(st).neighbour
        open_side = self.open_side
        joined: set[int] = set()
        touching: list[int] = []
        spots: list[int] = []
        if tiles[start] is not None and not secret[start]:
            joined.add(start)
            todo = [start]
            while todo:
                node = todo.pop()
                for d, nb in enumerate(neighbour[node]):
                    if nb < 0 or nb in joined or not open_side(st, node, d):
                        continue
                    if tiles[nb] is None:
                        if nb not in spots:
                            spots.append(nb)
                    elif secret[nb]:
                        if nb not in touching:
                            touching.append(nb)
                    elif open_side(st, nb, OPPOSITE[d]) and self.joined(st, tiles[nb]):
                        joined.add(nb)
                        todo.append(nb)
        result = (frozenset(joined), tuple(sorted(touching)), tuple(sorted(spots)))
        st.reach[key] = result
        return result

    def joins(self, st: State, node: int, tile: int, turn: int, start: int) -> bool:
        """`fits`, and an open side of the tile meets an open side of the network. Kept
        per layout: rules often ask the same question for a card, a spot and a turn."""
        key = (self.layer, start, node, tile, turn)
        known = st.reach.get(key)
        if known is not None:
            return known is True
        answer = self._joins(st, node, tile, turn, start)
        st.reach[key] = answer
        return answer

    def _joins(self, st: State, node: int, tile: int, turn: int, start: int) -> bool:
        net, _touching, spots = self.network(st, start)
        if node not in spots or not self.fits(st, node, tile, turn):
            return False
        mine = st.cols[self.edges_col][tile]
        for d, nb in enumerate(self.grid(st).neighbour[node]):
            if nb in net and mine[(d - turn) % 4] and self.open_side(st, nb, OPPOSITE[d]):
                return True
        return False

    def placed(self, st: State) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(st.layers[self.layer]) if t is not None)

    # ---------------------------------------------------------------- changing
    def changed(self, st: State) -> None:
        st.reach = {}  # a new dict: clones that share the old one keep valid answers

    def cell_of(self, st: State, tile: int) -> int:
        """The cell a tile lies on, or -1."""
        return int(st.layers[self.layer + 3][tile])

    def place(self, st: State, node: int, tile: Value, turn: int, secret: bool) -> None:
        layers = st.layers
        layers[self.layer][node] = tile
        layers[self.layer + 3][tile] = node
        layers[self.layer + 1][node] = turn % 4
        layers[self.layer + 2][node] = secret
        self.changed(st)

    def clear(self, st: State, node: int) -> None:
        layers = st.layers
        tile = layers[self.layer][node]
        if tile is not None:
            layers[self.layer + 3][tile] = -1
        layers[self.layer][node] = None
        layers[self.layer + 1][node] = 0
        layers[self.layer + 2][node] = False
        self.changed(st)

    def reveal(self, st: State, node: int, turn: int | None) -> None:
        st.layers[self.layer + 2][node] = False
        if turn is not None:
            st.layers[self.layer + 1][node] = turn % 4
        self.changed(st)

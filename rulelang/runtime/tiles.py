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

from typing import Any

from rulelang.runtime.boards import GridBoard

OPPOSITE = (2, 3, 0, 1)


class TileOps:
    def __init__(self, board: str, layer: int, edges_col: int, joined_col: int | None):
        self.board = board
        self.layer = layer  # state.layers[layer], [layer + 1], [layer + 2], [layer + 3]
        self.edges_col = edges_col
        self.joined_col = joined_col

    # ---------------------------------------------------------------- reading
    def grid(self, st: Any) -> GridBoard:
        b = st.cfg.boards[self.board]
        assert isinstance(b, GridBoard)
        return b

    def tile_open(self, st: Any, tile: int, turn: int, d: int) -> bool:
        return bool(st.cols[self.edges_col][tile][(d - turn) % 4])

    def joined(self, st: Any, tile: int) -> bool:
        return self.joined_col is None or bool(st.cols[self.joined_col][tile])

    def open_side(self, st: Any, node: int, d: int) -> bool:
        tile = st.layers[self.layer][node]
        if tile is None or st.layers[self.layer + 2][node]:
            return False
        return self.tile_open(st, tile, st.layers[self.layer + 1][node], d)

    def fits(self, st: Any, node: int, tile: int, turn: int) -> bool:
        """The cell is empty and every side meets a matching side (or an empty cell, the
        edge of the board, or a face-down tile, which matches anything)."""
        tiles, secret = st.layers[self.layer], st.layers[self.layer + 2]
        if node is None or tiles[node] is not None:
            return False
        for d, nb in enumerate(self.grid(st).neighbour[node]):
            if nb < 0 or tiles[nb] is None or secret[nb]:
                continue
            if self.tile_open(st, tile, turn, d) != self.open_side(st, nb, OPPOSITE[d]):
                return False
        return True

    def network(self, st: Any, start: int) -> tuple[frozenset[int], tuple[int, ...],
                                                     tuple[int, ...]]:
        """(cells joined to start, face-down cells it touches, empty cells it touches)."""
        key = (self.layer, start)
        found = st.reach.get(key)
        if found is not None:
            return found
        tiles, secret = st.layers[self.layer], st.layers[self.layer + 2]
        neighbour = self.grid(st).neighbour
        joined: set[int] = set()
        touching: list[int] = []
        spots: list[int] = []
        if tiles[start] is not None and not secret[start]:
            joined.add(start)
            todo = [start]
            while todo:
                node = todo.pop()
                for d, nb in enumerate(neighbour[node]):
                    if nb < 0 or nb in joined or not self.open_side(st, node, d):
                        continue
                    if tiles[nb] is None:
                        if nb not in spots:
                            spots.append(nb)
                    elif secret[nb]:
                        if nb not in touching:
                            touching.append(nb)
                    elif self.open_side(st, nb, OPPOSITE[d]) and self.joined(st, tiles[nb]):
                        joined.add(nb)
                        todo.append(nb)
        found = (frozenset(joined), tuple(sorted(touching)), tuple(sorted(spots)))
        st.reach[key] = found
        return found

    def joins(self, st: Any, node: int, tile: int, turn: int, start: int) -> bool:
        """`fits`, and an open side of the tile meets an open side of the network."""
        net, _touching, spots = self.network(st, start)
        if node not in spots or not self.fits(st, node, tile, turn):
            return False
        for d, nb in enumerate(self.grid(st).neighbour[node]):
            if nb in net and self.tile_open(st, tile, turn, d) and \
                    self.open_side(st, nb, OPPOSITE[d]):
                return True
        return False

    # ---------------------------------------------------------------- changing
    def changed(self, st: Any) -> None:
        st.reach = {}  # a new dict: clones that share the old one keep valid answers

    def cell_of(self, st: Any, tile: int) -> int:
        """The cell a tile lies on, or -1."""
        return int(st.layers[self.layer + 3][tile])

    def place(self, st: Any, node: int, tile: int, turn: int, secret: bool) -> None:
        st.layers[self.layer][node] = tile
        st.layers[self.layer + 3][tile] = node
        st.layers[self.layer + 1][node] = turn % 4
        st.layers[self.layer + 2][node] = secret
        self.changed(st)

    def clear(self, st: Any, node: int) -> None:
        tile = st.layers[self.layer][node]
        if tile is not None:
            st.layers[self.layer + 3][tile] = -1
        st.layers[self.layer][node] = None
        st.layers[self.layer + 1][node] = 0
        st.layers[self.layer + 2][node] = False
        self.changed(st)

    def reveal(self, st: Any, node: int, turn: int | None) -> None:
        st.layers[self.layer + 2][node] = False
        if turn is not None:
            st.layers[self.layer + 1][node] = turn % 4
        self.changed(st)

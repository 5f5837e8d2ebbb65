"""Where everything lives in a game state: computed once, after the checker passes.

A state is plain lists (see `runtime/state.py`). The layout says which list and which
index holds each attribute, global, zone and tile layer, so that the compiler writes
`st.cols[3][item]` instead of looking a name up while a game runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rulelang.check.symbols import AttrSym, KindSym, ZoneSym
from rulelang.syntax import ast as A

SIDES = 4  # a tile on a grid has a side towards each of N, E, S, W (runtime/tiles.py)


@dataclass(frozen=True, slots=True)
class TileLayer:
    """A grid board that holds tiles: two dicts in `state.layers` from `first` on.

    layers[first]: cell -> (tile, quarter turns, face down) for the cells that hold a
    tile; layers[first + 1]: tile -> its cell.
    """

    board: str
    kind: str
    first: int
    edges_col: int
    joined_col: int | None


@dataclass(frozen=True, slots=True)
class Layout:
    columns: tuple[AttrSym, ...]  # player and kind attributes, by column (AttrSym.slot)
    globals: tuple[AttrSym, ...]  # by slot in state.vars
    zone_base: dict[str, int]  # zone name -> its first slot in state.zones
    zone_slots: int  # how many lists state.zones holds
    zone_kind: dict[str, str]  # zone name -> the kind of what it holds
    tiles: dict[str, TileLayer]  # board name -> its tile layer
    n_layers: int
    n_locals: int
    max_players: int
    kind_zone_slots: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def holds_edges(self, attr: AttrSym) -> bool:
        """Whether `attr` is the edges of a tile kind (they hold one value per side)."""
        return any(t.edges_col == attr.slot and t.kind == attr.owner for t in self.tiles.values())

    def zone_slots_of(self, zone: ZoneSym) -> range:
        base = self.zone_base[zone.name]
        return range(base, base + (self.max_players if zone.per_player else 1))


def build(
    player_attrs: list[AttrSym],
    kinds: list[KindSym],
    global_attrs: list[AttrSym],
    zones: list[ZoneSym],
    boards: list[A.BoardDecl],
    n_locals: int,
    max_players: int,
    board_attrs: list[AttrSym] | None = None,
) -> Layout:
    """Give every attribute its column, every zone its slots, every tiled board a layer.
    A board's state and edge attributes are columns too, after the kinds' (one item per
    node, or per side number: see runtime/boards.py)."""
    columns: list[AttrSym] = []
    for a in player_attrs:
        a.slot = len(columns)
        columns.append(a)
    for k in kinds:
        for a in k.attrs.values():
            a.slot = len(columns)
            columns.append(a)
    for a in board_attrs or ():
        a.slot = len(columns)
        columns.append(a)
    for i, g in enumerate(global_attrs):
        g.slot = i
    zone_base: dict[str, int] = {}
    slots = 0
    by_kind: dict[str, list[int]] = {}
    for z in zones:
        zone_base[z.name] = slots
        width = max_players if z.per_player else 1
        by_kind.setdefault(z.kind, []).extend(range(slots, slots + width))
        slots += width
    kinds_by_name = {k.name: k for k in kinds}
    tiles: dict[str, TileLayer] = {}
    for b in boards:
        if not b.tiles or b.tiles not in kinds_by_name:
            continue
        attrs = kinds_by_name[b.tiles].attrs
        joined = attrs.get("joined")
        tiles[b.name] = TileLayer(
            b.name, b.tiles, 2 * len(tiles), attrs["edges"].slot, joined.slot if joined else None
        )
    return Layout(
        tuple(columns),
        tuple(global_attrs),
        zone_base,
        slots,
        {z.name: z.kind for z in zones},
        tiles,
        2 * len(tiles),
        n_locals,
        max_players,
        {k: tuple(v) for k, v in by_kind.items()},
    )

"""Each spot's demands kept as one number, the set of open-side masks that fit there
(runtime/tiles.py, `_demands`): `joins` tests one bit, and `fitting` tests each spot
against the masks of the tile's allowed turns at once, instead of unpacking three
masks and testing them turn by turn (issue 21, item 1).

Shown firing (the kept demands are numbers), and `fitting` and `joins` held to their
definition from `fits` and the open sides at every spot of Saboteur positions."""

from __future__ import annotations

import random
from pathlib import Path

from test_tile_network_kept import joins_by_definition, lay_a_tile, layouts

import rulelang
from rulelang.runtime.tiles import TileOps

ROOT = Path(__file__).resolve().parent.parent


def test_a_spot_keeps_one_number_the_masks_that_fit_it() -> None:
    """Bit w of a spot's number is set where a tile whose open sides are the mask w
    (bit d: side d, north 0, east 1, south 2, west 3) joins the network there."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    (ops,) = rules.ex.tiles.values()
    game = rules.new_game(4, 3)
    rng = random.Random(3)
    st = game.state
    start = st.cfg.boards["maze"].cell(0, 0)
    edges = st.cols[ops.edges_col]
    tiles = [t for t, e in enumerate(edges) if e and any(e)]
    seen = 0
    for _laid in range(6):
        assert lay_a_tile(game, ops, rng)
        ops.joins(st, start, tiles[0], 0, start)  # the demands worked out and kept
        demands = st.reach[ops.base + start].demands  # kept with the network (tiles.Kept)
        assert demands and all(isinstance(fit, int) for fit in demands.values())
        for spot, fit in demands.items():
            for tile in tiles:
                for turn in range(4):
                    mask = ops._sides(edges[tile])[turn]
                    want = joins_by_definition(ops, st, spot, tile, turn, start)
                    assert bool(fit >> mask & 1) == want
                    seen += want
    assert seen > 50


def test_fitting_is_its_definition_at_every_position() -> None:
    """The spots where a tile joins turned by one of the turns, in the order of the
    network's spots: for every path card, both turns and each turn alone."""
    checked = 0
    for ops, st, start, tiles in layouts(players=5, games=2):
        spots = ops.network(st, start)[2]
        for tile in tiles[::2]:
            for turns in ((0, 2), (0,), (2,), (1, 3)):
                want = tuple(
                    s
                    for s in spots
                    if any(joins_by_definition(ops, st, s, tile, t, start) for t in turns)
                )
                assert ops.fitting(st, start, tile, turns) == want
                checked += 1
    assert checked > 300


def test_tile_ops_kept_per_mask() -> None:
    """The numbers depend on the three masks alone: one per combination, kept."""
    assert TileOps.fit_mask(1, 0, 1) == sum(1 << w for w in range(16) if w & 1)
    assert TileOps.fit_mask(0, 0, 0) == 0  # meets nothing: joins nothing
    assert TileOps.fit_mask(3, 4, 2) == sum(1 << w for w in range(16) if w & 3 == 3 and not w & 4)

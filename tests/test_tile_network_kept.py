"""The network joined to a start, kept across a tile laid next to it: the grown network
must be the very one a fresh search finds (runtime/tiles.py, `TileOps._grown`)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import rulelang
from rulelang.runtime.state import State
from rulelang.runtime.tiles import TileOps

ROOT = Path(__file__).resolve().parent.parent
SEARCH = TileOps.network  # unpatched: the test counts the game's own searches


def fresh(ops: object, st: object, start: int) -> object:
    """The network searched anew, on a copy of the state with nothing kept."""
    saved = st.reach  # type: ignore[attr-defined]
    st.reach = {}  # type: ignore[attr-defined]
    try:
        return SEARCH(ops, st, start)
    finally:
        st.reach = saved  # type: ignore[attr-defined]


def test_a_tile_laid_grows_the_kept_network_into_the_searched_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    (ops,) = rules.ex.tiles.values()
    searched = 0
    network = type(ops).network

    def counted(self: object, st: object, start: int) -> object:
        nonlocal searched
        searched += self.base + start not in st.reach  # type: ignore[attr-defined]
        return network(self, st, start)  # type: ignore[arg-type]

    monkeypatch.setattr(type(ops), "network", counted)
    grown = 0
    for seed in range(3):
        game = rules.new_game(3 + seed % 3, seed)
        rng = random.Random(seed)
        st = game.state
        start = st.cfg.boards["maze"].cell(0, 0)
        while not game.is_over():
            if game.current_player() == rulelang.CHANCE:
                game.resolve_chance()
                continue
            laid = len(st.layers[ops.layer])
            asked = ops.base + start in st.reach  # the key of its kept network
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
            key = ops.base + start
            if asked and len(st.layers[ops.layer]) == laid + 1:
                grown += 1  # a path card laid: the network is grown, not searched again
                assert st.reach[key].net == fresh(ops, st, start)
            assert network(ops, st, start) == fresh(ops, st, start)
    # searched anew: when a round begins, a goal is turned over or a tunnel collapses
    assert grown > 50 and searched < grown / 2


def lay_a_tile(game: rulelang.Game, ops: TileOps, rng: random.Random) -> bool:
    """Random moves until one lays a tile (True) or the game ends (False)."""
    st = game.state
    while not game.is_over():
        laid = len(st.layers[ops.layer])
        if game.current_player() == rulelang.CHANCE:
            game.resolve_chance()
        else:
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
        if len(st.layers[ops.layer]) == laid + 1:
            return True
    return False


def test_a_clones_network_stays_its_own_when_either_lays_a_tile() -> None:
    """A clone and its parent share the kept network until one of them lays a tile;
    the tile grows the network of the one that laid it, never the other's."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    (ops,) = rules.ex.tiles.values()
    checked = 0
    for seed in range(6):
        game = rules.new_game(4, seed)
        rng = random.Random(seed)
        start = game.state.cfg.boards["maze"].cell(0, 0)
        while lay_a_tile(game, ops, rng):
            ops.network(game.state, start)  # kept: the clone shares it
            clone = game.clone()
            first, second = (game, clone) if checked % 2 else (clone, game)
            other = second.state
            held = (dict(other.layers[ops.layer]), ops.network(other, start))
            if not lay_a_tile(first, ops, random.Random(seed + checked)):
                break
            assert (dict(other.layers[ops.layer]), ops.network(other, start)) == held
            assert ops.network(other, start) == fresh(ops, other, start)
            assert ops.network(first.state, start) == fresh(ops, first.state, start)
            checked += 1
    assert checked > 100


def joins_by_definition(
    ops: TileOps, st: object, node: int, tile: int, turn: int, start: int
) -> bool:
    """`joins` as docs/language.md words it, from `fits` and the open sides alone: the
    tile fits, and an open side of it meets an open side of a cell of the network."""
    if not ops.fits(st, node, tile, turn):  # type: ignore[arg-type]
        return False
    net = ops.network(st, start)[0]  # type: ignore[arg-type]
    around = st.cfg.boards["maze"].neighbour[node]  # type: ignore[attr-defined]
    return any(
        ops.tile_open(st, tile, turn, d)  # type: ignore[arg-type]
        and around[d] in net
        and ops.open_side(st, around[d], (d + 2) % 4)  # type: ignore[arg-type]
        for d in range(4)
    )


def test_joins_is_its_definition_at_every_spot_of_every_position() -> None:
    """The demands kept per spot (`_demands`, its four sides written out) answer
    `joins` as `fits` and the open sides do, for every path card and turn."""
    checked = joined = 0
    for ops, st, start, tiles in layouts(players=4, games=3):
        for spot in ops.network(st, start)[2]:
            for tile in tiles[::3]:
                for turn in range(4):
                    want = joins_by_definition(ops, st, spot, tile, turn, start)
                    assert ops.joins(st, spot, tile, turn, start) == want
                    checked += 1
                    joined += want
    assert checked > 1000 and 0.1 < joined / checked < 0.9


def layouts(players: int, games: int) -> Iterator[tuple[TileOps, State, int, list[int]]]:
    """Every layout of Saboteur games of random tiles (seeds 0 .. games - 1), after
    each tile laid: the maze's tile ops, the state, the start cell and the path cards."""
    rules = rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    (ops,) = rules.ex.tiles.values()
    for seed in range(games):
        game = rules.new_game(players, seed)
        st = game.state
        start = st.cfg.boards["maze"].cell(0, 0)
        edges = st.cols[ops.edges_col]
        tiles = [t for t, e in enumerate(edges) if e and any(e)]
        rng = random.Random(seed)
        while lay_a_tile(game, ops, rng):
            yield ops, st, start, tiles

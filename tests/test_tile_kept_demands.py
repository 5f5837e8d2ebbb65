"""What is kept of a start as one object (runtime/tiles.py, `Kept`): the network, the
spots' demands and `fitting`'s answers, found by one read of `state.reach`. A tile laid
next to the network grows the kept demands (`_grown_demands`, switch
`tiles.GROW_DEMANDS`): only the spots next to the tile or to a cell it joined are
worked out again. Shown firing, equal at every layout to the demands worked out afresh,
and playing the same games with the switch off."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_tile_network_kept import lay_a_tile

import rulelang
from rulelang.runtime import tiles
from rulelang.runtime.tiles import Kept

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


def fresh_demands(ops: tiles.TileOps, st: object, start: int) -> dict[int, int]:
    """The demands worked out on nothing kept."""
    saved = st.reach  # type: ignore[attr-defined]
    st.reach = {}  # type: ignore[attr-defined]
    try:
        return ops._demands(st, start)  # type: ignore[arg-type]
    finally:
        st.reach = saved  # type: ignore[attr-defined]


def test_a_tile_laid_grows_the_kept_demands_into_the_fresh_ones() -> None:
    rules = rulelang.compile_file(SABOTEUR)
    (ops,) = rules.ex.tiles.values()
    grown = worked = 0
    for seed in range(4):
        game = rules.new_game(3 + seed, seed)
        st = game.state
        start = st.cfg.boards["maze"].cell(0, 0)
        rng = random.Random(seed)
        while True:
            ops._demands(st, start)  # asked before the tile, as a turn's `can_play` does
            before = st.reach[start]
            if not lay_a_tile(game, ops, rng):
                break
            kept = st.reach.get(start)
            if isinstance(kept, Kept) and kept.demands is not None:
                grown += kept is not before  # carried over to the new layout, not dropped
                worked += 1
                assert kept.demands == fresh_demands(ops, st, start)
                assert kept.answers == {}  # `fitting`'s answers were the old layout's
    assert grown > 60 and worked == grown


def test_fitting_answers_are_kept_by_the_tiles_turned_masks() -> None:
    """Two tiles with the same open sides share one kept answer."""
    rules = rulelang.compile_file(SABOTEUR)
    (ops,) = rules.ex.tiles.values()
    game = rules.new_game(4, 2)
    st = game.state
    start = st.cfg.boards["maze"].cell(0, 0)
    assert lay_a_tile(game, ops, random.Random(2))
    edges = st.cols[ops.edges_col]
    crosses = [t for t, e in enumerate(edges) if e and all(e) and st.cols[ops.joined_col][t]]
    first = ops.fitting(st, start, crosses[0], (0, 2))
    assert len(st.reach[start].answers) == 1
    assert ops.fitting(st, start, crosses[1], (0, 2)) is first


@pytest.mark.parametrize("players", [3, 7])
def test_games_are_the_same_with_the_demands_worked_out_afresh(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    rules = rulelang.compile_file(SABOTEUR)

    def records() -> list[object]:
        out = []
        for seed in range(6):
            game = rules.new_game(players, seed)
            game.playout(random.Random(seed))
            out.append((game.history(None), game.results()))
        return out

    grown = records()
    monkeypatch.setattr(tiles, "GROW_DEMANDS", False)
    assert records() == grown


def test_only_the_spots_a_tile_changed_are_worked_out_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`_grown_demands` works out again the spots next to the tile, the new spots and
    those next to cells joined through it, in that order, and no other."""
    rules = rulelang.compile_file(SABOTEUR)
    asked: list[list[int]] = []
    checks = []
    work_out = tiles.TileOps._work_out

    def spy(
        self: tiles.TileOps, st: object, net: object, spots: list[int], found: object
    ) -> object:
        asked.append(list(spots))
        return work_out(self, st, net, spots, found)  # type: ignore[arg-type]

    grown = tiles.TileOps._grown_demands

    def checked(
        self: tiles.TileOps, st: object, old: Kept, net: tiles.Network, node: int
    ) -> object:
        assert old.demands is not None
        around = st.cfg.boards[self.board].neighbour  # type: ignore[attr-defined]
        want = [s for s in around[node] if s in old.demands and s != node]
        if net[0] is not old.net[0]:
            more = net[0] - old.net[0] - {node}
            want += [s for s in net[2] if s not in old.demands or not more.isdisjoint(around[s])]
        asked.clear()
        found = grown(self, st, old, net, node)  # type: ignore[arg-type]
        assert asked == ([want] if want else [])
        checks.append(len(want))
        return found

    monkeypatch.setattr(tiles.TileOps, "_work_out", spy)
    monkeypatch.setattr(tiles.TileOps, "_grown_demands", checked)
    for seed in range(3):
        game = rules.new_game(4, seed)
        game.playout(random.Random(seed))
    assert len(checks) > 50 and sum(checks) > 100  # fired, most tiles with spots to work out

"""What the tile runtime keeps per layout without more work per question
(runtime/tiles.py): a layout's `Kept` made without its `__init__` (switch
`tiles.FRAMELESS`), the cells that hold a tile sorted once per layout (`placed`,
switch `tiles.KEEP_PLACED`), and `fitting`'s turns found by identity with the last
call's (switch `tiles.SAME_TURNS`). Each shown firing, staying off with its switch,
and playing the same games both ways."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_tile_network_kept import lay_a_tile

import rulelang
from rulelang.runtime import tiles

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"
SWITCHES = ("FRAMELESS", "KEEP_PLACED", "SAME_TURNS")


def play(rules: rulelang.Ruleset, players: int) -> list[object]:
    out = []
    for seed in range(4):
        game = rules.new_game(players, seed)
        game.playout(random.Random(seed))
        out.append((game.history(None), game.results()))
    return out


class Counted(dict):  # type: ignore[type-arg]
    """`TileOps._ways`, counting its lookups."""

    gets = 0

    def get(self, key: Any, default: Any = None) -> Any:
        Counted.gets += 1
        return super().get(key, default)


def test_kept_is_made_without_its_init(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rulelang.compile_file(SABOTEUR)
    made = []
    init = tiles.Kept.__init__

    def counted(self: tiles.Kept, *args: Any) -> None:
        made.append(self)
        init(self, *args)

    monkeypatch.setattr(tiles.Kept, "__init__", counted)
    game = rules.new_game(3, 1)
    game.playout(random.Random(1), max_decisions=60)
    kept = [k for k in game.state.reach.values() if isinstance(k, tiles.Kept)]
    assert kept and not made  # kept layouts, no `__init__` called
    assert kept[0].answers is not None and kept[0].net
    monkeypatch.setattr(tiles, "FRAMELESS", False)
    game = rules.new_game(3, 1)
    game.playout(random.Random(1), max_decisions=60)
    assert len(made) > 5


def test_placed_is_sorted_once_per_layout() -> None:
    rules = rulelang.compile_file(SABOTEUR)
    (ops,) = rules.ex.tiles.values()
    game = rules.new_game(4, 2)
    st = game.state
    rng = random.Random(2)
    for _ in range(6):
        first = ops.placed(st)
        assert first == tuple(sorted(st.layers[ops.layer]))
        assert ops.placed(st) is first  # kept: the same tuple, not sorted again
        if not lay_a_tile(game, ops, rng):
            break
        after = ops.placed(st)  # a tile laid (a rockfall may have gone before): sorted anew
        assert after == tuple(sorted(st.layers[ops.layer])) and after is not first
        assert st.reach.get(ops.placed_key) is after
        assert all(key >= 0 for key in st.reach if key != ops.placed_key)  # starts' keys


def test_placed_stays_off_with_its_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rulelang.compile_file(SABOTEUR)
    (ops,) = rules.ex.tiles.values()
    game = rules.new_game(3, 1)
    monkeypatch.setattr(tiles, "KEEP_PLACED", False)
    first = ops.placed(game.state)
    assert ops.placed(game.state) == first and ops.placed(game.state) is not first
    assert ops.placed_key not in game.state.reach


def test_fitting_finds_its_turns_by_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = rulelang.compile_file(SABOTEUR)
    (ops,) = rules.ex.tiles.values()
    calls = []
    fitting = tiles.TileOps.fitting

    def counted(self: tiles.TileOps, *args: Any) -> Any:
        calls.append(args)
        return fitting(self, *args)

    monkeypatch.setattr(tiles.TileOps, "fitting", counted)
    play(rules, 3)  # the edges column kept (`_col`): `_ways` by turns made
    monkeypatch.setattr(ops, "_ways", Counted(ops._ways))
    Counted.gets, calls[:] = 0, []
    on = play(rules, 3)
    # the turns are a constant of each op that asks (a few ops): looked up when the op changes
    assert len(calls) > 100 and Counted.gets < len(calls) / 20
    monkeypatch.setattr(tiles, "SAME_TURNS", False)
    monkeypatch.setattr(ops, "_turned", (None, []))  # as compiled with the switch off
    Counted.gets, calls[:] = 0, []
    assert play(rules, 3) == on
    assert Counted.gets == len(calls)  # off: a lookup at every call
    # another tuple of the same turns, between calls with the rule's: the same answers
    st = rules.new_game(3, 5).state
    start = st.cfg.boards["maze"].cell(0, 0)  # type: ignore[attr-defined]
    monkeypatch.setattr(tiles, "SAME_TURNS", True)
    other = tuple([0, 2])
    asked = [ops.fitting(st, start, tile, t) for tile in range(40) for t in (other, (0, 2))]
    assert asked == [ops.fitting(st, start, tile, (0, 2)) for tile in range(40) for _ in "ab"]
    assert any(asked)


@pytest.mark.parametrize("players", [3, 8])
def test_games_are_the_same_with_the_switches_off(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    rules = rulelang.compile_file(SABOTEUR)
    on = play(rules, players)
    for switch in SWITCHES:
        monkeypatch.setattr(tiles, switch, False)
    assert play(rules, players) == on

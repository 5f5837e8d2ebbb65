"""The open sides of a joined tile read from a table by its mask (runtime/tiles.py,
`SIDES_OF`, switch `tiles.OPEN_SIDES`): the network's search (`_spread`) and the test
whether a tile laid meets the network (`_meets`) visit a tile's open sides alone.
Shown firing, giving each mask's sides, and playing the same games with the switch off
(each mask's bits tested at every read)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import rulelang
from rulelang.runtime import tiles

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


def test_the_table_holds_each_masks_open_sides_in_order() -> None:
    assert tiles.SIDES_OF[0] == () and tiles.SIDES_OF[15] == (0, 1, 2, 3)
    assert tiles.SIDES_OF[0b1010] == (1, 3)  # east and west
    for mask in range(16):
        assert tiles.SIDES_OF[mask] == tiles._TESTED[mask]
        assert sum(1 << d for d in tiles.SIDES_OF[mask]) == mask


class Spy(tuple):  # type: ignore[type-arg]
    """SIDES_OF, counting its reads."""

    reads = 0

    def __getitem__(self, mask: int) -> tuple[int, ...]:  # type: ignore[override]
        Spy.reads += 1
        return tuple.__getitem__(self, mask)  # type: ignore[no-any-return]


def play(rules: rulelang.Ruleset, players: int) -> list[object]:
    out = []
    for seed in range(5):
        game = rules.new_game(players, seed)
        game.playout(random.Random(seed))
        out.append((game.history(None), game.results()))
    return out


@pytest.mark.parametrize("players", [3, 8])
def test_it_fires_and_games_are_the_same_with_the_bits_tested(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    rules = rulelang.compile_file(SABOTEUR)
    monkeypatch.setattr(tiles, "SIDES_OF", Spy(tiles.SIDES_OF))
    Spy.reads = 0
    on = play(rules, players)
    assert Spy.reads > 100  # the searches read the table
    monkeypatch.setattr(tiles, "OPEN_SIDES", False)
    Spy.reads = 0
    assert play(rules, players) == on
    assert Spy.reads == 0  # off: the table is not read

"""What the Saboteur tests share: the rule files, the reference's tables, and reads of a
position through the public engine API only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rulelang
from rulelang import Game, Ruleset

ROOT = Path(__file__).resolve().parent.parent
SABOTEUR = ROOT / "rulesets" / "saboteur.rules"
OFFICIAL = ROOT / "rulesets" / "saboteur-official.rules"

# ../shared/reference/saboteur.md
SABOTEUR_CARDS = {3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}
MINER_CARDS = {3: 3, 4: 4, 5: 4, 6: 5, 7: 5, 8: 6, 9: 7, 10: 7}
PLAYCARDS = 71  # 40 tunnels, the start, 3 goals, 27 action cards
NUGGETS = 28
DWARVES = 11

# the zones of the rule files, by the kind of card they hold
CARD_ZONES = ("box", "deck", "discard")
CARD_ZONES_PER_PLAYER = ("hand", "front")
NUGGET_ZONES = ("nuggets", "shared")
DWARF_ZONES = ("dwarf_box", "aside")


@pytest.fixture(scope="module")
def rules() -> Ruleset:
    return rulelang.compile_file(SABOTEUR)


@pytest.fixture(scope="module")
def official() -> Ruleset:
    return rulelang.compile_file(OFFICIAL)


def in_zones(g: Game, shared: tuple[str, ...], per_player: tuple[str, ...]) -> list[Any]:
    """The items of these zones (per-player ones for every player), as raw values."""
    items = [c for z in shared for c in g.items(z)]
    for p in range(g.players):
        items += [c for z in per_player for c in g.items(z, p)]
    return items


def maze_tiles(g: Game) -> list[str]:
    """The names of the cards on the maze, face-down goals included (omniscient)."""
    board = g.view(None, only={"boards"})["boards"]
    return [str(cell["tile"]) for cell in board["maze"].values()]


def check_playcards(g: Game) -> None:
    """Every play card is in exactly one place: in one zone, or on the maze.

    The API gives the cards of a zone as indices but the tiles of a board only by name,
    so the cards that are in no zone must be, by name, exactly the tiles on the maze."""
    held = in_zones(g, CARD_ZONES, CARD_ZONES_PER_PLAYER)
    assert len(set(held)) == len(held), "a card is in two zones, or twice in one"
    assert set(held) <= set(range(PLAYCARDS))
    elsewhere = sorted(g.name_of("playcard", c) for c in set(range(PLAYCARDS)) - set(held))
    assert sorted(maze_tiles(g)) == elsewhere


def nuggets_held(g: Game) -> list[Any]:
    """Every nugget card in a zone, sorted (all of them: nuggets never leave the zones)."""
    return sorted(in_zones(g, NUGGET_ZONES, ("gold",)))


def zone_labels(g: Game) -> list[tuple[str, int | None]]:
    """Every zone of the game as (name, owner), per-player zones once per player."""
    zones = g.view(None, only={"zones"})["zones"]
    out: list[tuple[str, int | None]] = []
    for label in zones:
        name, _, owner = label.partition("[")
        out.append((name, g.player_names.index(owner[:-1]) if owner else None))
    return out


def snapshot(g: Game) -> tuple[object, ...]:
    """Everything the API tells about a position, omniscient: two games with equal
    snapshots are the same game."""
    return (
        g.view(None),
        [g.items(z, p) for z, p in zone_labels(g)],
        g.events(),
        g.history(None),
        g.pending(),
        g.current_player(),
        g.turn_number,
        g.results(),
    )

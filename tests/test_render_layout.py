"""rulelang.render.layout: the boards' shapes the browser table draws, read from the
rules only (the same for every viewer and every moment of a game)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import rulelang
from rulelang.render.layout import layout

ROOT = Path(__file__).parent.parent


def game_of(name: str, players: int) -> rulelang.Game:
    return rulelang.compile_file(ROOT / "rulesets" / f"{name}.rules").new_game(players, seed=1)


def test_a_ring_lists_its_nodes_and_what_stands_on_them() -> None:
    shape = layout(game_of("heimlich", 3))
    town = shape["boards"]["town"]
    assert town["shape"] == "ring" and town["bounded"] is True
    assert town["names"][:2] == ["church", "building 1"] and len(town["names"]) == 12
    assert town["placed"] == [
        {"owner": "agent", "attr": "at"},
        {"owner": "global", "attr": "safe"},
    ]
    assert shape["pieces"] == ["agent"] and shape["board_attrs"] == {}


def test_a_grid_gives_its_bounds_and_its_attributes_display() -> None:
    shape = layout(game_of("labyrinth", 2))
    maze = shape["boards"]["maze"]
    assert (maze["x0"], maze["y0"], maze["width"], maze["height"]) == (0, 0, 8, 8)
    assert maze["placed"] == [{"owner": "player", "attr": "at"}]
    attrs = shape["board_attrs"]
    assert attrs["flow"]["display"] == "direction" and not attrs["flow"]["edge"]
    assert attrs["portal_to"]["display"] == "node(maze)"
    assert attrs["wall"] == {"board": "maze", "edge": True, "display": "", "type": "bool"}
    assert "visited" in shape["bookkeeping"]["player"]


def test_an_open_grid_has_no_bounds() -> None:
    maze = layout(game_of("saboteur", 4))["boards"]["maze"]
    assert maze["shape"] == "grid" and maze["bounded"] is False
    assert "x0" not in maze and maze["names"] == []


def test_the_layout_is_plain_data_and_never_changes_with_the_game() -> None:
    """Every shipped game's layout is JSON, and the same after 30 random decisions:
    it holds nothing of the position, so nothing any viewer may not see."""
    for path in sorted([*ROOT.glob("rulesets/*.rules"), *ROOT.glob("rulesets/examples/*.rules")]):
        rules = rulelang.compile_file(path)
        game = rules.new_game(max(rules.min_players, 2), seed=2)
        before = json.dumps(layout(game))
        rng = random.Random(1)
        for _ in range(30):
            if game.is_over():
                break
            game.apply(rng.choice(game.legal_actions()))
        assert json.dumps(layout(game)) == before, path.name

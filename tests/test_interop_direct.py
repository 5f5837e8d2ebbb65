"""interop/direct.py sums an observation's features from the game's state without
building the view: at every position it must give exactly what walking the view gives
(`features.counts(view(seat, only=PARTS))`, the definition), for every seat."""

from __future__ import annotations

import random

import numpy as np
import pytest

import rulelang
from rulelang.interop import direct, features
from rulelang.interop.common import HEADER, OBS_SIZE, PARTS
from tests.interop_support import ROOT, SHIPPED, table_size

WIDTH = OBS_SIZE - HEADER

# what the shipped games do not all show: hidden and owner-only player attributes,
# attributes of other types than int, bool and text, pieces with a hidden attribute,
# a board's state of a node type and an edge attribute, private messages, a list global
EVERYTHING = """
game "Everything"
players 2..3
board grid = grid(0, 1, 0, 1) {
  state mark: text = ""
  state next: node(grid) = 0
  edge wall: bool = false
}
piece pawn count 2 {
  name: text = "pawn {index + 1}"
  at: node(grid) = 0
  power: int = index visible to none
}
player {
  score: int = 0
  held: pawn visible to owner
  guess: int = 0 visible to none
  mood: text = "calm" visible to owner
  tell: int = 1 visible to others
}
global {
  picked: list(int) = []
  hidden: int = 3 visible to none
  who: player = none
}
turn {
  choose c in nodes(grid) prompt "Which cell?"
  set grid.mark[c] = "{current}"
  set grid.next[c] = c
  set current.score += 1
  set current.tell += 2
  set current.held = first(pieces(pawn))
  set picked = picked + [current.seat]
  set who = current
  say "You chose {c}." to current
}
end when len(picked) >= 6 { draw players }
"""


def assert_direct_is_the_view(
    ruleset: rulelang.Ruleset, players: int, seed: int, most: int
) -> None:
    game = ruleset.new_game(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(most):
        for seat in range(players):
            seen = features.counts(game.view(seat, only=PARTS), WIDTH)
            assert np.array_equal(direct.counts(game, seat, WIDTH), seen), (seat, game.state.turn)
        if game.is_over():
            return
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])


@pytest.mark.parametrize("path", SHIPPED)
def test_the_direct_sums_are_the_views_in_every_shipped_game(path: str) -> None:
    ruleset = rulelang.compile_file(ROOT / path)
    assert_direct_is_the_view(ruleset, table_size(ruleset), seed=5, most=25)


def test_the_direct_sums_are_the_views_for_every_kind_of_part() -> None:
    ruleset = rulelang.compile_source(EVERYTHING, "everything.rules")
    for players in (2, 3):
        assert_direct_is_the_view(ruleset, players, seed=players, most=10)

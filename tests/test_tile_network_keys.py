"""What is kept of a start keyed by a number (runtime/tiles.py, `KEY_SPAN`, `Kept`):
`state.reach[base + start]` holds the network and the demands, `base` 0 for the first
tiled board, so a read makes and hashes no tuple, and finds the start cell itself. Shown firing, two
boards kept apart, and a start that is `none` answered as before (nothing joined)."""

from __future__ import annotations

import random
from pathlib import Path

import rulelang
from rulelang.runtime.tiles import KEY_SPAN

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"

# Two mazes of crosses from the same cell: a card goes on the one the player names.
TWO = """
players 2..2
card tunnel count 40 { edges: list(bool) = [true, true, true, true] }
zone pile: tunnel visible to all
board left = grid(-5, 5, -5, 5) tiles tunnel
board right = grid(-5, 5, -5, 5) tiles tunnel

setup {
  add pieces(tunnel) to pile
  place first(pile) on left at cell(left, 0, 0)
  place first(pile) on right at cell(right, 0, 0)
}

turn {
  choose s in spots(left, cell(left, 0, 0))
  place first(pile) on left at s
  say "left {len(spots(left, cell(left, 0, 0)))} right {len(spots(right, cell(right, 0, 0)))} \
far {len(spots(left, cell(left, 9, 9)))} {joins(left, s, first(pile), 0, cell(left, 9, 9))}"
}

end when turn_number > 3 { win [current] }
"""


def test_saboteur_keeps_its_network_under_the_start_cell() -> None:
    rules = rulelang.compile_file(SABOTEUR)
    game = rules.new_game(4, seed=3)
    game.playout(random.Random(3), max_decisions=40)
    st = game.state
    start = st.cfg.boards["maze"].cell(0, 0)  # type: ignore[attr-defined]
    ops = next(iter(rules.ex.tiles.values()))
    ops.network(st, start)
    ops.joins(st, start, 0, 0, start)  # the demands worked out
    assert ops.base == 0
    assert st.reach[start].net == ops.network(st, start)  # one entry for the start
    assert st.reach[start].demands is ops._demands(st, start)


def test_two_boards_keep_their_own_networks_and_none_joins_nothing() -> None:
    rules = rulelang.compile_source(TWO, "two.rules")
    bases = sorted(ops.base for ops in rules.ex.tiles.values())
    assert bases == [0, KEY_SPAN]
    game = rules.new_game(2, seed=1)
    game.apply(game.legal_actions()[0].text)
    said = game.history(None)[-1]
    # left: a cross laid next to the first, 4 + 4 - 2 spots; right: the first alone;
    # a start off the grid (`none`): no spots, and `joins` to it is false
    assert said == "left 6 right 4 far 0 no"

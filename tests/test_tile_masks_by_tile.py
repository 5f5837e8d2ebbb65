"""Each tile's open-side masks read by tile (runtime/tiles.py, `TileOps.masks_of`):
for an edges column no rule changes, a list indexed by tile, kept while the column is
the same object (shared by every game and clone of a table), instead of a dict keyed
by the edges, hashed at each read. Shown firing, off where rules change the edges
(their masks read from the column as it is), and answering as the edges say."""

from __future__ import annotations

import random
from pathlib import Path

import rulelang
from rulelang.runtime.tiles import TileOps

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"

# Cards open on every side until a turn closes the next one laid on its west side.
TURNING = """
players 2..2
card tunnel count 40 { edges: list(bool) = [true, true, true, true] }
zone pile: tunnel visible to all
board maze = grid() tiles tunnel

def home() = cell(maze, 0, 0)

setup {
  add pieces(tunnel) to pile
  place first(pile) on maze at home()
}

turn {
  choose shut in [false, true]
  if shut {
    set first(pile).edges = [true, true, true, false]
  }
  choose s in spots(maze, home()) require joins(maze, s, first(pile), 0, home()) else "no"
  place first(pile) on maze at s
}

end when turn_number > 6 { win [current] }
"""


def ops_of(rules: rulelang.Ruleset) -> TileOps:
    return next(iter(rules.ex.tiles.values()))


def test_saboteur_reads_masks_by_tile_from_the_shared_column() -> None:
    rules = rulelang.compile_file(SABOTEUR)
    ops = ops_of(rules)
    assert ops.fixed_edges
    game = rules.new_game(5, seed=4)
    game.playout(random.Random(4), max_decisions=60)
    col = game.state.cols[ops.edges_col]
    assert ops._col is col  # kept for the column the games read (fired)
    assert ops._by_tile == [ops._sides(e) for e in col]
    clone = game.clone()
    assert clone.state.cols[ops.edges_col] is col  # a clone reads the same list


def test_rules_that_change_the_edges_read_them_as_they_are() -> None:
    rules = rulelang.compile_source(TURNING, "turning.rules")
    ops = ops_of(rules)
    assert not ops.fixed_edges
    game = rules.new_game(2, seed=1)
    game.apply("yes")  # the next card's west side shut
    offered = {a.text for a in game.legal_actions()}
    assert offered == {"0,-1", "0,1", "-1,0"}  # not east of home: its west side is shut
    assert ops._col is None  # nothing kept (switched off for this column)
    game.apply("0,1")
    game.apply("no")  # the next card open all round
    assert {"1,0", "-1,0", "0,-1"} <= {a.text for a in game.legal_actions()}


def test_an_edit_of_a_tile_s_edges_is_read_at_once() -> None:
    """The edges column of TURNING's first game kept, then a tile's edges edited by hand
    (`Game.edit().set`, which copies a shared column before writing): the spots where
    it joins follow the edit."""
    fixed = TURNING.replace("set first(pile).edges = [true, true, true, false]", 'say "shut"')
    rules = rulelang.compile_source(fixed, "t.rules")
    ops = ops_of(rules)
    assert ops.fixed_edges  # no rule changes the edges now
    game = rules.new_game(2, seed=1)
    game.apply("no")
    assert {a.text for a in game.legal_actions()} == {"0,-1", "-1,0", "1,0", "0,1"}
    assert ops._col is game.state.cols[ops.edges_col]  # kept
    nxt = game.state.zones[0][0]  # the next card laid (`first(pile)`)
    game.edit().set("edges", (True, True, True, False), of=nxt, kind="tunnel")
    assert {a.text for a in game.legal_actions()} == {"0,-1", "-1,0", "0,1"}

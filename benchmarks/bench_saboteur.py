"""Saboteur's tile network: every legal placement of a hand on a large maze, and how
many network searches that takes (a benchmark of rulelang/runtime/tiles.py, so it
reads the runtime's internals). Playouts are measured by compare.py.

    python benchmarks/bench_saboteur.py
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import rulelang
from rulelang.runtime import tiles

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"


def large_maze(seed: int) -> rulelang.Game:
    """A game in which players keep playing path cards until the maze is large."""
    rules = rulelang.compile_file(RULES)
    game = rules.new_game(5, seed)
    rng = random.Random(seed)
    ops = rules.ex.tiles["maze"]
    while len(game.state.layers[ops.layer]) < 30:
        actions = game.legal_actions()
        play = [a for a in actions if a.text == "play"]
        game.apply(play[0] if play else actions[int(rng.random() * len(actions))])
        if game.is_over():
            raise SystemExit("the game ended before the maze grew; try another seed")
    return game


def placements(game: rulelang.Game) -> tuple[int, int, float]:
    """Every (card, cell, turn) a hand of 6 tunnels could be placed with."""
    st, ops = game.state, game.rules.ex.tiles["maze"]
    start = st.cfg.boards["maze"].cell(0, 0)
    kind = next(k for k in game.rules.program.kinds if k.name == "playcard")
    names = st.cols[kind.attrs["name"].slot]
    hand = [i for i, n in enumerate(names) if n.startswith(("tunnel", "dead end"))][:6]
    searches = 0
    original = tiles.TileOps.network

    def counted(self: tiles.TileOps, state: object, node: int) -> object:
        nonlocal searches
        if self.base + node not in state.reach:  # type: ignore[attr-defined]
            searches += 1
        return original(self, state, node)

    tiles.TileOps.network = counted  # type: ignore[method-assign]
    st.reach = {}
    try:
        begin = time.perf_counter()
        found = [
            (c, s, t)
            for c in hand
            for s in ops.network(st, start)[2]
            for t in (0, 2)
            if ops.joins(st, s, c, t, start)
        ]
        seconds = time.perf_counter() - begin
    finally:
        tiles.TileOps.network = original  # type: ignore[method-assign]
    return len(found), searches, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = large_maze(args.seed)
    placed = len(game.state.layers[game.rules.ex.tiles["maze"].layer])
    count, searches, seconds = placements(game)
    print(
        f"legal placements of a 6-card hand on a maze of {placed} cards: {count} found in "
        f"{seconds * 1e6:.0f} us with {searches} network search(es)"
    )


if __name__ == "__main__":
    main()

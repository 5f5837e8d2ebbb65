"""The tile functions of another tree against this one's, in one process.

Loads an older runtime/tiles.py (a file, e.g. `git show REV:rulelang/runtime/tiles.py`)
beside the installed one and plays the same random games of a rule file with the
methods of `TileOps` taken from each in turn, alternating in blocks (the order rotates
from block to block), each block timed with time.process_time() around the games
only. Prints, per player count, the median over the blocks of this tree's time over
the other's, and checks that both sides took the same decisions (the same games).

    git show 68b020f:rulelang/runtime/tiles.py > /tmp/old_tiles.py
    python benchmarks/tiles_ab.py /tmp/old_tiles.py rulesets/saboteur.rules --players 3 5 10

Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from pathlib import Path
from typing import Any

import rulelang
from rulelang.runtime import tiles

Methods = dict[str, Any]


def methods_of(path: Path) -> Methods:
    """The functions of `TileOps` in the file at path, loaded as a module of its own."""
    spec = importlib.util.spec_from_file_location("tiles_other", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return {n: f for n, f in vars(module.TileOps).items() if callable(f) and n[:2] != "__"}


def use(methods: Methods) -> None:
    """Give `TileOps` these methods; those the other side has and these lack go."""
    for name in [n for n, f in vars(tiles.TileOps).items() if callable(f) and n[:2] != "__"]:
        if name not in methods:
            delattr(tiles.TileOps, name)
    for name, f in methods.items():
        setattr(tiles.TileOps, name, f)


def block(rules: Any, players: int, games: int, seed: int) -> tuple[float, int]:
    """CPU seconds and decisions of `games` random quiet games."""
    rng = random.Random(seed)
    decisions = 0
    t = time.process_time()
    for i in range(games):
        decisions += rules.new_game(players, seed * 1000 + i).playout(rng, quiet=True)
    return time.process_time() - t, decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("other", type=Path, help="another tree's runtime/tiles.py")
    ap.add_argument("rules", type=Path)
    ap.add_argument("--players", type=int, nargs="+", default=[5])
    ap.add_argument("--blocks", type=int, default=9)
    ap.add_argument("--games", type=int, default=40, help="games per block")
    args = ap.parse_args()
    rules = rulelang.compile_file(args.rules)
    mine = {n: f for n, f in vars(tiles.TileOps).items() if callable(f) and n[:2] != "__"}
    sides = {"this": mine, "other": methods_of(args.other)}
    for players in args.players:
        ratios = []
        for methods in sides.values():  # warm up: kept cells, faces, answers of the table
            use(methods)
            block(rules, players, 2, args.blocks + 1)
        for b in range(args.blocks):
            timed = {}
            for name in ("this", "other") if b % 2 else ("other", "this"):
                use(sides[name])
                timed[name] = block(rules, players, args.games, b)
            assert timed["this"][1] == timed["other"][1], "not the same games"
            ratios.append(timed["this"][0] / timed["other"][0])
        ms = timed["this"][0] / args.games * 1e3
        print(
            f"{players} players: this / other {statistics.median(ratios):.3f} "
            f"({min(ratios):.3f}-{max(ratios):.3f}), {ms:.2f} ms a game, "
            f"{timed['this'][1] / args.games:.1f} decisions a game"
        )
    use(mine)


if __name__ == "__main__":
    main()

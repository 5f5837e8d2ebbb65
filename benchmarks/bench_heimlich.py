"""Random playouts per second: rulelang running heimlich.rules vs. hand-written Python.

Both play the same random game (the same decisions, each uniform among the legal
options) on one core, in the same process, so the ratio is fair on any machine:

    python benchmarks/bench_heimlich.py --players 4 --games 3000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import heimlich_handwritten  # noqa: E402

import rulelang  # noqa: E402


def engine(players: int, games: int, seed: int) -> tuple[float, float]:
    rules = rulelang.compile_file(HERE.parent / "rulesets" / "heimlich.rules")
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        decisions += rules.new_game(players, seed + i).playout(rng)
    return time.perf_counter() - start, decisions / games


def handwritten(players: int, games: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        decisions += heimlich_handwritten.play_game(players, rng)[1]
    return time.perf_counter() - start, decisions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    args = parser.parse_args()
    rows = []
    for name, fn in (("rulelang", engine), ("hand-written", handwritten)):
        best, mean_decisions = min(fn(args.players, args.games, args.seed)
                                   for _ in range(args.repeat))
        rows.append((name, args.games / best, mean_decisions))
        print(f"{name:<13} {args.games / best:>8.0f} games/s   "
              f"{mean_decisions:6.1f} decisions/game   ({args.games} games, best of "
              f"{args.repeat})")
    print(f"rulelang is {rows[1][1] / rows[0][1]:.2f}x slower than hand-written Python")


if __name__ == "__main__":
    main()

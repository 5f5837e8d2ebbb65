"""Iterations per second of the search bots (rulelang/search), per game.

For each game, a few positions of a random game (its start, and after some random
decisions); at each, MCTS and ISMCTS search for a fixed number of iterations, timed
with time.process_time() (CPU time: a loaded machine slows the wall clock, not this).

    python benchmarks/search.py
    python benchmarks/search.py --iterations 200 --game heimlich

Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

import rulelang
from rulelang.search.mcts import Budget, search

ROOT = Path(__file__).resolve().parent.parent
GAMES = {  # name: (rule file, players, options)
    "tictactoe": ("rulesets/examples/tictactoe.rules", 2, {}),
    "heimlich": ("rulesets/heimlich.rules", 4, {}),
    "saboteur": ("rulesets/saboteur.rules", 4, {"rounds": "1"}),  # with its estimate
    "topsecret": ("rulesets/heimlich-topsecret.rules", 4, {}),
    "stoneseekers": ("rulesets/saboteur-stoneseekers.rules", 4, {}),
    # its map pictured anew for each determinization (imagine), scored by its estimate
    "labyrinth": ("rulesets/labyrinth.rules", 4, {}),
}


def measure(name: str, iterations: int, positions: int) -> dict[str, float]:
    path, players, options = GAMES[name]
    rules = rulelang.compile_file(ROOT / path)
    out = {}
    for bot, information_sets in (("mcts", False), ("ismcts", True)):
        spent, done = 0.0, 0
        for k in range(positions):
            game = rules.new_game(players, seed=k, options=options)
            game.playout(random.Random(k), max_decisions=k * 3)
            if game.is_over():
                continue
            start = time.process_time()
            search(game, Budget(iterations), random.Random(k), information_sets)
            spent += time.process_time() - start
            done += iterations
        out[bot] = done / spent
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=list(GAMES), action="append")
    parser.add_argument("--iterations", type=int, default=100)
    parser.add_argument("--positions", type=int, default=3)
    args = parser.parse_args()
    print(f"{'game':<12}{'mcts it/s':>12}{'ismcts it/s':>14}")
    for name in args.game or list(GAMES):
        rates = measure(name, args.iterations, args.positions)
        print(f"{name:<12}{rates['mcts']:>12.0f}{rates['ismcts']:>14.0f}")


if __name__ == "__main__":
    main()

"""Games per CPU second of rule files played by their bots, compared in one process.

Each rule file plays whole games on the simulation fast path (`Game.playout` with
uniformly random decisions) or, with `--declared`, with its declared bots through
`Game.bot_choice`; the files alternate in blocks timed with time.process_time(), and
the report gives each file's median games per CPU second and the median of the
per-block ratios to the first file (a busy machine slows both sides of a ratio alike).

    python benchmarks/variants.py rulesets/heimlich.rules rulesets/heimlich-topsecret.rules -p 4
    python benchmarks/variants.py rulesets/saboteur-stoneseekers.rules -p 5 --declared

Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import rulelang
from rulelang import CHANCE, Ruleset


def play_random(rules: Ruleset, players: int, seed: int) -> None:
    game = rules.new_game(players, seed=seed)
    game.playout(random.Random(seed))


def play_declared(rules: Ruleset, players: int, seed: int) -> None:
    game = rules.new_game(players, seed=seed)
    while not game.is_over():
        if game.current_player() == CHANCE:
            raise SystemExit("a chance event waits: new_game resolves chance by itself")
        game.apply(game.bot_choice())


def block(rules: Ruleset, players: int, seeds: range, declared: bool) -> float:
    """CPU seconds for one game per seed."""
    play = play_declared if declared else play_random
    start = time.process_time()
    for seed in seeds:
        play(rules, players, seed)
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("-p", "--players", type=int, required=True)
    ap.add_argument("--blocks", type=int, default=7)
    ap.add_argument("--games", type=int, default=40, help="games per block")
    ap.add_argument("--declared", action="store_true", help="play the declared bots")
    args = ap.parse_args()
    rules = [rulelang.compile_file(f) for f in args.files]
    times: list[list[float]] = [[] for _ in rules]
    for b in range(args.blocks):
        seeds = range(b * args.games, (b + 1) * args.games)
        order = list(range(len(rules)))
        order = order[b % len(order) :] + order[: b % len(order)]
        for i in order:
            times[i].append(block(rules[i], args.players, seeds, args.declared))
    how = "declared bots" if args.declared else "random playouts"
    print(f"{args.players} players, {how}, {args.blocks} blocks of {args.games} games")
    for f, ts in zip(args.files, times, strict=True):
        rate = statistics.median(args.games / t for t in ts)
        ratio = statistics.median(t0 / t for t0, t in zip(times[0], ts, strict=True))
        print(f"  {f}: {rate:.0f} games per CPU second; {ratio:.2f} x the first file's rate")


if __name__ == "__main__":
    main()

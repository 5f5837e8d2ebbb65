"""What quiet playouts gain: the same random games played loud and quiet, in one process.

`Game.playout(rng, quiet=True)` skips the rule file's `say` statements (simulate's
random games and the search's playouts read no message). This plays the games of a
rule file both ways, alternating in blocks (the order rotates from block to block),
each block timed with time.process_time() around the games only, and prints the
median over the blocks of the per-block ratios, with the decisions of each side (the
same: the same games are played).

    python benchmarks/quiet_gain.py rulesets/labyrinth.rules --players 4
    python benchmarks/quiet_gain.py rulesets/saboteur.rules --players 3 5 10

Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from pathlib import Path
from typing import Any

import rulelang
from rulelang.simulation.worker import bot_rng, fewer_collections


def block(rules: Any, players: int, games: int, seed: int, quiet: bool) -> tuple[float, int]:
    """CPU seconds and decisions of `games` random games, as `simulate` plays them."""
    gc.collect()
    decisions = 0
    with fewer_collections():
        start = time.process_time()
        for i in range(seed, seed + games):
            decisions += rules.new_game(players, i).playout(bot_rng(i), quiet=quiet)
        return time.process_time() - start, decisions


def gain(rules: Any, players: int, args: argparse.Namespace) -> None:
    block(rules, players, 3, args.seed + args.games, True)  # warm-up: the template
    seconds: dict[bool, list[float]] = {False: [], True: []}
    decisions: dict[bool, int] = {}
    for b in range(args.blocks):
        for quiet in (False, True) if b % 2 == 0 else (True, False):
            took, decisions[quiet] = block(rules, players, args.games, args.seed, quiet)
            seconds[quiet].append(took)
    ratios = [lo / qu for lo, qu in zip(seconds[False], seconds[True], strict=True)]
    rate = {q: statistics.median(args.games / s for s in seconds[q]) for q in seconds}
    print(
        f"{players} players: loud {rate[False]:.1f}, quiet {rate[True]:.1f} games/CPU s; "
        f"quiet is {statistics.median(ratios):.2f}x as fast ({min(ratios):.2f}-"
        f"{max(ratios):.2f}); decisions {decisions[False]} / {decisions[True]}, "
        f"{args.games} games x {args.blocks}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rules", type=Path, help="a rule file")
    ap.add_argument("--players", type=int, nargs="+", default=[4])
    ap.add_argument("--games", type=int, default=40, help="games per block")
    ap.add_argument("--blocks", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed")
    args = ap.parse_args()
    rules = rulelang.compile_file(args.rules)
    for players in args.players:
        gain(rules, players, args)


if __name__ == "__main__":
    main()

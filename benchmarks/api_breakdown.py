"""Where a decision of the API path goes: per-decision CPU µs of the same random games
played four ways, alternated in blocks, medians:

  fast        `game.playout(rng)` (decisions taken inside the generated code);
  api         `legal_actions()` and `apply(action)`, as compare.py's API path;
  values      `legal_values()` and `choose(value)`: no option texts;
  no-log      as api, with the rule file's log sentences of choices turned off (the
              specs changed in place, for this measurement only: texts differ).

    python benchmarks/api_breakdown.py --game heimlich --players 4
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import rulelang

ROOT = Path(__file__).resolve().parent.parent
CHANCE = int(rulelang.CHANCE)


def by_actions(game: Any, rng: random.Random) -> int:
    taken = 0
    while not game.is_over():
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
        taken += 1
    return taken


def by_values(game: Any, rng: random.Random) -> int:
    taken = 0
    while not game.is_over():
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        values = game.legal_values()
        game.choose(values[int(rng.random() * len(values))])
        taken += 1
    return taken


def fast(game: Any, rng: random.Random) -> int:
    return int(game.playout(rng))


def block(
    rules: Any, way: Callable[[Any, random.Random], int], players: int, games: int, b: int
) -> float:
    rng = random.Random(b)
    gc.collect()
    start = time.process_time()
    taken = sum(way(rules.new_game(players, seed=b * 1000 + i), rng) for i in range(games))
    return (time.process_time() - start) / taken * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--game", default="heimlich", help="a rule file of rulesets/, without .rules"
    )
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=150, help="games per block")
    parser.add_argument("--blocks", type=int, default=5)
    args = parser.parse_args()
    print(
        f"python benchmarks/api_breakdown.py --game {args.game} --players {args.players} "
        f"--games {args.games} --blocks {args.blocks}"
    )
    normal = rulelang.compile_file(ROOT / "rulesets" / f"{args.game}.rules")
    silent = rulelang.compile_file(ROOT / "rulesets" / f"{args.game}.rules")
    for spec in silent.code.choices.values():
        object.__setattr__(spec, "narrate", None)  # frozen: for this measurement only
    ways = {
        "fast": (normal, fast),
        "api": (normal, by_actions),
        "values": (normal, by_values),
        "no-log": (silent, by_actions),
    }
    for rules, way in ways.values():  # one-off costs (a player count's template) first
        block(rules, way, args.players, 5, -1)
    times: dict[str, list[float]] = {name: [] for name in ways}
    names = list(ways)
    for b in range(args.blocks):
        for name in names[b % 4 :] + names[: b % 4]:
            rules, way = ways[name]
            times[name].append(block(rules, way, args.players, args.games, b))
    for name in names:
        ratios = [t / f for t, f in zip(times[name], times["fast"], strict=True)]
        print(
            f"{name:>7}: {statistics.median(times[name]):6.2f} µs per decision, "
            f"÷ fast {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()

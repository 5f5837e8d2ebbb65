"""Where a decision of the API path goes: per-decision CPU µs of the same random games
played four ways, alternated in blocks, medians:

  fast        `game.playout(rng)` (decisions taken inside the generated code);
  api         `legal_actions()` and `apply(action)`, as compare.py's API path;
  values      `legal_values()` and `choose(value)`: no option texts;
  no-log      as api, with the rule file's log sentences of choices turned off (the
              specs changed in place, for this measurement only: texts differ; its
              rules compiled with runtime/tell.py's TELL off, whose resumes test
              `spec.narrate` when they record, where TELL's are fixed when compiled);
  no-query    as api, without `is_over()` and `current_player()` (the state read);
  floor       no API call: the options read from the state and the choice's generated
              resume called directly (what the generated code costs paused and resumed).

With --quiet every game is quiet (`new_game(..., quiet=True)`: no messages, no log)
and the fast path a quiet playout: like compared with like, as for loud games.

    python benchmarks/api_breakdown.py --game heimlich --players 4
    python benchmarks/api_breakdown.py --game heimlich --players 4 --quiet
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
from rulelang.runtime import tell
from rulelang.runtime.code import PAUSE, run

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


def no_query(game: Any, rng: random.Random) -> int:
    taken, st = 0, game.state
    while not st.over:  # (no chance events wait: Heimlich rolls inside the code)
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
        taken += 1
    return taken


def floor(game: Any, rng: random.Random) -> int:
    taken, st, resumes, code = 0, game.state, game.rules.code.resumes, game.rules.code
    while not st.over:
        options, spec, resume = st.options, st.pending, resumes[st.pending.pc]
        value = options[int(rng.random() * len(options))]
        if resume is None:  # a choice whose record has a line for others
            game._resume(st, spec, value)
        elif (pc := resume(st, spec, value)) != PAUSE:
            run(code, st, pc)
        taken += 1
    return taken


def fast(game: Any, rng: random.Random) -> int:
    return int(game.playout(rng))  # quiet if the game is


def block(
    rules: Any,
    way: Callable[[Any, random.Random], int],
    players: int,
    games: int,
    b: int,
    quiet: bool = False,
) -> float:
    rng = random.Random(b)
    gc.collect()
    start = time.process_time()
    taken = sum(
        way(rules.new_game(players, seed=b * 1000 + i, quiet=quiet), rng) for i in range(games)
    )
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
    parser.add_argument("--quiet", action="store_true", help="quiet games (see above)")
    args = parser.parse_args()
    print(
        f"python benchmarks/api_breakdown.py --game {args.game} --players {args.players} "
        f"--games {args.games} --blocks {args.blocks}" + (" --quiet" if args.quiet else "")
    )
    normal = rulelang.compile_file(ROOT / "rulesets" / f"{args.game}.rules")
    tell.TELL = False  # (the resumes then test `spec.narrate`: see the docstring)
    silent = rulelang.compile_file(ROOT / "rulesets" / f"{args.game}.rules")
    tell.TELL = True
    for spec in silent.code.choices.values():
        object.__setattr__(spec, "narrate", None)  # frozen: for this measurement only
    ways = {
        "fast": (normal, fast),
        "api": (normal, by_actions),
        "values": (normal, by_values),
        "no-log": (silent, by_actions),
        "no-query": (normal, no_query),
        "floor": (normal, floor),
    }
    for rules, way in ways.values():  # one-off costs (a player count's template) first
        block(rules, way, args.players, 5, -1, args.quiet)
    times: dict[str, list[float]] = {name: [] for name in ways}
    names = list(ways)
    for b in range(args.blocks):
        for name in names[b % len(names) :] + names[: b % len(names)]:
            rules, way = ways[name]
            times[name].append(block(rules, way, args.players, args.games, b, args.quiet))
    for name in names:
        ratios = [t / f for t, f in zip(times[name], times["fast"], strict=True)]
        print(
            f"{name:>8}: {statistics.median(times[name]):6.2f} µs per decision, "
            f"÷ fast {statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()

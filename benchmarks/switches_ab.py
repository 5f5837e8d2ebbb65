"""Saboteur's playouts with code generator switches on and off, timed in one process:
CPU time of alternated blocks of the same matches, the median ratio on / off.

    python benchmarks/switches_ab.py --players 3 5 10 --games 40 --blocks 11

The switches are those of the tenth Saboteur session (docs/performance.md); `--switch
MODULE.NAME` (repeated) names others of rulelang.runtime, and `--number
MODULE.NAME=ON:OFF` a setting that is a number, with its values for each side:

    python benchmarks/switches_ab.py --switch loops.NESTED --switch loops.TEMPS_BY_LINE \
        --switch exprgen.FRESH_TEMPS --number exprgen.INLINE_MAX=1200:160

Stdlib only, besides rulelang.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from pathlib import Path

import rulelang
from rulelang import Ruleset

ROOT = Path(__file__).resolve().parent.parent
SWITCHES = (
    "loops.HOISTED",
    "unordered.UNORDERED",
    "codegen.BRANCHED_OPTIONS",
    "dispatch.DISPATCH",
    "statelocals.CHOSEN",
    "sunk.SUNK",
)


def switched(
    names: list[str], on: bool, path: Path, players: int, numbers: tuple[str, ...] = ()
) -> Ruleset:
    """The rules compiled with the switches set to `on` (and each `MODULE.NAME=ON:OFF`
    of `numbers` to its value for that side), their lazy ops compiled (and chained) by
    60 warm-up matches while the switches hold."""
    settings: list[tuple[str, object]] = [(name, on) for name in names]
    for number in numbers:
        name, values = number.split("=")
        settings.append((name, int(values.split(":")[0 if on else 1])))
    for name, value in settings:
        module, attr = name.rsplit(".", 1)
        setattr(importlib.import_module(f"rulelang.runtime.{module}"), attr, value)
    rules = rulelang.compile_file(path)
    for i in range(60):
        rules.new_game(players, 5000 + i, quiet=True).playout(random.Random(i), quiet=True)
    return rules


def block(rules: Ruleset, players: int, games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.process_time()
    for i in range(games):
        rules.new_game(players, 1000 + i, quiet=True).playout(rng, quiet=True)
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, nargs="+", default=[3, 5, 10])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--blocks", type=int, default=11)
    ap.add_argument("--switch", action="append", default=None, metavar="MODULE.NAME")
    ap.add_argument("--number", action="append", default=[], metavar="MODULE.NAME=ON:OFF")
    ap.add_argument("--rules", type=Path, default=ROOT / "rulesets" / "saboteur.rules")
    args = ap.parse_args()
    names = args.switch or list(SWITCHES)
    numbers = tuple(args.number)
    for players in args.players:
        off = switched(names, False, args.rules, players, numbers)
        on = switched(names, True, args.rules, players, numbers)
        times: dict[bool, list[float]] = {True: [], False: []}
        for b in range(args.blocks):
            for flag in (True, False) if b % 2 == 0 else (False, True):
                times[flag].append(block(on if flag else off, players, args.games, b))
        ratios = [a / b for a, b in zip(times[True], times[False], strict=True)]
        ms = {k: statistics.median(v) / args.games * 1000 for k, v in times.items()}
        print(
            f"{players} players: on / off {statistics.median(ratios):.3f} "
            f"({min(ratios):.3f}-{max(ratios):.3f}); ms a match {ms[True]:.3f} / {ms[False]:.3f}"
        )


if __name__ == "__main__":
    main()

"""Matches of Saboteur's fast path, or of the yardstick, for callgrind: machine
instructions (and, with its cache and branch simulation, misses) counted, not timed,
so the load of a shared machine does not move them.

The measured matches run inside `functools.reduce`, which nothing else calls, so that
`--toggle-collect=functools_reduce` counts them alone (not the import, the compile
and the warm-up matches, which fill the lazy ops and CPython's specialisations):

    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=fast.out python benchmarks/callgrind_match.py fast 5 100
    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=plain.out python benchmarks/callgrind_match.py plain 5 100
    python benchmarks/callgrind_diff.py fast.out plain.out --matches 100

(add `--cache-sim=yes --branch-sim=yes` for misses; `--game heimlich` for another rule
file of rulesets/, its games counted as matches; `--off loops.HOISTED` compiles with a
switch of the code generator off, to count what it saves). The yardstick is
../shared/yardsticks/saboteur_plain.py; stdlib only, besides rulelang.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
YARDSTICKS = ROOT.parent / "shared" / "yardsticks"


def player(program: str, players: int, game: str) -> Callable[[int, random.Random], int]:
    """play(seed, rng) -> the decisions of one match (of `game`, a rule file of rulesets/)."""
    if program == "plain":
        sys.path.insert(0, str(YARDSTICKS))
        import saboteur_plain  # type: ignore[import-not-found]

        return lambda _seed, rng: int(saboteur_plain.play_match(players, rng)[1])
    import rulelang

    rules = rulelang.compile_file(ROOT / "rulesets" / f"{game}.rules")
    if program == "fast":
        return lambda seed, rng: rules.new_game(players, seed, quiet=True).playout(rng, quiet=True)
    if program == "fast-loud":
        return lambda seed, rng: rules.new_game(players, seed).playout(rng)
    quiet = program == "api-quiet"
    for i in range(20):  # playouts first, as compare.py's: the chained ops made
        rules.new_game(players, 6000 + i, quiet=True).playout(random.Random(i), quiet=True)
    from compare import api_game  # compare.py's API loop (it imports rulelang, as here)

    return lambda seed, rng: api_game(rules.new_game(players, seed, quiet=quiet), rng)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", choices=("fast", "fast-loud", "api", "api-quiet", "plain"))
    ap.add_argument("players", type=int)
    ap.add_argument("matches", type=int)
    ap.add_argument("--warmup", type=int, default=40, help="matches played first, not counted")
    ap.add_argument("--game", default="saboteur", help="a rule file of rulesets/ (not for plain)")
    ap.add_argument(
        "--off",
        action="append",
        default=[],
        metavar="MODULE.SWITCH",
        help="a switch of rulelang.runtime set False before compiling (loops.HOISTED)",
    )
    args = ap.parse_args()
    for switch in args.off:
        module, name = switch.rsplit(".", 1)
        setattr(importlib.import_module(f"rulelang.runtime.{module}"), name, False)
    play = player(args.program, args.players, args.game)
    rng = random.Random(7)
    for i in range(args.warmup):
        play(5000 + i, rng)
    rng = random.Random(1)
    start = time.process_time()
    decisions = functools.reduce(lambda d, i: d + play(1000 + i, rng), range(args.matches), 0)
    spent = time.process_time() - start
    print(f"{args.program}: {args.matches} matches, {decisions} decisions, {spent:.3f} s CPU")


if __name__ == "__main__":
    main()

"""The API path of rules compiled three ways, in one process, blocks alternated (CPU
time, medians), each ÷ the fast path and ÷ both switches off:

  base   chaining.RUN_ON and codegen.PAUSED_PLAIN off (as before apichain);
  plain  PAUSED_PLAIN alone: `apply` runs the ops after a resume as first compiled;
  runon  both: resumes that run on to the next pause as well.

With `--ways texts`, the legal actions' switches of runtime/engine.py instead (RUN_ON
and PAUSED_PLAIN on; set at compile time and before each block, each way its own rules
and so its own kept actions):

  base   BY_VALUE and SUBSCRIPT off (as before apiedge): every choice kept by option set;
  value  BY_VALUE alone: a choice whose sets seldom come again kept by value;
  subscr both: the kept texts read by subscript.

With `--ways calls`, the switches of the API's own calls (heimgen; set at compile time
and before each block, each way its own rules, so its own generated `apply`):

  base    engine.SETS_BY_SUBSCRIPT and inlined.INLINED off;
  subscr  SETS_BY_SUBSCRIPT alone: a choice's kept option sets read by subscript;
  inline  both: `apply` generated per rule file with the settled resumes' code in it.

With `--ways steps`, the switches of heimapi5 (set at compile time and before each
block, each way its own rules, so its own generated `apply`):

  base    engine.SHORT_LEGAL and inlined.BY_SPEC off;
  short   SHORT_LEGAL alone: `legal_actions` answers a kept set in a short `try`;
  spec    both: the generated `apply` finds a copied resume by the pending spec.

Each is warmed up with fast playouts (so that the playouts' ops are chained, as in
compare.py's process) and enough API games for its resumes to run on
(codegen.RUN_ON_HOT calls).

    python benchmarks/api_switches.py --game saboteur --players 5 --games 40 --blocks 9
    python benchmarks/api_switches.py --game heimlich --players 4 --games 600 --blocks 9
    python benchmarks/api_switches.py --ways texts --game saboteur --players 3 --blocks 9
    python benchmarks/api_switches.py --ways calls --game heimlich --players 4 --games 600 \
        --warmup 750 --blocks 9
    python benchmarks/api_switches.py --ways steps --game heimlich --players 4 --games 600 \
        --warmup 750 --blocks 9
"""

from __future__ import annotations

import argparse
import gc
import statistics
import time
from collections.abc import Callable

from compare import ROOT, compile_rules, run_api, run_fast

from rulelang.runtime import chaining, codegen, engine, inlined

Way = dict[tuple[object, str], bool]
COMPILED: dict[str, Way] = {
    "base": {(chaining, "RUN_ON"): False, (codegen, "PAUSED_PLAIN"): False},
    "plain": {(chaining, "RUN_ON"): False, (codegen, "PAUSED_PLAIN"): True},
    "runon": {(chaining, "RUN_ON"): True, (codegen, "PAUSED_PLAIN"): True},
}
TEXTS: dict[str, Way] = {
    "base": {(engine, "BY_VALUE"): False, (engine, "SUBSCRIPT"): False},
    "value": {(engine, "BY_VALUE"): True, (engine, "SUBSCRIPT"): False},
    "subscr": {(engine, "BY_VALUE"): True, (engine, "SUBSCRIPT"): True},
}

CALLS: dict[str, Way] = {
    "base": {(engine, "SETS_BY_SUBSCRIPT"): False, (inlined, "INLINED"): False},
    "subscr": {(engine, "SETS_BY_SUBSCRIPT"): True, (inlined, "INLINED"): False},
    "inline": {(engine, "SETS_BY_SUBSCRIPT"): True, (inlined, "INLINED"): True},
}

STEPS: dict[str, Way] = {
    "base": {(engine, "SHORT_LEGAL"): False, (inlined, "BY_SPEC"): False},
    "short": {(engine, "SHORT_LEGAL"): True, (inlined, "BY_SPEC"): False},
    "spec": {(engine, "SHORT_LEGAL"): True, (inlined, "BY_SPEC"): True},
}


def switched(way: Way) -> None:
    for (module, name), on in way.items():
        setattr(module, name, on)


def timed(run: Callable[[], int]) -> float:
    gc.collect()
    start = time.process_time()
    decisions = run()
    return (time.process_time() - start) / decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="saboteur")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--games", type=int, default=40, help="games per block")
    parser.add_argument("--warmup", type=int, default=150, help="API games to warm up")
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument(
        "--ways", choices=("compiled", "texts", "calls", "steps"), default="compiled"
    )
    args = parser.parse_args()
    ways = {"texts": TEXTS, "calls": CALLS, "steps": STEPS}.get(args.ways, COMPILED)
    rules = {}
    for name, way in ways.items():
        switched(way)  # read when rules compile (RUN_ON, PAUSED_PLAIN) or run (the rest)
        rules[name] = compile_rules(ROOT / "rulesets" / f"{args.game}.rules")
        run_fast(rules[name], args.players, 20, 7, -1)
        run_api(rules[name], args.players, args.warmup, 7, -1)
    times: dict[str, list[float]] = {name: [] for name in [*ways, "fast"]}
    names = list(times)
    for b in range(args.blocks):
        for name in names[b % len(names) :] + names[: b % len(names)]:
            switched(ways["base" if name == "fast" else name])
            r = rules["base"] if name == "fast" else rules[name]
            way = run_fast if name == "fast" else run_api
            times[name].append(timed(lambda: way(r, args.players, args.games, 1, b)))  # noqa: B023
    switched(ways[list(ways)[-1]])
    for name in ways:
        fast = [a / f for a, f in zip(times[name], times["fast"], strict=True)]
        base = [a / f for a, f in zip(times[name], times["base"], strict=True)]
        print(
            f"{args.game} {args.players}p {name:>5}: "
            f"{statistics.median(times[name]) * 1e6:6.3f} µs a decision, "
            f"÷ fast {statistics.median(fast):.3f}, ÷ base {statistics.median(base):.3f} "
            f"({min(base):.3f}-{max(base):.3f})"
        )


if __name__ == "__main__":
    main()

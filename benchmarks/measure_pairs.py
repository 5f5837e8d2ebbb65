"""How much a search seat changes one of the rules' measures (docs/bots.md, "Strength"):
the paired version of strength.py for a game judged by a number, not a win (a
cooperative game's show, which every player loses or wins together). Each seed is
played twice, A with the rules' declared bots on every seat and B with the search bot
(`--bot`) on one seat; it prints each seed's measure in A and in B (on stderr, so that
a run stopped early still gives its pairs), then the mean of each, the mean of B - A
over the seeds with its 95% interval (normal approximation of the paired differences)
and the search's CPU time per decision (process time).

    python benchmarks/measure_pairs.py rulesets/examples/hanabi.rules -p 3 -n 40 \
        --seed 100 --bot ismcts:100 --measure show_size

Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import math
import sys

from strength import Clock, finished, pair_arguments

import rulelang


def play(
    rules: rulelang.Ruleset, args: argparse.Namespace, seed: int, mine: str | None, clock: Clock
) -> float:
    """One game (strength.py's, the search's decisions timed on `clock`): the measure at
    its end."""
    value = finished(rules, args, seed, mine, clock).measures()[args.measure]
    assert isinstance(value, int | float), f"{args.measure} is not one number"
    return float(value)


def main() -> None:
    parser = pair_arguments(__doc__.splitlines()[0], 40, "ismcts:100")
    parser.add_argument("--measure", required=True, help="a `measure` of the rules")
    args = parser.parse_args()
    rules = rulelang.compile_file(args.rules)
    diffs: list[float] = []
    a_sum = b_sum = 0.0
    clock = Clock()
    for seed in range(args.seed, args.seed + args.games):
        a = play(rules, args, seed, None, Clock())
        b = play(rules, args, seed, args.bot, clock)
        a_sum, b_sum = a_sum + a, b_sum + b
        diffs.append(b - a)
        print(f"seed {seed}: A {a:g}, B {b:g}", file=sys.stderr, flush=True)
    n = len(diffs)
    mean = sum(diffs) / n
    if n > 1:
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
        half = 1.96 * sd / math.sqrt(n)
        spread = f" ({mean - half:+.2f} .. {mean + half:+.2f}), paired"
    else:  # one seed has no spread: an interval would read (-inf .. +inf)
        spread = " (one seed: no interval)"
    print(
        f"{args.rules} -p {args.players} seeds {args.seed}..{args.seed + n - 1}, seat {args.seat}:"
    )
    print(
        f"  {args.measure}: A (declared) {a_sum / n:.2f}, B ({args.bot}) {b_sum / n:.2f};"
        f" B - A {mean:+.2f}{spread};"
        f" B higher on {sum(d > 0 for d in diffs)} seeds, lower on {sum(d < 0 for d in diffs)}"
    )
    if clock.decisions:
        print(
            f"  search: {clock.decisions} decisions, CPU {clock.seconds / clock.decisions:.3f} s"
            f" mean, {clock.worst:.3f} s worst ({clock.worst_at})"
        )


if __name__ == "__main__":
    main()

"""How much a search seat gains over the declared bot in the same seat (docs/bots.md,
"Strength"): each seed is played twice, A with the seat's usual bot (`--baseline`:
the rules' declared bot, or "random", or any bot name) and B with the search bot
(`--bot`); the other seats play `--others` (the rules' declared bots by default) in
both. Per role of the seat (`--role ATTR`, a player attribute read at the end, as a
secret identity), it prints the seat's win rate in A and in B, the difference B - A
with Newcombe's 95% interval (as `rulelang compare`), and the CPU seconds the search
took per decision (process time: what the machine's load does not change).

    python benchmarks/strength.py rulesets/saboteur-stoneseekers.rules -p 4 -n 100 \
        --bot ismcts:300 --seed 100
    python benchmarks/strength.py rulesets/saboteur.rules -p 4 -n 200 -o rounds=1 \
        --bot ismcts:300 --role role --seat 1
    python benchmarks/strength.py rulesets/saboteur.rules -p 4 -n 60 -o rounds=1 \
        --bot ismcts:300 --role role --only saboteur

One process (no --jobs: the figures of a busy machine are the same, only slower).
Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import rulelang
from rulelang.search import bot_action, is_search


@dataclass
class Tally:
    games: int = 0
    a_wins: int = 0
    b_wins: int = 0
    both: int = 0  # seeds won in A and in B (the pairs: see `paired`)
    a_score: float = 0.0  # returns: a draw counts a half
    b_score: float = 0.0


@dataclass
class Clock:
    decisions: int = 0
    seconds: float = 0.0
    worst: float = 0.0
    worst_at: str = ""  # the seed and the seat's decision number of the worst one
    spent: list[float] = field(default_factory=list)


def paired_line(wins: list[tuple[bool, bool]], a_name: str, b_name: str) -> str:
    """A's and B's win rates over paired seeds (each `(A won, B won)`), B - A with its
    interval (`paired`), and the seeds each won alone: the summary of a fixed policy
    against the declared bot (labyrinth_fights.py, stoneseekers_victims.py)."""
    n = len(wins)
    a, b = sum(x for x, _ in wins), sum(y for _, y in wins)
    both = sum(x and y for x, y in wins)
    d, lo, hi = paired(both, a, b, n)
    return (
        f"{a_name} {a / n:.1%}, {b_name} {b / n:.1%}, {d:+.1%} ({lo:+.1%} .. {hi:+.1%});"
        f" won by {b_name} alone {b - both}, by the {a_name} alone {a - both}"
    )


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def newcombe(a: int, b: int, n: int) -> tuple[float, float, float]:
    """B - A and its hybrid score interval (Newcombe 1998, method 10)."""
    pa, pb = a / n, b / n
    la, ua = wilson(a, n)
    lb, ub = wilson(b, n)
    d = pb - pa
    return (
        d,
        d - math.sqrt((pb - lb) ** 2 + (ua - pa) ** 2),
        d + math.sqrt((ub - pb) ** 2 + (pa - la) ** 2),
    )


def paired(both: int, a: int, b: int, n: int) -> tuple[float, float, float]:
    """B - A and its 95% interval for paired results (Newcombe 1998, "Improved
    confidence intervals for the difference between binomial proportions based on
    paired data", method 10): A and B play the same seeds, so a seed that both win or
    both lose says nothing of the difference; the interval is as wide as the seeds on
    which they differ allow. `both` seeds won by both, `a` and `b` the wins of each."""
    only_a, only_b = a - both, b - both
    neither = n - both - only_a - only_b
    pa, pb = a / n, b / n
    la, ua = wilson(a, n)
    lb, ub = wilson(b, n)
    # the correlation of the pairs (phi of the 2 x 2 table), 0 where a margin is empty;
    # a positive one less n / 2 (Newcombe's correction, as in Altman et al., "Statistics
    # with Confidence", 2000, p. 52: it keeps the interval from being too narrow)
    margins = a * (n - a) * b * (n - b)
    cross = both * neither - only_a * only_b
    cross = max(cross - n / 2, 0.0) if cross > 0 else cross
    phi = cross / math.sqrt(margins) if margins else 0.0
    d = pb - pa
    low = (pb - lb) ** 2 - 2 * phi * (pb - lb) * (ua - pa) + (ua - pa) ** 2
    high = (ub - pb) ** 2 - 2 * phi * (ub - pb) * (pa - la) + (pa - la) ** 2
    return d, d - math.sqrt(max(low, 0.0)), d + math.sqrt(max(high, 0.0))


def play(
    rules: rulelang.Ruleset,
    args: argparse.Namespace,
    seed: int,
    mine: str | None,
    clock: Clock | None,
) -> tuple[str, float, str]:
    """One game: the seat's result, its return and its role."""
    seat = args.seat - 1
    game = finished(rules, args, seed, mine, clock)
    role = str(game.attribute(args.role, seat)) if args.role else "any"
    return game.results()[seat], game.returns()[seat], role


def finished(
    rules: rulelang.Ruleset,
    args: argparse.Namespace,
    seed: int,
    mine: str | None,
    clock: Clock | None,
) -> rulelang.Game:
    """One game played to its end: the seat (`args.seat`) by `mine`, the others by
    `args.others` (None: the declared bots); the search's decisions timed on `clock`."""
    seat = args.seat - 1
    game = rules.new_game(args.players, seed, dict(args.option))
    while not game.is_over():
        who = game.current_player()
        name = mine if who == seat else args.others
        if clock is not None and who == seat and is_search(name) and len(game.legal_values()) > 1:
            start = time.process_time()
            action = bot_action(game, name)
            spent = time.process_time() - start
            clock.decisions += 1
            clock.seconds += spent
            if spent > clock.worst:
                clock.worst, clock.worst_at = spent, f"seed {seed}, turn {game.turn_number}"
        else:
            action = bot_action(game, name)
        game.apply(action)
    return game


SEARCHED = 2000  # seeds --only looks through for a first seat of its role


def chosen_seeds(rules: rulelang.Ruleset, args: argparse.Namespace) -> Iterator[int]:
    """-n seeds from --seed on: every seed, or with --only those where the seat's role
    is that value once setup is done (the seed deals the roles, whatever the bots)."""
    if not args.only:
        yield from range(args.seed, args.seed + args.games)
        return
    if not args.role:
        sys.exit("strength.py: --only needs --role")
    seed, found, seen = args.seed, 0, set()
    while found < args.games:
        game = rules.new_game(args.players, seed, dict(args.option))
        role = str(game.attribute(args.role, args.seat - 1))
        if role == args.only:
            found += 1
            yield seed
        seen.add(role)
        seed += 1
        if not found and seed - args.seed >= SEARCHED:  # a value no seed deals
            sys.exit(
                f"strength.py: no seed of {args.seed}..{seed - 1} gives seat {args.seat} "
                f"the {args.role} {args.only!r} (it was: {', '.join(sorted(seen))})"
            )


def game_arguments(description: str, games: int) -> argparse.ArgumentParser:
    """A parser with what every game-playing benchmark here takes: the rule file,
    -p players, -n games (default `games`) and --seed, the first seed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("rules", type=Path)
    parser.add_argument("-p", "--players", type=int, required=True)
    parser.add_argument("-n", "--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=100)
    return parser


def pair_arguments(description: str, games: int, example: str) -> argparse.ArgumentParser:
    """game_arguments and what `finished` reads: --seat, --bot (B's search bot, e.g.
    `example`), --others and -o options of the rules."""
    parser = game_arguments(description, games)
    parser.add_argument("--seat", type=int, default=1, help="the seat searched, from 1")
    parser.add_argument("--bot", required=True, help=f"the search bot of B, e.g. {example}")
    parser.add_argument("--others", default=None, help="the other seats' bot (declared)")
    parser.add_argument(
        "-o", "--option", action="append", default=[], type=lambda s: tuple(s.split("=", 1))
    )
    return parser


def main() -> None:
    parser = pair_arguments(__doc__.splitlines()[0], 100, "ismcts:300")
    parser.add_argument("--baseline", default=None, help="the seat's bot in A (declared)")
    parser.add_argument("--role", default=None, help="a player attribute: rates per value")
    parser.add_argument(
        "--only",
        default=None,
        help="play only the seeds where the seat's --role is this value when play begins "
        "(a rare role, e.g. a Saboteur saboteur, gets -n games; the seeds played are printed)",
    )
    args = parser.parse_args()
    rules = rulelang.compile_file(args.rules)
    tallies: dict[str, Tally] = defaultdict(Tally)
    clock = Clock()
    start = time.process_time()
    seeds = list(chosen_seeds(rules, args))
    for seed in seeds:
        a_result, a_return, a_role = play(rules, args, seed, args.baseline, None)
        b_result, b_return, b_role = play(rules, args, seed, args.bot, clock)
        for role in {"all", f"{args.role}={b_role}" if args.role else "all"}:
            t = tallies[role]
            t.games += 1
            t.a_wins += a_result == "win"
            t.b_wins += b_result == "win"
            t.both += a_result == b_result == "win"
            t.a_score += a_return
            t.b_score += b_return
        # one line a seed, so that a run stopped early still gives its pairs
        print(f"seed {seed} {b_role}: A {a_result}, B {b_result}", file=sys.stderr, flush=True)
        if args.role and a_role != b_role:
            print(f"seed {seed}: the seat's role differs in A ({a_role}) and B ({b_role})")
    baseline = args.baseline or "declared"
    others = args.others or "declared"
    which = f"seeds {seeds[0]}..{seeds[-1]}" if seeds else "no seed"
    if args.only:
        which += f" where {args.role}={args.only} ({len(seeds)} seeds: {' '.join(map(str, seeds))})"
    print(f"{args.rules} -p {args.players} {which}, seat {args.seat}:")
    print(f"  A {baseline}, B {args.bot}, others {others}")
    for role, t in sorted(tallies.items()):
        d, lo, hi = paired(t.both, t.a_wins, t.b_wins, t.games)
        _d, ulo, uhi = newcombe(t.a_wins, t.b_wins, t.games)
        verdict = "B better" if lo > 0 else "A better" if hi < 0 else "not significant"
        print(
            f"  {role:<18} {t.games:>4} games  A {t.a_wins / t.games:6.1%}"
            f"  B {t.b_wins / t.games:6.1%}"
            f"  B-A {d:+6.1%} ({lo:+.1%} .. {hi:+.1%}) {verdict}"
            f"  [won by B only {t.b_wins - t.both}, by A only {t.a_wins - t.both};"
            f" unpaired {ulo:+.1%} .. {uhi:+.1%}]"
            f"  (returns A {t.a_score / t.games:.3f}, B {t.b_score / t.games:.3f})"
        )
    if clock.decisions:
        print(
            f"  search: {clock.decisions} decisions, CPU {clock.seconds / clock.decisions:.3f} s"
            f" mean, {clock.worst:.3f} s worst ({clock.worst_at}); whole run"
            f" {time.process_time() - start:.0f} s CPU"
        )


if __name__ == "__main__":
    main()

"""How well a rule file's `estimate` says who wins (docs/bots.md, "Strength"): games of
the rules' declared bots (random where there are none), the estimate read at the start
of every turn for every player, and, per value of a player attribute (`--role`, read
at the end, as a secret identity), the mean estimate and the share of those readings
whose player went on to win, in fifths of the estimate; then the Brier score (the mean
squared gap between the estimate and the result, 0 to 1: lower is better) over all.

    python benchmarks/calibration.py rulesets/saboteur-stoneseekers.rules -p 4 -n 300 \
        --seed 7000 --role role

The estimate is read on the real game (a search reads it on its guesses). Stdlib
only, besides rulelang itself.
"""

from __future__ import annotations

from collections import defaultdict

from strength import game_arguments

import rulelang
from rulelang.search import bot_action


def readings(game: rulelang.Game) -> list[list[float]]:
    """The game played to its end by the declared bots; the estimate at each turn."""
    seen: list[list[float]] = []
    turn = -1
    while not game.is_over():
        if game.turn_number != turn:
            turn = game.turn_number
            seen.append(game.estimate() or [])
        game.apply(bot_action(game, None))
    return seen


def main() -> None:
    parser = game_arguments(__doc__.splitlines()[0], 100)
    parser.add_argument("--role", default=None, help="a player attribute: rows per value")
    args = parser.parse_args()
    rules = rulelang.compile_file(args.rules)
    if rules.new_game(args.players, args.seed).estimate() is None:
        parser.exit(64, f"{args.rules}: the rules declare no estimate\n")
    bins: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0, 0.0, 0.0])
    squares, count = 0.0, 0
    for seed in range(args.seed, args.seed + args.games):
        game = rules.new_game(args.players, seed)
        seen = readings(game)
        for seat, result in enumerate(game.results()):
            role = str(game.attribute(args.role, seat)) if args.role else "any"
            won = float(result == "win")
            for est in seen:
                row = bins[(role, min(int(est[seat] * 5), 4))]
                row[0] += 1
                row[1] += est[seat]
                row[2] += won
                squares += (est[seat] - won) ** 2
                count += 1
    print(f"{args.rules} -p {args.players} seeds {args.seed}..{args.seed + args.games - 1}:")
    for (role, fifth), (n, est_sum, wins) in sorted(bins.items()):
        print(
            f"  {role:<18} estimate {fifth * 20:>3}-{fifth * 20 + 20:<3}"
            f" {int(n):>6} readings  mean {est_sum / n:5.1%}  won {wins / n:5.1%}"
        )
    print(f"  Brier score {squares / max(count, 1):.4f} over {count} readings")


if __name__ == "__main__":
    main()

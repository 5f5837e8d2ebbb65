"""One hash of games played through the API, for comparing two trees: each decision's
actions (values and texts), then the record (a third of the games are quiet: none),
results and measures. Fast playouts first (the chained ops made) and the games in
order, so that the resumes settle and run on, and `apply` is generated, along the way
(runtime/inlined.py), as in a long run.

    python benchmarks/api_digest.py heimlich 2,4,7 150
    PYTHONPATH=. python ../wt-heimgen/benchmarks/api_digest.py heimlich 2,4,7 150  # in another tree
"""

from __future__ import annotations

import argparse
import hashlib
import random
from pathlib import Path

import rulelang


def played(game: rulelang.Game, rng: random.Random, quiet: bool) -> tuple[object, ...]:
    seen = []
    while not game.is_over():
        if game.current_player() == rulelang.CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        seen.append(tuple(actions))
        game.apply(actions[int(rng.random() * len(actions))])
    return (seen, None if quiet else game.record(), game.results(), game.measures())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game", help="a rule file of rulesets/, without .rules")
    ap.add_argument("players", help="player counts, as 2,4,7")
    ap.add_argument("games", type=int, help="games at each player count")
    args = ap.parse_args()
    rules = rulelang.compile_file(Path("rulesets") / f"{args.game}.rules")
    h = hashlib.sha256()
    for players in (int(p) for p in args.players.split(",")):
        for i in range(20):
            game = rules.new_game(players, 6000 + i, quiet=True)
            game.playout(random.Random(i), quiet=True)
        for seed in range(args.games):
            quiet = seed % 3 == 0
            game = rules.new_game(players, seed, quiet=quiet)
            h.update(repr(played(game, random.Random(seed), quiet)).encode())
    print(f"{args.game} {args.players} x {args.games}: {h.hexdigest()[:16]}")


if __name__ == "__main__":
    main()

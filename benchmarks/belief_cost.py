"""CPU per decision of one search seat (seat 1), the other seats playing the rules'
declared bots: what a search bot's decisions cost, its belief included (docs/bots.md,
"What a search bot does not see").

    python benchmarks/belief_cost.py rulesets/saboteur-official.rules 4 2 ismcts:100
"""

from __future__ import annotations

import argparse
import time

import rulelang
from rulelang.search import bot_action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules")
    parser.add_argument("players", type=int)
    parser.add_argument("games", type=int, help="seeds 0 .. games - 1")
    parser.add_argument("bot", help="the search bot of seat 1, as ismcts:100")
    args = parser.parse_args()
    rules = rulelang.compile_file(args.rules)
    cpu, decisions, wins = 0.0, 0, 0
    for seed in range(args.games):
        game = rules.new_game(args.players, seed)
        while not game.is_over():
            if game.current_player() == 0:
                start = time.process_time()
                action = bot_action(game, args.bot)
                cpu += time.process_time() - start
                decisions += 1
            else:
                action = game.bot_choice()
            game.apply(action)
        wins += game.results()[0] == "win"
    print(
        f"{rules.program.title}: {decisions} decisions, "
        f"{cpu / max(decisions, 1) * 1000:.1f} ms CPU per decision, "
        f"seat 1 won {wins} of {args.games}"
    )


if __name__ == "__main__":
    main()

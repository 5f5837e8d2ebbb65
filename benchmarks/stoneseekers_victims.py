"""How much the stone seekers' saboteur seat could gain over its `dwarf`: seat 1 plays
the dwarf with one change of policy (`--policy`), the other seats the dwarf, against
seat 1 as the plain dwarf on the same seeds (only seeds that deal seat 1 a saboteur),
paired as benchmarks/strength.py pairs them (docs/bots.md, "The stone seekers'
saboteur seat"). The changed seat takes the dwarf's options and draws its ties from a
generator of its own, so `--policy same` changes nothing but seat 1's tie-breaks: it
measures how many seeds a different choice among the dwarf's equal options turns.

    python benchmarks/stoneseekers_victims.py -p 4 -n 2000 --seed 20000 --policy free
    python benchmarks/stoneseekers_victims.py -p 4 -n 2000 --seed 20000 --policy same
    python benchmarks/stoneseekers_victims.py -p 4 -n 40 --seed 30000 --asks ismcts:300

Policies, at the choice of whom to block (`victim`; every other choice the dwarf's),
each read from what seat 1 sees (the cards in front of the players, the turn order):
  same       any of the dwarf's victims (another player), at random
  free       a player with no broken tool yet, at random, where one can be blocked
  next_free  the first such player after seat 1 in the turn order
  prev_free  the last such player before seat 1 (the one that plays just before it)

`--asks BOT` instead plays dwarf games and, at each of seat 1's choices of whom to
block where it may block both a player with a broken tool and one without, asks BOT
(the dwarf, or a search bot) and counts how often it blocks one without.

Dwarf games are fast (about 0.005 s of CPU each): two thousand pairs take half a minute.
Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from strength import chosen_seeds, paired_line

import rulelang
from rulelang import Game
from rulelang.search import bot_action

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur-stoneseekers.rules"
POLICIES = ("same", "free", "next_free", "prev_free")


def victim(game: Game, kept: list[int], rng: random.Random, policy: str) -> int:
    """Seat 1's victim under `policy`, among the dwarf's (`kept`: other players)."""
    free = [p for p in kept if not game.items("front", p)]
    if policy == "same" or not free:
        return kept[int(rng.random() * len(kept))]
    if policy == "free":
        return free[int(rng.random() * len(free))]
    order = sorted(free)  # seat 1 is player 0: the turn order after it is 1, 2, ...
    return order[0] if policy == "next_free" else order[-1]


def won(rules: rulelang.Ruleset, players: int, seed: int, policy: str | None) -> bool:
    """Does seat 1 win seed `seed` playing `policy` (None: the plain dwarf)?"""
    game = rules.new_game(players, seed, {})
    rng = random.Random(f"stoneseekers_victims {seed}")
    while not game.is_over():
        if policy is not None and game.current_player() == 0:
            kept = list(game.bot_options() or game.legal_values())
            name = game.pending().name  # type: ignore[union-attr]
            if name == "victim":
                value: object = victim(game, kept, rng, policy)
            else:
                value = kept[int(rng.random() * len(kept))]
            action = next(a for a in game.legal_actions() if a.value == value)
        else:
            action = game.bot_choice(None)
        game.apply(action)
    return game.results()[0] == "win"


def asked(rules: rulelang.Ruleset, players: int, seed: int, bot: str) -> tuple[int, int]:
    """Seat 1's choices of whom to block in dwarf game `seed` where both a free and a
    blocked player could be blocked, and how many of them `bot` took a free one in."""
    game = rules.new_game(players, seed, {})
    choices = free_ones = 0
    while not game.is_over():
        if game.current_player() == 0 and game.pending().name == "victim":  # type: ignore[union-attr]
            others = [p for p in game.legal_values() if p != 0]
            free = [p for p in others if not game.items("front", p)]
            action = bot_action(game, bot)
            if free and len(free) < len(others):
                choices, free_ones = choices + 1, free_ones + (action.value in free)
            game.apply(action)
        else:
            game.apply(game.bot_choice(None))
    return choices, free_ones


def count_asks(rules: rulelang.Ruleset, args: argparse.Namespace) -> None:
    choices = free_ones = 0
    for seed in chosen_seeds(rules, args):
        c, f = asked(rules, args.players, seed, args.asks)
        choices, free_ones = choices + c, free_ones + f
    print(
        f"-p {args.players}, {args.games} saboteur seeds from {args.seed}: {args.asks} blocked"
        f" a player without a broken tool in {free_ones} of {choices} choices"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("-n", "--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20000)
    parser.add_argument("--policy", choices=POLICIES, default="free")
    parser.add_argument("--asks", default=None, help="count BOT's choices of whom to block")
    args = parser.parse_args()
    rules = rulelang.compile_file(RULES)
    # chosen_seeds reads these: seat 1's role, dealt by the seed alone
    args.role, args.only, args.seat, args.option = "role", "saboteur", 1, []
    if args.asks:
        count_asks(rules, args)
        return
    wins = [
        (won(rules, args.players, seed, None), won(rules, args.players, seed, args.policy))
        for seed in chosen_seeds(rules, args)
    ]
    line = paired_line(wins, "dwarf", args.policy)
    print(f"-p {args.players}, {len(wins)} saboteur seeds from {args.seed}: {line}")


if __name__ == "__main__":
    main()

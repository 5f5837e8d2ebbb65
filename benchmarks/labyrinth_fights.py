"""What the labyrinth's `explorer` leaves on the table: seat 1 plays the explorer with
one change of policy (`--policy`), the other seats the explorer, against seat 1 as the
plain explorer on the same seeds, paired as benchmarks/strength.py pairs them
(docs/bots.md, "Strength"). The changed seat draws its ties from a generator of its
own, so `--policy same` changes nothing but seat 1's tie-breaks: it measures how many
seeds a different choice among the explorer's equal options turns.

    python benchmarks/labyrinth_fights.py -n 1000 --seed 100 --policy attack
    python benchmarks/labyrinth_fights.py -n 300 --seed 100 --policy same

Policies, each read only from what seat 1 may see (its own attributes, its options):
  same      the explorer, its ties drawn from the other generator
  attack    also attack a player met when healthy and empty-handed (no edge needed)
  attackall also attack when carrying the treasure
  noattack  never attack, even with the edge
  nobuy     never buy in the shop
  noheal    never heal in the hospital

Explorer games are fast (about 0.02 s of CPU each): a thousand pairs take a minute.
Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from strength import paired_line

import rulelang
from rulelang import Game

RULES = Path(__file__).resolve().parent.parent / "rulesets" / "labyrinth.rules"
POLICIES = ("same", "attack", "attackall", "noattack", "nobuy", "noheal")


def hostile(v: object) -> bool:
    return isinstance(v, str) and v.startswith(("fight ", "attack "))


def choice(game: Game, rng: random.Random, policy: str) -> object:
    """Seat 1's option under `policy` (the explorer's, where the policy says nothing)."""
    kept, name = list(game.bot_options() or []), game.pending().name  # type: ignore[union-attr]
    values = list(game.legal_values())
    fights = [v for v in values if hostile(v)]
    healthy = not game.attribute("injured", 0)
    empty = not game.attribute("treasure", 0)
    if policy in ("attack", "attackall") and fights and healthy and (empty or policy != "attack"):
        return fights[0]
    if policy == "noattack" and any(hostile(v) for v in kept):
        kept = [v for v in kept if not hostile(v)] or [v for v in values if not hostile(v)]
    if policy == "nobuy" and name == "buy":
        return "leave the shop"
    if policy == "noheal" and name == "heal":
        return "leave the hospital"
    return kept[int(rng.random() * len(kept))]


def won(rules: rulelang.Ruleset, seed: int, policy: str) -> bool:
    """Does seat 1 win seed `seed` playing `policy`, the others the explorer?"""
    game = rules.new_game(4, seed, {})
    rng = random.Random(f"labyrinth_fights {seed}")
    while not game.is_over():
        if game.current_player() == 0:
            value = choice(game, rng, policy)
            action = next(a for a in game.legal_actions() if a.value == value)
        else:
            action = game.bot_choice(None)
        game.apply(action)
    return game.results()[0] == "win"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--policy", choices=POLICIES, default="attack")
    args = parser.parse_args()
    rules = rulelang.compile_file(RULES)
    seeds = range(args.seed, args.seed + args.games)
    wins = [(won_plain(rules, seed), won(rules, seed, args.policy)) for seed in seeds]
    line = paired_line(wins, "explorer", args.policy)
    print(f"seeds {args.seed}..{args.seed + args.games - 1}: {line}")


def won_plain(rules: rulelang.Ruleset, seed: int) -> bool:
    """Seat 1 as the plain explorer (its ties from the game's bot generator)."""
    game = rules.new_game(4, seed, {})
    while not game.is_over():
        game.apply(game.bot_choice(None))
    return game.results()[0] == "win"


if __name__ == "__main__":
    main()

"""The interop adapters against native speed, CPU time, alternated blocks, medians.

  openspiel   a step of the OpenSpiel adapter (`legal_actions()` then
              `apply_action(i)`) ÷ a native step (`Game.legal_actions()` then
              `Game.apply(a)`), the same random games (same seeds, same choices);
  pettingzoo  the rulelang PettingZoo env on tic-tac-toe ÷ `pettingzoo.classic.
              tictactoe_v3`, both driven by the same loop (`agent_iter`, `last()`,
              a random legal action from the mask, `step`): CPU per game.

    python benchmarks/adapters.py openspiel --game heimlich --players 4
    python benchmarks/adapters.py openspiel --game tictactoe
    python benchmarks/adapters.py pettingzoo
    python benchmarks/adapters.py pettingzoo --read-observations

Blocks of each program alternate (the order rotates); a slowdown is the median over
the blocks of the per-block ratio, steps (or games) per block printed beside it.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

import rulelang

ROOT = Path(__file__).resolve().parent.parent
RULES = {
    "tictactoe": ROOT / "rulesets" / "examples" / "tictactoe.rules",
    "heimlich": ROOT / "rulesets" / "heimlich.rules",
    "saboteur": ROOT / "rulesets" / "saboteur.rules",
}


def native(rules: Any, players: int, games: int, block: int) -> int:
    rng = random.Random(block)
    steps = 0
    for i in range(games):
        game = rules.new_game(players, seed=block * 10_007 + i)
        while not game.is_over():
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
            steps += 1
    return steps


def openspiel(spiel_game: Any, games: int, block: int) -> int:
    rng = random.Random(block)
    steps = 0
    for i in range(games):
        spiel_game._next_seed = block * 10_007 + i  # the same games as `native`
        spiel_game._first = None
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply_action(actions[int(rng.random() * len(actions))])
            steps += 1
    return steps


def zoo_game(env: Any, rng: random.Random, seed: int | None, read: bool = False) -> int:
    """One game by a random agent that picks by the action mask (`read`: and reads
    every observation's vector too, as a learning agent does)."""
    env.reset(seed=seed)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if read:
            observation["observation"].sum()
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[int(rng.random() * len(legal))]))
        steps += 1
    return steps


def zoo(env: Any, games: int, block: int, seeded: bool, read: bool = False) -> int:
    rng = random.Random(block)
    seeds = [block * 10_007 + i if seeded else None for i in range(games)]
    return sum(zoo_game(env, rng, seed, read) for seed in seeds)


def alternate(programs: dict[str, Callable[[int], int]], blocks: int) -> dict[str, list[float]]:
    """CPU seconds per step of each program, per block, the order rotating."""
    names = list(programs)
    out: dict[str, list[float]] = {name: [] for name in names}
    for block in range(blocks):
        for name in names[block % len(names) :] + names[: block % len(names)]:
            gc.collect()
            start = time.process_time()
            steps = programs[name](block)
            out[name].append((time.process_time() - start) / steps)
    return out


def report(per_step: dict[str, list[float]], base: str, unit: str) -> None:
    for name, times in per_step.items():
        ratios = [t / b for t, b in zip(times, per_step[base], strict=True)]
        print(
            f"{name:>12}: {statistics.median(times) * 1e6:8.2f} µs per {unit}   "
            f"÷ {base} {statistics.median(ratios):5.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("openspiel", "pettingzoo"))
    parser.add_argument("--game", choices=sorted(RULES), default="tictactoe")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=0, help="games per block (default: by game)")
    parser.add_argument("--blocks", type=int, default=9)
    parser.add_argument(
        "--read-observations",
        action="store_true",
        help="pettingzoo: the agent reads every observation's vector, not only the mask",
    )
    args = parser.parse_args()
    print(
        f"python benchmarks/adapters.py {args.what} --game {args.game} --players "
        f"{args.players} --blocks {args.blocks}; rulelang from {Path(rulelang.__file__).parent}"
    )
    if args.what == "openspiel":
        import pyspiel

        from rulelang.interop import openspiel as _registers  # noqa: F401

        rules = rulelang.compile_file(RULES[args.game])
        games = args.games or (400 if args.game == "tictactoe" else 20)
        spiel_game = pyspiel.load_game(
            "rulelang", {"rules": str(RULES[args.game]), "players": args.players}
        )
        programs = {
            "native": lambda b: native(rules, args.players, games, b),
            "openspiel": lambda b: openspiel(spiel_game, games, b),
        }
        for fn in programs.values():
            fn(-1)  # warm-up
        report(alternate(programs, args.blocks), "native", "step")
        print(f"({games} games per block)")
        return
    from pettingzoo.classic import tictactoe_v3

    from rulelang.interop.pettingzoo import env as rulelang_env

    games = args.games or 200
    theirs = tictactoe_v3.env()
    ours = rulelang_env(RULES["tictactoe"], 2)
    programs = {
        "tictactoe_v3": lambda b: zoo(theirs, games, b, False, args.read_observations),
        "rulelang": lambda b: zoo(ours, games, b, True, args.read_observations),
    }
    for fn in programs.values():
        fn(-1)
    report(alternate(programs, args.blocks), "tictactoe_v3", "step")
    reads = "the observation's vector and " if args.read_observations else ""
    print(f"({games} games per block; a step: last(), reading {reads}the mask, and step())")


if __name__ == "__main__":
    main()

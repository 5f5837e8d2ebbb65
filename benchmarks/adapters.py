"""The interop adapters against native speed, CPU time, alternated blocks, medians.

  openspiel   a step of the OpenSpiel adapter (`is_terminal()`, `legal_actions()`,
              `apply_action(i)`) ÷ a native step (`Game.is_over()`,
              `Game.legal_actions()`, `Game.apply(a)`), the same random games (same
              seeds, same choices, a new game each from its seed on both sides);
              `--read-history`: the adapter's state also reads OpenSpiel's C++
              history at each game's end (`state.history()`, which the steps taken
              from Python add to only when it is read);
  pettingzoo  the rulelang PettingZoo env on tic-tac-toe ÷ `pettingzoo.classic.
              tictactoe_v3`, both driven by the same loop (`agent_iter`, `last()`,
              a random legal action from the mask, `step`): CPU per game.

    python benchmarks/adapters.py openspiel --game heimlich --players 4
    python benchmarks/adapters.py openspiel --game tictactoe
    python benchmarks/adapters.py openspiel --game heimlich --players 4 --read-history
    python benchmarks/adapters.py pettingzoo
    python benchmarks/adapters.py pettingzoo --read-observations

Blocks of each program alternate (the order rotates); a slowdown is the median over
the blocks of the per-block ratio, the steps a game each program took printed beside
it (the same work on both sides).
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


def openspiel(spiel_game: Any, games: int, block: int, read_history: bool = False) -> int:
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
        if read_history and len(state.history()) != state.decisions:
            raise AssertionError("OpenSpiel's history misses steps")
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


def alternate(
    programs: dict[str, Callable[[int], int]], blocks: int
) -> tuple[dict[str, list[float]], dict[str, int]]:
    """CPU seconds per step of each program, per block, the order rotating; and the
    steps each took in all."""
    names = list(programs)
    out: dict[str, list[float]] = {name: [] for name in names}
    total = dict.fromkeys(names, 0)
    for block in range(blocks):
        for name in names[block % len(names) :] + names[: block % len(names)]:
            gc.collect()
            start = time.process_time()
            steps = programs[name](block)
            out[name].append((time.process_time() - start) / steps)
            total[name] += steps
    return out, total


def report(
    measured: tuple[dict[str, list[float]], dict[str, int]], base: str, unit: str, games: int
) -> None:
    per_step, total = measured
    for name, times in per_step.items():
        ratios = [t / b for t, b in zip(times, per_step[base], strict=True)]
        print(
            f"{name:>12}: {statistics.median(times) * 1e6:8.2f} µs per {unit}   "
            f"÷ {base} {statistics.median(ratios):5.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
            f"   {total[name] / (games * len(times)):.1f} {unit}s a game"
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
        "--read-history",
        action="store_true",
        help="openspiel: read OpenSpiel's history (state.history()) at each game's end",
    )
    parser.add_argument(
        "--read-observations",
        action="store_true",
        help="pettingzoo: the agent reads every observation's vector, not only the mask",
    )
    args = parser.parse_args()
    flags = "".join(
        f" --{name.replace('_', '-')}"
        for name in ("read_history", "read_observations")
        if getattr(args, name)
    )
    print(
        f"python benchmarks/adapters.py {args.what} --game {args.game} --players "
        f"{args.players} --blocks {args.blocks}{flags}; "
        f"rulelang from {Path(rulelang.__file__).parent}"
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
            "openspiel": lambda b: openspiel(spiel_game, games, b, args.read_history),
        }
        for fn in programs.values():
            fn(-1)  # warm-up
        report(alternate(programs, args.blocks), "native", "step", games)
        reads = ", OpenSpiel's history read at each game's end" if args.read_history else ""
        print(f"({games} games per block{reads})")
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
    report(alternate(programs, args.blocks), "tictactoe_v3", "step", games)
    reads = "the observation's vector and " if args.read_observations else ""
    print(f"({games} games per block; a step: last(), reading {reads}the mask, and step())")


if __name__ == "__main__":
    main()

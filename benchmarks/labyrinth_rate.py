"""The labyrinth's games per CPU second, and the check that its games stay the same.

Plays 4-player games of rulesets/labyrinth.rules as `rulelang simulate` does
(simulation/worker.py): with random bots the generated code takes each decision (the
fast path, `Game.playout`), with the declared `explorer` every decision is the bot's
(`Game.bot_choice`). Game i of a block has the seed `seed + i`, so every block plays
the same games.

    python benchmarks/labyrinth_rate.py                      # rates, this tree
    python benchmarks/labyrinth_rate.py --against ../main    # this tree and another,
                                                             # alternating in blocks
    python benchmarks/labyrinth_rate.py --plain              # optimised and plain code
    python benchmarks/labyrinth_rate.py --digest 200         # a digest of 200 games

With --against, each block runs in a fresh process per tree (PYTHONPATH set to the
tree, which plays its own rulesets/labyrinth.rules), the trees alternating (the order
rotates from block to block), each block timed with time.process_time() around the
games only (not compiling); the speed-up is the median over the blocks of the
per-block ratios. With --plain, one process compiles the
rules twice, with the code generator's optimisations (`exprgen.OPTIMISED`) and
without, and alternates the two in blocks: the optimisations' own gain, on a machine
too loaded for processes to compare well. Random games are quiet playouts
(`Game.playout(quiet=True)`: no messages kept), as `simulate` plays them, except
for --digest, which reads the log. --digest prints one hash of every
game's record (the log of events, the results, the measures and the final public
view) for seeds 1..N and both bots: two trees that print the same digest played the
same games.

Stdlib only, besides rulelang itself.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import inspect
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RULES = HERE.parent / "rulesets" / "labyrinth.rules"
BOTS = ("random", "explorer")


def play(rules: Any, seed: int, bots: str, quiet: bool = True) -> tuple[Any, int]:
    """One game to its end, as `simulate` plays it (random bots: a quiet playout where
    the tree has it); the game and its decisions."""
    from rulelang import CHANCE
    from rulelang.simulation.worker import bot_rng

    game = rules.new_game(4, seed)
    if bots == "random":
        if quiet and "quiet" in inspect.signature(game.playout).parameters:
            return game, game.playout(bot_rng(seed), quiet=True)
        return game, game.playout(bot_rng(seed))
    taken = 0
    while not game.is_over() and taken < 100_000:
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        game.apply(game.bot_choice())
        taken += 1
    return game, taken


def block(bots: str, games: int, seed: int, path: str = str(RULES)) -> dict[str, float]:
    """CPU seconds and decisions of `games` games of the rule file at `path`
    (compiling not counted)."""
    import rulelang
    from rulelang.simulation import worker

    rules = rulelang.compile_file(path)
    play(rules, seed + games, bots)  # warm-up: the template of 4 players
    # as `simulate` plays them (play_chunk): with fewer collections where the tree has it
    fewer = getattr(worker, "fewer_collections", contextlib.nullcontext)
    with fewer():
        start = time.process_time()
        decisions = sum(play(rules, seed + i, bots)[1] for i in range(games))
        return {"seconds": time.process_time() - start, "decisions": decisions}


def plain_blocks(args: argparse.Namespace) -> None:
    """The optimised and the plain generated code, alternating in blocks in one process."""
    import gc

    import rulelang
    from rulelang.runtime import exprgen
    from rulelang.simulation.worker import fewer_collections

    compiled = {}
    for name, on in (("optimised", True), ("plain", False)):
        exprgen.OPTIMISED = on
        compiled[name] = rulelang.compile_file(RULES)
    exprgen.OPTIMISED = True
    for bots in args.bots:
        seconds: dict[str, list[float]] = {name: [] for name in compiled}
        names = list(compiled)
        for name in names:  # warm-up
            play(compiled[name], args.seed + args.games, bots)
        for b in range(args.blocks):
            for name in names[b % 2 :] + names[: b % 2]:
                gc.collect()
                with fewer_collections():
                    start = time.process_time()
                    for i in range(args.games):
                        play(compiled[name], args.seed + i, bots)
                    seconds[name].append(time.process_time() - start)
        for name in names:
            rate = [args.games / s for s in seconds[name]]
            print(
                f"{bots:<9} {name:<9} {statistics.median(rate):7.1f} games/CPU s "
                f"(blocks {min(rate):.1f}-{max(rate):.1f}), {args.games} games x {args.blocks}"
            )
        ratios = [p / o for o, p in zip(seconds["optimised"], seconds["plain"], strict=True)]
        print(
            f"{bots:<9} optimised is {statistics.median(ratios):.2f}x as fast as plain "
            f"({min(ratios):.2f}-{max(ratios):.2f})"
        )
        sys.stdout.flush()


def digest(games: int) -> str:
    """One hash of the records of seeds 1..games, with each kind of bot."""
    import rulelang

    rules = rulelang.compile_file(RULES)
    h = hashlib.sha256()
    for bots in BOTS:
        for seed in range(1, games + 1):
            game, decisions = play(rules, seed, bots, quiet=False)  # the log is read
            view = game.view(rulelang.PUBLIC)
            seen = (decisions, game.results(), game.measures(), game.record(), view)
            h.update(repr(seen).encode())
    return h.hexdigest()


def run_block(tree: Path | None, bots: str, games: int, seed: int) -> dict[str, float]:
    """A block in a fresh process, with rulelang imported from `tree` (None: this one),
    playing that tree's own rule file (a faster rule file counts as much as faster code)."""
    env = dict(os.environ)
    rules = RULES
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        rules = tree / RULES.relative_to(HERE.parent)
    code = (
        f"import sys, json; sys.path.insert(0, {str(HERE)!r}); import labyrinth_rate as m; "
        f"print(json.dumps(m.block({bots!r}, {games}, {seed}, {str(rules)!r})))"
    )
    # run from the tree itself: `python -c` puts the current folder first on sys.path,
    # before PYTHONPATH, so a block started from another checkout would import that one
    where = tree if tree is not None else HERE.parent
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=where, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(out.stdout.splitlines()[-1])
    return result


def rates(args: argparse.Namespace) -> None:
    trees: dict[str, Path | None] = {"this": None}
    if args.against is not None:
        trees["other"] = args.against.resolve()
    for bots in args.bots:
        seconds: dict[str, list[float]] = {name: [] for name in trees}
        decisions: dict[str, float] = {}
        names = list(trees)
        for b in range(args.blocks):
            for name in names[b % len(names) :] + names[: b % len(names)]:
                got = run_block(trees[name], bots, args.games, args.seed)
                seconds[name].append(got["seconds"])
                decisions[name] = got["decisions"] / args.games
        for name in names:
            per_block = [args.games / s for s in seconds[name]]
            print(
                f"{bots:<9} {name:<6} {statistics.median(per_block):7.1f} games/CPU s "
                f"(blocks {min(per_block):.1f}-{max(per_block):.1f}), "
                f"{decisions[name]:.1f} decisions/game, {args.games} games x {args.blocks}"
            )
        if "other" in seconds:
            ratios = [o / t for t, o in zip(seconds["this"], seconds["other"], strict=True)]
            print(
                f"{bots:<9} this is {statistics.median(ratios):.2f}x as fast as other "
                f"({min(ratios):.2f}-{max(ratios):.2f})"
            )
        sys.stdout.flush()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", nargs="+", choices=BOTS, default=list(BOTS))
    ap.add_argument("--games", type=int, default=40, help="games per block")
    ap.add_argument("--blocks", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1, help="the first game's seed")
    ap.add_argument("--against", type=Path, help="another tree (a checkout) to alternate with")
    ap.add_argument("--digest", type=int, metavar="N", help="print the digest of N games")
    ap.add_argument("--plain", action="store_true", help="optimised against plain code")
    args = ap.parse_args()
    if args.plain:
        plain_blocks(args)
        return
    if args.digest is not None:
        random.seed(0)
        print(digest(args.digest))
        return
    rates(args)


if __name__ == "__main__":
    main()

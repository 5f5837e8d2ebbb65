"""Random quiet playouts of one rule file on this tree and another, alternating in blocks.

One worker process per tree, each importing rulelang from its own tree and compiling
the rule file once (not timed); the workers wait on their input and play a block of
games when told, one at a time, so that they never run at once. The order of the
trees rotates from block to block; each block is timed with time.process_time()
around the games only. Prints, per player count, each tree's milliseconds a game, the
median over the blocks of this tree's time over the other's, and checks that both
trees took the same decisions (the same games, as far as counting tells).

    git worktree add ../before HEAD~3
    python benchmarks/trees_ab.py ../before rulesets/saboteur.rules --players 3 5 10

Stdlib only, besides rulelang itself (imported by the workers).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

WORKER = r"""
import gc, json, random, sys, time
import rulelang
rules = rulelang.compile_file(sys.argv[1])
print(json.dumps({"from": rulelang.__file__}), flush=True)
for line in sys.stdin:
    players, games, seed = json.loads(line)
    rng = random.Random(seed)
    gc.collect()
    decisions = 0
    t = time.process_time()
    for i in range(games):
        decisions += rules.new_game(players, seed * 1000 + i).playout(rng, quiet=True)
    t = time.process_time() - t
    print(json.dumps([t, decisions]), flush=True)
"""


class Worker:
    """A process playing blocks of games with one tree's rulelang."""

    def __init__(self, tree: Path, rules: Path):
        # run from the tree itself, so that `python -c` finds that tree's package first
        self.proc = subprocess.Popen(
            [sys.executable, "-c", WORKER, str(rules.resolve())],
            cwd=tree,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={"PYTHONPATH": str(tree), "PATH": ""},
        )
        self.origin = json.loads(self._line())["from"]

    def _line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline()

    def block(self, players: int, games: int, seed: int) -> tuple[float, int]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps([players, games, seed]) + "\n")
        self.proc.stdin.flush()
        seconds, decisions = json.loads(self._line())
        return seconds, decisions

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("other", type=Path, help="another tree (a checkout of rulelang)")
    ap.add_argument("rules", type=Path, help="the rule file both trees play")
    ap.add_argument("--players", type=int, nargs="+", default=[5])
    ap.add_argument("--blocks", type=int, default=9)
    ap.add_argument("--games", type=int, default=40, help="games per block")
    args = ap.parse_args()
    workers = {"this": Worker(HERE.parent, args.rules), "other": Worker(args.other, args.rules)}
    for name, w in workers.items():
        print(f"{name}: {w.origin}")
    for players in args.players:
        for w in workers.values():  # warm up: kept cells, faces, answers of the table
            w.block(players, 2, args.blocks + 1)
        times: dict[str, list[float]] = {"this": [], "other": []}
        decisions = {}
        for b in range(args.blocks):
            for name in ("this", "other") if b % 2 else ("other", "this"):
                seconds, decisions[name] = workers[name].block(players, args.games, b)
                times[name].append(seconds)
            assert decisions["this"] == decisions["other"], "not the same games"
        ratios = [t / o for t, o in zip(times["this"], times["other"], strict=True)]
        ms = {n: statistics.median(t) / args.games * 1e3 for n, t in times.items()}
        print(
            f"{players} players: this {ms['this']:.3f} ms, other {ms['other']:.3f} ms a game; "
            f"this / other {statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f}), "
            f"{decisions['this'] / args.games:.1f} decisions a game"
        )
        sys.stdout.flush()
    for w in workers.values():
        w.close()


if __name__ == "__main__":
    main()

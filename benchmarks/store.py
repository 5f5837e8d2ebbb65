"""`rulelang play --bots all` with the store of saved games ÷ with `--no-store`, CPU.

Both run in this process (rulelang's own `run`), their output thrown away, the data
folder a temporary one; the two alternate in blocks (the order rotating) and the
slowdown is the median over the blocks of the per-block ratio of CPU time
(time.process_time: SQLite's work is in this process too). Wall-clock time is
printed beside it: the store's fsyncs wait for the disk, which CPU time does not see.

    python benchmarks/store.py rulesets/heimlich.rules -p 4
    python benchmarks/store.py rulesets/labyrinth.rules -p 4 --games 2
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import statistics
import tempfile
import time
from pathlib import Path

import rulelang
from rulelang.cli.main import run


def play(rules: str, players: int, seeds: range, store: bool) -> tuple[float, float]:
    """CPU and wall seconds of `play --bots all` for each seed."""
    gc.collect()
    cpu, wall = time.process_time(), time.perf_counter()
    for seed in seeds:
        argv = ["play", rules, "-p", str(players), "--bots", "all", "--seed", str(seed)]
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            code = run(argv if store else [*argv, "--no-store"])
        assert code == 0, f"{argv}: exit {code}"
    return time.process_time() - cpu, time.perf_counter() - wall


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("rules")
    parser.add_argument("-p", "--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10, help="games per block")
    parser.add_argument("--blocks", type=int, default=7)
    args = parser.parse_args()
    print(
        f"python benchmarks/store.py {args.rules} -p {args.players} --games {args.games} "
        f"--blocks {args.blocks}; rulelang from {Path(rulelang.__file__).parent}"
    )
    with tempfile.TemporaryDirectory() as data:
        os.environ["RULELANG_DATA_DIR"] = data
        play(args.rules, args.players, range(1), True)  # warm-up: compiled, store made
        cpu: dict[bool, list[float]] = {True: [], False: []}
        wall: dict[bool, list[float]] = {True: [], False: []}
        for block in range(args.blocks):
            seeds = range(block * args.games, (block + 1) * args.games)
            for store in (True, False) if block % 2 == 0 else (False, True):
                c, w = play(args.rules, args.players, seeds, store)
                cpu[store].append(c)
                wall[store].append(w)
    for label, times in (("CPU", cpu), ("wall", wall)):
        ratios = [s / n for s, n in zip(times[True], times[False], strict=True)]
        print(
            f"{label:>5}: store {statistics.median(times[True]):.3f} s, no store "
            f"{statistics.median(times[False]):.3f} s per block of {args.games} games; "
            f"store ÷ no store {statistics.median(ratios):.2f}x "
            f"({min(ratios):.2f}-{max(ratios):.2f})"
        )


if __name__ == "__main__":
    main()

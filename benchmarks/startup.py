"""CPU time of `rulelang --help` (and `python -c pass`, the floor), in child processes,
blocks alternated, medians: `python benchmarks/startup.py [OTHER_TREE]` compares this
tree with another checkout of rulelang (e.g. an older commit, `git archive`d)."""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def cpu(cmd: list[str], tree: Path | None, runs: int = 5) -> float:
    """Mean CPU seconds (user + system) of `runs` runs of `cmd` with `tree` first on the path."""
    env = dict(os.environ, PYTHONPATH=str(tree)) if tree else dict(os.environ)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        # from the tree's own folder: `-m` puts the current folder first on the path
        subprocess.run(cmd, env=env, cwd=tree or HERE, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used / runs


def main() -> None:
    other = Path(sys.argv[1]) if len(sys.argv) > 1 else None
    help_cmd = [sys.executable, "-m", "rulelang.cli.main", "--help"]
    rows: dict[str, list[float]] = {"python -c pass": [], "rulelang --help": []}
    if other:
        rows["rulelang --help (other tree)"] = []
    for _block in range(8):
        rows["python -c pass"].append(cpu([sys.executable, "-c", "pass"], None))
        rows["rulelang --help"].append(cpu(help_cmd, HERE))
        if other:
            rows["rulelang --help (other tree)"].append(cpu(help_cmd, other))
    for name, values in rows.items():
        print(f"{name:32} {statistics.median(values):.3f} s CPU (median of 8 blocks of 5)")


if __name__ == "__main__":
    main()

"""Games of the labyrinth for callgrind: machine instructions counted, not timed, so
the load of a shared machine does not move them.

The counted games run inside `functools.reduce`, which nothing else calls, so that
`--toggle-collect=functools_reduce` counts them alone: not the import, the compile and
the warm-up games, which compile the ops a game reaches late (codegen.LAZY) and fill
CPython's specialisations. Games are played as benchmarks/labyrinth_rate.py plays them
(4 players; random bots: a quiet playout; `explorer`: the declared bot), seeds 1..N:

    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=random.out python benchmarks/callgrind_labyrinth.py random 10
    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=explorer.out python benchmarks/callgrind_labyrinth.py explorer 10

(`--warm 40` by default: the steady state of a long `simulate`; `--warm 1` counts the
compiles of a block of labyrinth_rate.py too.) Stdlib only, besides rulelang.
"""

from __future__ import annotations

import argparse
import functools

from labyrinth_rate import BOTS, RULES, play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("bots", choices=BOTS)
    ap.add_argument("games", type=int)
    ap.add_argument("--warm", type=int, default=40, help="games played first, not counted")
    args = ap.parse_args()
    import rulelang
    from rulelang.simulation import worker

    rules = rulelang.compile_file(RULES)
    for i in range(args.warm):
        play(rules, 1000 + i, args.bots)
    with worker.fewer_collections():
        decisions = functools.reduce(
            lambda n, seed: n + play(rules, seed, args.bots)[1], range(1, args.games + 1), 0
        )
    print(f"{args.bots}: {args.games} games, {decisions} decisions")


if __name__ == "__main__":
    main()

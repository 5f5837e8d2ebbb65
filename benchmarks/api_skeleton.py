"""What the API loop costs before the engine does any work: compare.py's `api_game`
played over a stand-in game whose four methods do nothing (`is_over` and
`current_player` read a state as Game's do, `legal_actions` copies a list of five,
`apply` counts down), against the random pick alone (`pick`: the choice of an index
that the fast path makes too). For callgrind, as callgrind_match.py (the measured
games run inside `functools.reduce`):

    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=skeleton.out python benchmarks/api_skeleton.py skeleton 300
    valgrind --tool=callgrind --toggle-collect=functools_reduce \\
        --callgrind-out-file=pick.out python benchmarks/api_skeleton.py pick 300

Each "game" is 200 decisions; the difference of the two counts, a decision, is what
four Python calls and the loop's own bytecodes cost: a floor under `api - fast` that no
engine code can go below. Stdlib only (but compare.py's loop).
"""

from __future__ import annotations

import argparse
import functools
import random

from compare import api_game

DECISIONS = 200


class _State:
    __slots__ = ("over", "who", "left")

    def __init__(self) -> None:
        self.over, self.who, self.left = False, 0, DECISIONS


class Stand:
    """A game with the API's four calls, each doing as little as Game's can."""

    def __init__(self, actions: list[tuple[int, str]]) -> None:
        self.state = _State()
        self._actions = actions

    def is_over(self) -> bool:
        return self.state.over

    def current_player(self) -> int:
        st = self.state
        return -4 if st.over else st.who

    def legal_actions(self) -> list[tuple[int, str]]:
        return self._actions.copy()

    def apply(self, action: tuple[int, str]) -> None:
        st = self.state
        st.left -= 1
        if not st.left:
            st.over = True


def picks(actions: list[tuple[int, str]], rng: random.Random) -> int:
    """The random pick alone, as a playout makes it: an index drawn, an item read."""
    left, bot = DECISIONS, rng.random
    while left:
        actions[int(bot() * len(actions))]
        left -= 1
    return DECISIONS


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("program", choices=("skeleton", "pick"))
    ap.add_argument("games", type=int)
    args = ap.parse_args()
    actions = [(i, str(i)) for i in range(5)]
    rng = random.Random(1)
    if args.program == "skeleton":
        play = lambda: api_game(Stand(actions), rng)  # noqa: E731
    else:
        play = lambda: picks(actions, rng)  # noqa: E731
    decisions = functools.reduce(lambda d, _i: d + play(), range(args.games), 0)
    print(f"{args.program}: {args.games} games, {decisions} decisions")


if __name__ == "__main__":
    main()

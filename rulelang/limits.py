"""The runtime's resource budget: how large a rule may make things, how long the rules
may run without asking anyone, and how many decisions bots alone may take in one game.

Past a limit, a game stops with a runtime error (an R code of docs/errors.md) instead
of exhausting memory or running unbounded. The defaults are documented in
docs/language.md ("Limits"); the API takes other ones where a rule file is compiled
(`compile_file(path, limits=Limits(...))`) and the command line with `--max-items`,
`--max-steps` and `--max-decisions`. A compiled ruleset's generated code has its
limits written into it as constants, so checking one costs no more than before.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from rulelang.diagnostics import UsageError

Limit = Literal["items", "steps", "decisions", "completion"]  # the fields of Limits

# the option of the `rulelang` command that sets each limit
OPTIONS: dict[Limit, str] = {
    "items": "--max-items",
    "steps": "--max-steps",
    "decisions": "--max-decisions",
    "completion": "--max-completion",
}


# The largest value of a limit: a budget past it is no budget at all (10^9 numbers in a
# range alone would take gigabytes), and `--max-items 99999999999999999999` a typo.
MAX_LIMIT = 1_000_000_000

# Bounds of the numbers the `rulelang` command takes besides the limits (docs/cli.md):
MAX_GAMES = 1_000_000_000  # games of `simulate -n`, of each variant of `compare -n`
MAX_JOBS = 256  # worker processes `-j` may ask for (never more than it has games for)
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1  # a seed is kept as a 64-bit integer (saved games)
MAX_SEARCH_ITERATIONS = 1_000_000  # per decision of a search bot (`mcts:N`): its tree grows


@dataclass(frozen=True, slots=True)
class Limits:
    """The resource budget of a compiled ruleset; each limit a whole number from 1 to
    MAX_LIMIT.

    items: the most numbers in a range `a..b` (so the faces of a die and the options of
        a choice written as one), keys of a table, nodes of a board, cells of a grid,
        pieces or cards of a kind (R009, R021, R008, R022);
    steps: the rounds of loops and turns the rules may run between two decisions (R001);
    decisions: the decisions bots alone take in one game (`rulelang play --bots all`,
        `rulelang simulate`) before it is stopped as a game that never ends (R010), and
        the default `max_decisions` of `Game.playout`;
    completion: the states one `complete` choice may visit while it looks for a way to
        complete the effect of its options (R025).
    """

    items: int = 1_000_000
    steps: int = 100_000
    decisions: int = 100_000
    completion: int = 10_000

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise UsageError(
                    f"the limit '{f.name}' must be a whole number of at least 1, not {value!r}"
                )
            if value > MAX_LIMIT:
                raise UsageError(f"the limit '{f.name}' must be at most {MAX_LIMIT}, not {value}")


DEFAULT_LIMITS = Limits()

"""The options several commands share, declared once (as pip's cli/cmdoptions.py), and
their parsing: the rule file's folders (--allow-path), the players, the rules' params
(-o name=value), the seats' bots (--bots) and the runtime's limits (`with_limits`
gives a command the four --max-* options as one `Limits`)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from rulelang.cli.errors import usage
from rulelang.diagnostics import UsageError, did_you_mean
from rulelang.limits import DEFAULT_LIMITS, MAX_LIMIT, OPTIONS, Limit, Limits
from rulelang.words import player_range

if TYPE_CHECKING:
    from rulelang.runtime.ruleset import Ruleset

AllowPath = Annotated[
    list[Path] | None,
    typer.Option(
        "--allow-path",
        metavar="DIR",
        help="Let the rule file also read files (bases, data files) in this folder; "
        "repeatable. By default only its own folder and below, and the stdlib.",
    ),
]


Omniscient = Annotated[
    bool,
    typer.Option(
        "--omniscient",
        help="Show the game master's whole view: every hidden attribute, card and "
        "private message (for a referee, a teacher, or a rule file's author).",
    ),
]


Players = Annotated[
    int | None,
    typer.Option(
        "--players",
        "-p",
        metavar="N",
        help="Number of players (needed where the rules allow more than one count).",
    ),
]

RuleParams = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", metavar="NAME=VALUE", help="Change a param of the rules: name=value."
    ),
]


# The runtime's resource budget (rulelang/limits.py), for play, resume, simulate and
# compare: see `with_limits`.
MaxItems = Annotated[
    int,
    typer.Option(
        "--max-items",
        metavar="N",
        help="The most numbers in a range a..b (dice, options of a choice), keys of a "
        "table, nodes of a board, cells of a grid, pieces or cards of a kind; past it a "
        "game stops with R009 (R021, R008, R022).",
    ),
]
MaxSteps = Annotated[
    int,
    typer.Option(
        "--max-steps",
        metavar="N",
        help="The most rounds of loops and turns the rules run between two decisions; "
        "past it a game stops with R001.",
    ),
]
MaxDecisions = Annotated[
    int,
    typer.Option(
        "--max-decisions",
        metavar="N",
        help="The most decisions bots alone take in one game; past it the game stops "
        "with R010 (it never ends).",
    ),
]


MaxCompletion = Annotated[
    int,
    typer.Option(
        "--max-completion",
        metavar="N",
        help="The most states one 'complete' choice visits while it looks for a way to "
        "complete its options' effect; past it the game stops with R025.",
    ),
]


def limits_of(items: int, steps: int, decisions: int, completion: int) -> Limits:
    """The limits the options give; a value below 1 is a usage error."""
    given: dict[Limit, int] = {
        "items": items,
        "steps": steps,
        "decisions": decisions,
        "completion": completion,
    }
    for name, value in given.items():
        if value < 1:
            raise usage(f"{OPTIONS[name]} must be a whole number of at least 1, not {value}")
        if value > MAX_LIMIT:
            raise usage(f"{OPTIONS[name]} must be at most {MAX_LIMIT}, not {value}")
    return Limits(**given)


def check_number(option: str, value: int, low: int, high: int) -> None:
    """A whole-number option outside low..high (both included) is a usage error: one
    line, exit 64, before anything is built from it."""
    if not low <= value <= high:
        raise usage(f"{option} must be between {low} and {high}, not {value}")


def check_players(ruleset: Ruleset, players: int | None) -> int:
    """The player count: the one given, or the only one the rules allow. A count the
    rules do not allow is a usage error, before seats are made for it (a count of 10^20
    made the bots' seats forever); so is none given where the rules allow several."""
    low, high = ruleset.min_players, ruleset.max_players
    if players is None:
        if low == high or ruleset.is_library:
            return low
        raise usage(f"{ruleset.title} is for {low} to {high} players: say how many with -p N")
    if not ruleset.is_library and not low <= players <= high:  # a library: new_game says
        raise usage(f"{ruleset.title} is for {player_range(low, high)}, not {players}")
    return players


Command = TypeVar("Command", bound=Callable[..., Any])

# the four options of the limits, with their defaults, in the order they are listed
_LIMIT_OPTIONS: tuple[tuple[str, Any, int], ...] = (
    ("max_items", MaxItems, DEFAULT_LIMITS.items),
    ("max_steps", MaxSteps, DEFAULT_LIMITS.steps),
    ("max_decisions", MaxDecisions, DEFAULT_LIMITS.decisions),
    ("max_completion", MaxCompletion, DEFAULT_LIMITS.completion),
)


def with_limits(command: Command) -> Command:
    """The command with --max-items, --max-steps, --max-decisions and --max-completion
    in place of its `limits: Limits` parameter, checked (`limits_of`) before it runs:
    the four options are declared here once, not in every command."""
    signature = inspect.signature(command, eval_str=True)
    params = [p for p in signature.parameters.values() if p.name != "limits"]
    params += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind)
        for name, kind, default in _LIMIT_OPTIONS
    ]

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        given = [kwargs.pop(name, default) for name, _kind, default in _LIMIT_OPTIONS]
        return command(*args, limits=limits_of(*given), **kwargs)

    run.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]  # inspect reads it; no stub
    run.__annotations__ = {p.name: p.annotation for p in params}
    del run.__wrapped__  # typer reads the signature above, not the command's
    return run  # type: ignore[return-value]  # same call, other signature


def parse_options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise usage(f"--option needs name=value, not '{pair}'")
        if key.strip() in out:  # the last would win unsaid
            raise usage(f"--option {key.strip()} is given twice")
        out[key.strip()] = value.strip()
    return out


def parse_bots(
    spec: str, players: int, rules: Ruleset, option: str = "--bots"
) -> dict[int, str | None]:
    """The seats bots play (from 0), each with the bot named for it (`2:careful`,
    `all:random`) or None: the ruleset's declared bots (random if it declares none).
    An unknown bot name is a usage error with "did you mean", naming the option; so
    is a search bot for rules whose secrets it cannot deal anew."""
    from rulelang import search

    seats = _parse_bots(spec, players, rules.bots, option)
    if any(name and search.is_search(name) for name in seats.values()):
        try:
            search.refuse_hidden(rules)
        except UsageError as exc:
            raise usage(f"{option}: {exc}") from None
    return seats


def _parse_bots(
    spec: str, players: int, known: Iterable[str], option: str
) -> dict[int, str | None]:
    from rulelang import search
    from rulelang.runtime.bots import RANDOM

    spec = spec.strip()
    if spec.lower() in ("", "none"):
        return {}
    names = [RANDOM, *known]
    seats: dict[int, str | None] = {}
    given: set[int] = set()  # the seats named by number (after `all`, one narrows it)
    for part in spec.split(","):
        seat, sep, name = (x.strip() for x in part.partition(":"))
        if sep and search.is_search(name):
            try:
                search.parse(name)  # a search bot with its budget: mcts:2000, ismcts:0.5s
            except UsageError as exc:
                raise usage(f"{option}: {exc}") from None
        elif sep and name not in names:
            hint = did_you_mean(name, [*names, *search.SEARCH_BOTS])
            raise usage(
                f"{option}: unknown bot '{name}'; the bots of these rules are "
                + ", ".join(names)
                + f", and the search bots {', '.join(search.SEARCH_BOTS)}"
                + (f" ({hint})" if hint else "")
            )
        if seat.lower() == "all":
            seats.update(dict.fromkeys(range(players), name or None))
            continue
        if not (seat.isascii() and seat.isdigit()) or not 1 <= int(seat) <= players:
            raise usage(
                f"{option} takes 'all', 'none' or seat numbers 1..{players} separated by "
                f"commas, each optionally with ':BOT' (2:random), not '{spec}'"
            )
        if int(seat) in given:  # `1:random,1:mcts`: the last would win unsaid
            raise usage(f"{option}: seat {int(seat)} is given twice, in '{spec}'")
        given.add(int(seat))
        seats[int(seat) - 1] = name or None
    return seats

"""`rulelang compare`: two variants of a game played on the same seeds, each
difference with its 95% interval (rulelang/report/compare.py does the figures)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rulelang.cli.errors import usage
from rulelang.cli.options import (
    AllowPath,
    Players,
    check_players,
    parse_bots,
    parse_options,
    with_limits,
)
from rulelang.cli.simulate import check_run, run_simulation_cli
from rulelang.cli.terminal import say
from rulelang.limits import DEFAULT_LIMITS, Limits
from rulelang.report.provenance import Run, comparison_json
from rulelang.words import counted

if TYPE_CHECKING:
    from rulelang import Ruleset


@with_limits
def compare(
    file_a: Annotated[Path, typer.Argument(metavar="A.rules", help="The rule file of variant A.")],
    players: Players = None,
    file_b: Annotated[
        Path | None,
        typer.Argument(
            metavar="[B.rules]",
            help="The rule file of variant B (default: A's file, changed by --b-option).",
        ),
    ] = None,
    n: Annotated[
        int, typer.Option("-n", "--games", metavar="N", help="How many games of each.")
    ] = 1000,
    seed: Annotated[
        int,
        typer.Option(metavar="N", help="Seed of the first game; game i of A and of B uses seed+i."),
    ] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", metavar="N", help="Processes to use.")] = 1,
    option: Annotated[
        list[str] | None,
        typer.Option(
            "--option",
            "-o",
            metavar="NAME=VALUE",
            help="Change a param of both variants: name=value.",
        ),
    ] = None,
    a_option: Annotated[
        list[str] | None,
        typer.Option(
            "--a-option", metavar="NAME=VALUE", help="Change a param of variant A only: name=value."
        ),
    ] = None,
    b_option: Annotated[
        list[str] | None,
        typer.Option(
            "--b-option", metavar="NAME=VALUE", help="Change a param of variant B only: name=value."
        ),
    ] = None,
    bots: Annotated[
        str, typer.Option(metavar="BOTS", help="The bot of each seat, for both (as in simulate).")
    ] = "all",
    a_bots: Annotated[
        str | None,
        typer.Option(
            "--a-bots", metavar="BOTS", help="The bots of variant A only (default: --bots)."
        ),
    ] = None,
    b_bots: Annotated[
        str | None,
        typer.Option(
            "--b-bots", metavar="BOTS", help="The bots of variant B only (default: --bots)."
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the comparison as JSON.")] = False,
    report: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Also write an HTML page with the paired plots; needs the 'report' extra.",
        ),
    ] = None,
    allow_path: AllowPath = None,
    limits: Limits = DEFAULT_LIMITS,
) -> None:
    """Compare two variants on the same seeds: two rule files, or one file with
    --a-option/--b-option, or the same game played by other bots (--a-bots/--b-bots,
    e.g. a search bot against random on seat 1). Prints each difference B - A (win
    rate per seat and per secret identity, games without a winner, first player,
    cut-off games, mean length) with its 95% interval and whether it is significant."""
    from rulelang.cli.report import check_not_read, check_report, header, write_report
    from rulelang.report import compare as figures
    from rulelang.report import why

    check_report(report)
    if n < 2:
        raise usage("-n must be at least 2 (a difference of means needs two games of each)")
    check_run(n, jobs, seed, least=2)
    bots_a, bots_b = a_bots or bots, b_bots or bots
    if file_b is None and not (a_option or b_option) and bots_a == bots_b:
        raise usage(
            "compare needs two rule files, or one with --a-option/--b-option or "
            "--a-bots/--b-bots to make the two variants (e.g. --b-option exits=4, or "
            "--b-bots 1:ismcts)"
        )
    both = parse_options(option or [])
    opts_a = {**both, **parse_options(a_option or [])}
    opts_b = {**both, **parse_options(b_option or [])}
    from rulelang.loader import rules_path

    file_a = rules_path(file_a)
    path_b = rules_path(file_b) if file_b is not None else file_a
    from rulelang.cli.loading import load  # the engine: when a command runs, not for --help

    rules_a = load(file_a, allow_path, limits)
    rules_b = rules_a if path_b == file_a else load(path_b, allow_path, limits)
    check_not_read(report, "--report", rules_a, rules_b)
    summaries, runs = [], []
    variants = (
        (file_a, rules_a, opts_a, bots_a, "--a-bots" if a_bots else "--bots"),
        (path_b, rules_b, opts_b, bots_b, "--b-bots" if b_bots else "--bots"),
    )
    players = both_players(rules_a, rules_b, players)
    for path, rules, opts, seats, option_name in variants:
        chosen = parse_bots(seats, players, rules, option_name)
        seat_bots = tuple(chosen.get(seat) for seat in range(players))
        runs.append(Run("compare", path, players, n, seed, opts, seats, seat_bots, limits))
        summaries.append(
            run_simulation_cli(
                path,
                rules,
                players,
                n,
                seed,
                opts,
                jobs,
                limits,
                seat_bots,
                allow_path,
                endings=True,
            )
        )
    a, b = summaries
    names = (
        label(file_a, opts_a, a_bots if bots_a != bots_b else None),
        label(path_b, opts_b, b_bots if bots_a != bots_b else None),
    )
    diffs = figures.differences(a, b)
    if as_json:
        run = comparison_json(runs[0], runs[1], rules_a, rules_b)
        print(json.dumps({"run": run, **figures.as_json(names, a, b, diffs)}, indent=2))
    else:
        heading = (
            f"{counted(n, 'game')} each, {counted(players, 'player')}, "
            f"the same seeds {seed} to {seed + n - 1} for both"
        )
        differing = figures.games_differing(a, b)
        if differing == 0:
            say(figures.identical_text(names, heading, n))
        else:
            say(figures.text(names, heading, diffs))
            say(
                f"{differing} of {n} games ended otherwise in B than in A "
                "(winners, length or final numbers)"
            )
            say("\n".join(why.endings_text(a, b)))
    if report is not None:
        shown = ", ".join(f"{k}={v}" for k, v in sorted(both.items()))
        meta = header("A and B", players, n, seed, both, (None,) * players)
        meta = [(k, v) for k, v in meta if k not in ("rule file", "options", "bots")]
        meta.insert(2, ("options of both", shown or "the rule files' defaults"))
        shown_bots = bots if bots_a == bots_b else f"A: {bots_a}; B: {bots_b}"
        meta.insert(3, ("bots", shown_bots))
        title = f"{rules_a.title}: A/B comparison"
        write_report(report, figures.page(title, meta, names, a, b, diffs))


def both_players(a: Ruleset, b: Ruleset, players: int | None) -> int:
    """The player count of both variants: the one given, which both must allow; else
    the one count both allow alike. Without -p, A's count was taken unsaid where B
    allows others (a two-player game against one for 2 to 4): the counts are said and
    -p asked for, with the counts both allow."""
    if players is not None or a.is_library or b.is_library:
        players = check_players(a, players)
        check_players(b, players)
        return players
    if (a.min_players, a.max_players) == (b.min_players, b.max_players):
        return check_players(a, None)  # one count for both; several: -p is asked for
    low, high = max(a.min_players, b.min_players), min(a.max_players, b.max_players)
    common = (
        "no count suits both"
        if low > high
        else f"{counts(low, high)} {'suits' if low == high else 'suit'} both"
    )
    raise usage(
        f"A ({a.title}) is for {counts(a.min_players, a.max_players)} players and B "
        f"({b.title}) for {counts(b.min_players, b.max_players)}: say how many with -p N "
        f"({common})"
    )


def counts(low: int, high: int) -> str:
    return str(low) if low == high else f"{low} to {high}"


def label(path: Path, options: dict[str, str], bots: str | None = None) -> str:
    """A variant as you would name it: its file, every option it is played with (those
    of both too: a label without them read as the file's defaults), and its bots, when
    they are its own."""
    own_bots = [f"--bots {bots}"] if bots else []
    return " ".join([str(path), *(f"-o {k}={v}" for k, v in options.items()), *own_bots])

"""`rulelang simulate`, and the simulation run that it and `compare` share: the game
tried once first, progress on a terminal, every error as one message."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from rulelang.cli.errors import EX_INTERRUPTED, CliExit, runtime_error, say_err, usage
from rulelang.cli.options import (
    AllowPath,
    Players,
    RuleParams,
    check_number,
    check_players,
    parse_bots,
    parse_options,
    with_limits,
)
from rulelang.cli.terminal import say
from rulelang.diagnostics import GameRuntimeError, UsageError
from rulelang.limits import DEFAULT_LIMITS, MAX_GAMES, MAX_JOBS, SEED_MAX, SEED_MIN, Limits

if TYPE_CHECKING:
    from rulelang import Ruleset
    from rulelang.simulation.summary import Summary


@with_limits
def simulate(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE", help="The rule file of the game, or a shipped game by its name."
        ),
    ],
    players: Players = None,
    n: Annotated[int, typer.Option("-n", "--games", metavar="N", help="How many games.")] = 1000,
    seed: Annotated[
        int, typer.Option(metavar="N", help="Seed of the first game; game i uses seed+i.")
    ] = 0,
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            metavar="N",
            help="Processes to use (1); with --dask local, its workers (cores).",
        ),
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="ADDRESS",
            help="Play the games on the Dask cluster whose scheduler is at ADDRESS "
            "(tcp://host:8786), or on a new one on this machine: local. Needs rulelang[dask].",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    option: RuleParams = None,
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOTS",
            help="The bot of each seat: e.g. 2:random,3:careful or all:random, or a search "
            "bot: 1:ismcts:200, 2:mcts:0.5s (see docs/bots.md); seats not "
            "named play the rules' declared bots (random if there are none)",
        ),
    ] = "all",
    report: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Also write an HTML page with plots (win rates, lengths, scores, first "
            "player, cut-off games); needs the 'report' extra (matplotlib).",
        ),
    ] = None,
    allow_path: AllowPath = None,
    limits: Limits = DEFAULT_LIMITS,
) -> None:
    """Play many games with bots (the rules' declared bots, else random); report win
    rates per seat and per secret identity."""
    from rulelang.cli.loading import load
    from rulelang.cli.report import check_not_read, check_report

    check_report(report)
    check_run(n, jobs, seed)
    from rulelang.loader import rules_path

    file = rules_path(file)
    ruleset = load(file, allow_path, limits)
    check_not_read(report, "--report", ruleset)
    options = parse_options(option or [])
    players = check_players(ruleset, players)
    jobs = jobs or (0 if dask else 1)  # with --dask, 0: the cluster's own workers
    chosen = parse_bots(bots, players, ruleset)  # seats not named: the declared bots
    seat_bots = tuple(chosen.get(seat) for seat in range(players))
    summary = run_simulation_cli(
        file, ruleset, players, n, seed, options, jobs, limits, seat_bots, allow_path, dask,
        partial=True,
    )  # fmt: skip
    if as_json:
        from rulelang.report.provenance import Run, run_json

        run = Run("simulate", file, players, n, seed, options, bots, seat_bots, limits)
        print(
            json.dumps({"run": run_json(run, ruleset, summary.runs), **summary.as_json()}, indent=2)
        )
    else:
        say(summary.table(played_by(ruleset, seat_bots)))
    if report is not None:
        from rulelang.cli.report import header, write_report
        from rulelang.report.html import simulation_page
        from rulelang.report.provenance import sha256
        from rulelang.report.why_pages import simulation_sections

        extra = [("rule file SHA-256", sha256(file) or "unreadable")]
        meta = header(str(file), players, summary.runs, seed, options, seat_bots, extra)
        title = f"{ruleset.title}: balance report"
        write_report(report, simulation_page(title, meta, summary, simulation_sections(summary)))
    if summary.runs < n:  # stopped by Ctrl-C: the figures printed are of the games played
        raise CliExit(
            EX_INTERRUPTED,
            f"Simulation stopped after {summary.runs} of {n} games: "
            f"the figures are of those {summary.runs}.",
        )


def played_by(ruleset: Ruleset, seat_bots: tuple[str | None, ...]) -> str:
    """Who played the seats, in one line: a seat not named plays the rules' declared
    bots (which one may depend on the seat), random where the rules declare none."""
    declared = " or ".join(default_bots(ruleset))
    names = [
        b or (f"{declared} (declared)" if declared else "random (no bot declared)")
        for b in seat_bots
    ]
    if len(set(names)) == 1:
        return f"bots: every seat {names[0]}"
    return "bots: " + ", ".join(f"{i + 1}: {b}" for i, b in enumerate(names))


def default_bots(ruleset: Ruleset) -> list[str]:
    """The declared bots a seat not named may get, in the order tried: up to the
    first that suits anyone (later ones only by name), else ending with random."""
    names: list[str] = []
    for bot in ruleset.bots.values():
        names.append(bot.name)
        if bot.suits_anyone:
            return names
    return names + ["random"] if names else names


def check_run(n: int, jobs: int | None, seed: int, least: int = 1) -> None:
    """The numbers of a run of games, within their documented bounds (docs/cli.md):
    `least` to MAX_GAMES games, 1 to MAX_JOBS processes, and seeds (one a game, from
    `seed` on) that are 64-bit numbers, as a saved game keeps them."""
    check_number("-n", n, least, MAX_GAMES)
    if jobs is not None:
        check_number("--jobs", jobs, 1, MAX_JOBS)
    check_number("--seed", seed, SEED_MIN, SEED_MAX - (n - 1))


def run_simulation_cli(
    file: Path,
    ruleset: Ruleset,
    players: int,
    n: int,
    seed: int,
    options: dict[str, str],
    jobs: int,
    limits: Limits,
    seat_bots: tuple[str | None, ...],
    allow_path: list[Path] | None,
    dask: str | None = None,
    endings: bool = False,
    partial: bool = False,
) -> Summary:
    """Simulate for a command (simulate, compare): the game tried once first (a bad
    player count or option is a usage error), progress on a terminal, every error
    as one message; every game cut off is R010, some a warning. `endings`: keep each
    seed's ending (compare). `partial`: on Ctrl-C, the summary of the games played so
    far, if one ended (simulate; a comparison of a whole A with a part of B is none)."""
    from rulelang.loader import allowed_in_environment
    from rulelang.runtime.belief import NoBelief
    from rulelang.simulation.run import Stopped
    from rulelang.simulation.run import simulate as simulation
    from rulelang.simulation.worker import in_game_of

    run_simulation = functools.partial(simulation, dask=dask, endings=endings)
    try:
        ruleset.new_game(players, seed, options)
    except UsageError as exc:
        raise usage(str(exc)) from None
    except GameRuntimeError as err:  # the first game, stopped in its setup or first turn
        raise runtime_error(in_game_of(err, seed), ruleset.program.sources) from None
    with allowed_in_environment(allow_path or []):  # the workers load the file again
        try:
            if sys.stderr.isatty():
                with typer.progressbar(length=n, label="simulating", file=sys.stderr) as bar:
                    summary = run_simulation(
                        str(file), players, n, seed, options, jobs, bar.update, limits, seat_bots
                    )
            else:
                summary = run_simulation(
                    str(file), players, n, seed, options, jobs, lambda d: None, limits, seat_bots
                )
        except GameRuntimeError as err:
            raise runtime_error(err, ruleset.program.sources) from None
        except NoBelief as exc:  # a search bot found no world that fits what it saw
            raise usage(str(exc)) from None
        except Stopped as stop:
            if not (partial and stop.summary.games):
                raise CliExit(EX_INTERRUPTED, "\nSimulation stopped.") from None
            summary = stop.summary
        except KeyboardInterrupt:
            raise CliExit(EX_INTERRUPTED, "\nSimulation stopped.") from None
    if summary.cut_off and not summary.games:  # every game cut off: no figures at all
        raise runtime_error(summary.never_ended(), ruleset.program.sources)
    if summary.cut_off:
        say_err(summary.warning())
    if summary.gave_up_seeds:
        say_err(f"warning: {summary.gave_up_line()}")
    return summary

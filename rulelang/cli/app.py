"""The typer app: `rulelang validate | play | resume | simulate | games`."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated

import typer

from rulelang import Game, Ruleset, UsageError, replay, search
from rulelang.api import compile_file_with_warnings
from rulelang.cli import saves
from rulelang.cli.errors import (
    EX_DATAERR,
    EX_INTERRUPTED,
    EX_IOERR,
    EX_OK,
    EX_USAGE,
    CliExit,
    runtime_error,
    say_err,
    usage,
)
from rulelang.cli.games import Recorder, read_portable
from rulelang.cli.terminal import CONTROL, say
from rulelang.diagnostics import GameRuntimeError, RuleError, did_you_mean, render
from rulelang.limits import (
    DEFAULT_LIMITS,
    MAX_LIMIT,
    OPTIONS,
    SEED_MAX,
    SEED_MIN,
    Limit,
    Limits,
)
from rulelang.runtime.belief import NoBelief
from rulelang.runtime.bots import RANDOM

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    help="Write board games as text: validate, play and simulate rule files.",
)


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


# The runtime's resource budget (rulelang/limits.py), for play, resume and simulate.
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


def check_players(ruleset: Ruleset, players: int) -> None:
    """A player count the rules do not allow is a usage error, before seats are made
    for it (a count of 10^20 made the bots' seats forever)."""
    low, high = ruleset.min_players, ruleset.max_players
    if not ruleset.is_library and not low <= players <= high:  # a library: new_game says
        raise usage(f"{ruleset.title} is for {low} to {high} players, not {players}")


def load(
    path: Path,
    allow: list[Path] | None = None,
    limits: Limits = DEFAULT_LIMITS,
    quote: bool = True,
) -> Ruleset:
    """The rule file compiled, or exit 65 with its problems. Not `quote`: a save's rule
    file that is not the one it was saved with (--force): its problems are counted,
    nothing of it is shown (the user may look with `rulelang validate`)."""
    from rulelang.cli.validate import allowed_folders

    folders = allowed_folders(allow)
    if not path.is_file():
        raise usage(f"no such rule file: {path}")
    try:
        ruleset, warnings = compile_file_with_warnings(path, allow=folders, limits=limits)
    except RuleError as err:
        problems = f"{len(err.diagnostics)} problem(s) in {path}"
        if not quote:
            raise CliExit(
                EX_DATAERR, f"error: {problems}; see them with: rulelang validate {path}"
            ) from None
        shown = [render(d, err.sources) for d in err.diagnostics]
        raise CliExit(EX_DATAERR, "\n".join([*shown, problems])) from None
    for w in warnings if quote else ():
        say_err(render(w, ruleset.program.sources))
    return ruleset


def parse_options(pairs: list[str]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise usage(f"--option needs name=value, not '{pair}'")
        out[key.strip()] = value.strip()
    return out


def parse_bots(
    spec: str, players: int, rules: Ruleset, option: str = "--bots"
) -> dict[int, str | None]:
    """The seats bots play (from 0), each with the bot named for it (`2:careful`,
    `all:random`) or None: the ruleset's declared bots (random if it declares none).
    An unknown bot name is a usage error with "did you mean", naming the option; so
    is a search bot for rules whose secrets it cannot deal anew."""
    seats = _parse_bots(spec, players, rules.bots, option)
    if any(name and search.is_search(name) for name in seats.values()):
        try:
            search.refuse_hidden(rules)
        except UsageError as exc:
            raise usage(f"{option}: {exc}") from None
    return seats


def check_saved_bots(record: saves.Save, rules: Ruleset, what: str) -> None:
    """The bots a save names (its checksum can be recomputed by anyone) are bots these
    rules can play: refused before play (exit 65), not when the bot's turn comes."""
    known = [RANDOM, *rules.bots]
    for seat, name in sorted(record.bot_names.items()):
        try:
            if search.is_search(name):
                search.parse(name)
                search.refuse_hidden(rules)
            elif name not in known:
                raise UsageError("not a bot of these rules")
        except UsageError:
            raise CliExit(
                EX_DATAERR,
                f"error: {what} is damaged: the bot of seat {int(seat) + 1}, {name!r}, is "
                f"not one {rules.title} can play",
            ) from None


def _parse_bots(
    spec: str, players: int, known: Iterable[str], option: str
) -> dict[int, str | None]:
    spec = spec.strip()
    if spec.lower() in ("", "none"):
        return {}
    names = [RANDOM, *known]
    seats: dict[int, str | None] = {}
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
        if not seat.isdigit() or not 1 <= int(seat) <= players:
            raise usage(
                f"{option} takes 'all', 'none' or seat numbers 1..{players} separated by "
                f"commas, each optionally with ':BOT' (2:random), not '{spec}'"
            )
        seats[int(seat) - 1] = name or None
    return seats


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(help="Rule files to check.")],
    allow_path: AllowPath = None,
    max_items: MaxItems = DEFAULT_LIMITS.items,
) -> None:
    """Check rule files; print every problem found, as file:line:col: error[CODE]."""
    from rulelang.cli.validate import validate_files

    check_number("--max-items", max_items, 1, MAX_LIMIT)
    code = validate_files(files, allow_path, dataclasses.replace(DEFAULT_LIMITS, items=max_items))
    if code:
        raise CliExit(code)


@app.command()
def play(
    file: Annotated[Path, typer.Argument(help="The rule file of the game.")],
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")],
    bots: Annotated[
        str,
        typer.Option(
            help="Seats played by bots: 'all', 'none' or e.g. 2,3; a seat may name its bot, "
            "2:random,3:careful, or a search bot with iterations or seconds per decision, "
            "2:mcts,3:ismcts:2000,4:mcts:0.5s (default: the rules' declared bots, else random)"
        ),
    ] = "none",
    seed: Annotated[int, typer.Option(help="Seed of the game's one random generator.")] = 0,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="Change a param of the rules: name=value."),
    ] = None,
    names: Annotated[str, typer.Option(help="Player names, separated by commas.")] = "",
    delay: Annotated[float, typer.Option(help="Seconds to wait after each bot move.")] = 0.0,
    save: Annotated[
        Path | None,
        typer.Option(
            help="Also save the game to this portable file after every move (resume it "
            "later, or on another machine)."
        ),
    ] = None,
    omniscient: Omniscient = False,
    no_store: Annotated[
        bool,
        typer.Option(
            "--no-store",
            help="Do not record the game in the saved games (see 'rulelang games'); "
            "leaving it then saves it to a file.",
        ),
    ] = False,
    allow_path: AllowPath = None,
    max_items: MaxItems = DEFAULT_LIMITS.items,
    max_steps: MaxSteps = DEFAULT_LIMITS.steps,
    max_decisions: MaxDecisions = DEFAULT_LIMITS.decisions,
    max_completion: MaxCompletion = DEFAULT_LIMITS.completion,
) -> None:
    """Play a game in the terminal: friends on one screen, or against bots. Every game
    is recorded, move by move, in the saved games ('rulelang games list')."""
    limits = limits_of(max_items, max_steps, max_decisions, max_completion)
    check_number("--seed", seed, SEED_MIN, SEED_MAX)
    ruleset = load(file, allow_path, limits)
    name_list = [n.strip() for n in names.split(",")] if names else None
    for name in name_list or []:
        if CONTROL.search(name):
            raise usage(f"--names: a name may not hold control characters ({ascii(name)})")
    options = parse_options(option or [])
    try:
        game = ruleset.new_game(players, seed, options, name_list)
    except UsageError as exc:
        raise usage(str(exc)) from None
    except GameRuntimeError as err:
        raise runtime_error(err, ruleset.program.sources) from None
    chosen = parse_bots(bots, players, ruleset)
    record = saves.Save(
        str(file.resolve()),  # with the path from the save's folder: resumable anywhere
        saves.fingerprint(file),
        players,
        seed,
        options,
        list(game.player_names),
        sorted(chosen),
        bot_names={str(s): name for s, name in chosen.items() if name is not None},
    )
    check_table_options(save, delay)
    stored = None if no_store else Recorder.start(ruleset, game, record)
    run_table(ruleset, game, record, save, delay, omniscient, stored)


def write_save(where: Path, game: Game, record: saves.Save, who: str) -> None:
    """Save the game, or stop with one line saying why it could not be (exit 74)."""
    record.log = game.record()
    try:
        saves.write(where, record)
    except OSError as err:
        raise CliExit(EX_IOERR, f"{who} could not be saved to {where}: {err.strerror}") from None


def check_table_options(save: Path | None, delay: float) -> None:
    """Refuse, before anything is played, a --save or --delay that cannot work."""
    if not delay >= 0 or delay > 3600:  # also refuses nan
        raise usage(f"--delay must be between 0 and 3600 seconds, not {delay}")
    if save is None:
        return
    if save.is_dir():
        raise usage(f"--save {save}: that is a folder; name a file to save the game in")
    folder = save.parent if str(save.parent) else Path(".")
    if not folder.is_dir():
        raise usage(f"--save {save}: there is no folder {folder}")
    if save.exists() and not save.is_file():
        raise usage(f"--save {save}: that is not a regular file")


def run_table(
    ruleset: Ruleset,
    game: Game,
    record: saves.Save,
    save: Path | None,
    delay: float,
    omniscient: bool = False,
    stored: Recorder | None = None,
) -> None:
    """Play at the table; on leaving an unfinished game, save it so nothing is lost."""
    from rulelang.cli.play import LeftGame, Table

    check_table_options(save, delay)

    def keep(g: Game) -> None:
        if stored is not None:
            stored.keep(g)
        if save is not None:
            write_save(save, g, record, "error: the game")

    named = {int(s): name for s, name in record.bot_names.items()}
    table = Table(
        game,
        {seat: named.get(seat) for seat in record.bots},
        input,
        print,
        delay=delay,
        after_move=keep,
        max_decisions=ruleset.limits.decisions,
        omniscient=omniscient,
        note=f"(game {stored.id} of the saved games)" if stored is not None else "",
    )
    try:
        table.run()
        if stored is not None:
            say(f"\n{stored.saved_as()}")
    except GameRuntimeError as err:
        raise runtime_error(err, ruleset.program.sources) from None
    except NoBelief as exc:  # a search bot found no world that fits what its seat saw
        raise usage(str(exc)) from None
    except (KeyboardInterrupt, EOFError, LeftGame) as exc:
        # `quit` is a deliberate, successful end of the session (exit 0); Ctrl-C and
        # the end of input are interruptions (130). Either way the game is saved.
        why = "Input ended; game left." if isinstance(exc, EOFError) else "Game left."
        code = EX_OK if isinstance(exc, LeftGame) else EX_INTERRUPTED
        if stored is not None:
            stored.keep(game)
            if save is not None:
                write_save(save, game, record, f"\n{why} It")
            also = f" (and to {save})" if save is not None else ""
            raise CliExit(code, f"\n{why} {stored.saved_as()}{also}") from None
        where = save or Path(f"{Path(record.rules).stem}-seed{record.seed}.save.json")
        write_save(where, game, record, f"\n{why} It")
        raise CliExit(
            code, f"\n{why} Saved to {where}; continue with:\n  rulelang resume {where}"
        ) from None
    finally:
        if stored is not None:
            stored.close()


@app.command()
def resume(
    saved: Annotated[
        str,
        typer.Argument(
            metavar="ID|FILE",
            help="A saved game's id ('rulelang games list'), or a file written with --save.",
        ),
    ],
    save: Annotated[
        Path | None,
        typer.Option(
            help="Save the game to this file after every move (a file's default: the same file)."
        ),
    ] = None,
    omniscient: Omniscient = False,
    delay: Annotated[float, typer.Option(help="Seconds to wait after each bot move.")] = 0.0,
    allow_path: AllowPath = None,
    force: Annotated[
        bool,
        typer.Option(help="Replay the game even if its rule file changed since it was saved."),
    ] = False,
    max_items: MaxItems = DEFAULT_LIMITS.items,
    max_steps: MaxSteps = DEFAULT_LIMITS.steps,
    max_decisions: MaxDecisions = DEFAULT_LIMITS.decisions,
    max_completion: MaxCompletion = DEFAULT_LIMITS.completion,
) -> None:
    """Continue a saved game: by its id ('rulelang games list') or a --save file."""
    from rulelang.cli.games import stored_game

    limits = limits_of(max_items, max_steps, max_decisions, max_completion)
    stored: Recorder | None = None
    path: Path | None = None
    if saved.isdigit():  # an id of the store (write ./7 for a file named 7)
        stored, record = stored_game(saved)
    else:
        path = Path(saved)
        record = read_portable(path)
        save = save or path
    what = f"the saved game {saved}"
    ruleset, game = replay_saved(record, what, allow_path, limits, force, path)
    check_saved_bots(record, ruleset, what)
    say(f"Resuming {ruleset.title} after {len(record.log)} events.")
    if stored is not None:
        say(f"Recording as game {stored.id}.")
    run_table(ruleset, game, record, save, delay, omniscient, stored)


def saved_rules(
    record: saves.Save, what: str, save_file: Path | None, allow: list[Path] | None
) -> tuple[Path, str]:
    """The rule file a save names (saves.rule_file), and "" if its sha256 is the one
    recorded, else the line saying it changed. Exit 65 for a refused path, 64 for a
    missing file."""
    try:
        path, now = saves.rule_file(what, record, save_file, allow or [])
    except saves.MissingRules as exc:
        raise usage(str(exc)) from None
    except saves.SaveError as exc:
        raise CliExit(EX_DATAERR, f"error: {exc}") from None
    if now == record.rules_sha256:
        return path, ""
    return path, (
        f"{path} changed since this game was saved (sha256 "
        f"{record.rules_sha256[:12]}... then, {now[:12]}... now)"
    )


def replay_saved(
    record: saves.Save,
    what: str,
    allow_path: list[Path] | None,
    limits: Limits,
    force: bool,
    save_file: Path | None = None,
) -> tuple[Ruleset, Game]:
    """The game a save records, replayed to where it was left; its rule file changed
    since is refused with one line before it is parsed (unless `force`), as is a game
    that is over. `save_file`: the portable save's file (None: the store's game)."""
    rules_path, differs = saved_rules(record, what, save_file, allow_path)
    if differs and not force:
        raise CliExit(EX_DATAERR, f"error: {differs}; add --force to replay it anyway")
    if differs:
        say_err(f"note: {differs}; replaying it anyway (--force)")
    ruleset = load(rules_path, allow_path, limits, quote=not differs)
    record.rules = str(rules_path)  # where it was found: the next save records that
    try:
        game = replay(
            ruleset, record.players, record.seed, record.log, record.options, record.names
        )
    except (UsageError, GameRuntimeError) as exc:
        raise CliExit(
            EX_DATAERR, f"error: {what} cannot be replayed with {rules_path}: {exc}"
        ) from None
    game.auto_chance = True
    if game.is_over():
        raise CliExit(EX_DATAERR, f"error: {what} is already over")
    return ruleset, game


def _add_simulate() -> None:
    from rulelang.cli.simulate_command import simulate

    app.command()(simulate)


_add_simulate()


def _add_games() -> None:
    from rulelang.cli.games import games_app

    app.add_typer(games_app, name="games")


_add_games()


def _add_compare() -> None:
    from rulelang.cli.compare import compare

    app.command()(compare)


_add_compare()


def run_app(args: list[str]) -> int:
    """Run a command through the typer app (errors are mapped by main.run)."""
    if not args:
        app(args=["--help"], standalone_mode=False)
        return EX_USAGE
    try:
        result = app(args=args, standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except typer.Abort:
        raise KeyboardInterrupt from None
    except typer.TyperException as exc:
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        if not message.strip():  # a group without its command: its help was shown
            raise CliExit(EX_USAGE) from None
        raise CliExit(EX_USAGE, f"error: {message}\nTry 'rulelang --help'.") from None
    return result if isinstance(result, int) else 0

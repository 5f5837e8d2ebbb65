"""The typer app: `rulelang validate | play | resume | simulate | compare | games`;
the options they share are in options.py, loading rule files and saves in loading.py."""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from pathlib import Path
from shlex import quote
from typing import TYPE_CHECKING, Annotated

import typer

from rulelang.cli.compare import compare
from rulelang.cli.errors import (
    EX_INTERRUPTED,
    EX_IOERR,
    EX_OK,
    EX_USAGE,
    CliExit,
    runtime_error,
    usage,
)
from rulelang.cli.games import Recorder, games_app, read_portable
from rulelang.cli.options import (
    AllowPath,
    MaxItems,
    Omniscient,
    Players,
    RuleParams,
    check_number,
    check_players,
    parse_bots,
    parse_options,
    with_limits,
)
from rulelang.cli.report import unwritable
from rulelang.cli.rulebook import rulebook
from rulelang.cli.simulate import simulate
from rulelang.cli.terminal import say
from rulelang.diagnostics import GameRuntimeError
from rulelang.limits import DEFAULT_LIMITS, MAX_LIMIT, SEED_MAX, SEED_MIN, Limits
from rulelang.storage import saves

if TYPE_CHECKING:  # the commands import the engine when they run: --help stays quick
    from rulelang import Game, Ruleset

app = typer.Typer(
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: drawing it with rich doubled the start-up
    help="Write board games as text: validate, play and simulate rule files.",
)


@app.command()
def validate(
    files: Annotated[list[Path], typer.Argument(metavar="FILES", help="Rule files to check.")],
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
def lsp(
    debounce: Annotated[
        int,
        typer.Option(help="Milliseconds without a change before a file is checked again."),
    ] = 150,
) -> None:
    """Serve the language server on stdin/stdout, for editors (docs/editors.md). Needs
    the extra: pip install 'rulelang[lsp]'."""
    from rulelang.cli.lsp import run_lsp

    check_number("--debounce", debounce, 0, 10_000)
    run_lsp(debounce)


@app.command(name="test")
def test_rules(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="Rule test files (*.rulestest), folders to look in, or rule files (their tests)."
        ),
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List each case.")] = False,
) -> None:
    """Run rule tests written as text (docs/testing.md): exit 0 if all pass, 2 if any
    fails, 65 for a test file that cannot be read."""
    from rulelang.cli.ruletests import run_tests

    code = run_tests(list(paths or []), verbose)
    if code:
        raise CliExit(code)


@app.command(name="fmt")
def fmt_files(
    files: Annotated[
        list[Path], typer.Argument(metavar="FILES", help="Rule files or folders; - for stdin.")
    ],
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 2 if a file would change.")
    ] = False,
    diff: Annotated[
        bool, typer.Option("--diff", help="Change nothing; print what would change.")
    ] = False,
) -> None:
    """Rewrite rule files in the one layout (indentation, spacing, long lists): exit 0,
    2 with --check if a file would change, 65 for a file that does not parse."""
    from rulelang.cli.fmt import format_files

    code = format_files(files, check, diff)
    if code:
        raise CliExit(code)


@app.command()
def new(
    name: Annotated[str, typer.Argument(help="The new game's name; writes NAME.rules.")],
    base: Annotated[
        str | None,
        typer.Option("--from", help="A shipped game to make a variant of (its file's name)."),
    ] = None,
) -> None:
    """Write a starter rule file (and its rule tests): a variant of a shipped game with
    --from, else a small game to grow."""
    from rulelang.cli.starter import write_starter

    write_starter(name, base)


@app.command()
@with_limits
def play(
    file: Annotated[
        Path,
        typer.Argument(
            metavar="FILE", help="The rule file of the game, or a shipped game by its name."
        ),
    ],
    players: Players = None,
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOTS",
            help="Seats played by bots: 'all', 'none' or e.g. 2,3; a seat may name its bot, "
            "2:random,3:careful, or a search bot with iterations or seconds per decision, "
            "2:mcts,3:ismcts:2000,4:mcts:0.5s (default: the rules' declared bots, else random)",
        ),
    ] = "none",
    seed: Annotated[
        int, typer.Option(metavar="N", help="Seed of the game's one random generator.")
    ] = 0,
    option: RuleParams = None,
    names: Annotated[
        str, typer.Option(metavar="NAMES", help="Player names, separated by commas.")
    ] = "",
    delay: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds to wait after each bot move.")
    ] = 0.0,
    save: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            help="Also save the game to this portable file after every move (resume it "
            "later, or on another machine).",
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
    limits: Limits = DEFAULT_LIMITS,
) -> None:
    """Play a game in the terminal: friends on one screen, or against bots. Every game
    is recorded, move by move, in the saved games ('rulelang games list')."""
    from rulelang.cli.loading import load, start_game

    check_number("--seed", seed, SEED_MIN, SEED_MAX)
    from rulelang.loader import rules_path

    file = rules_path(file)
    ruleset = load(file, allow_path, limits)
    players = check_players(ruleset, players)
    options = parse_options(option or [])
    game = start_game(ruleset, players, seed, options, names)
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


def _kept(
    game: Game, record: saves.Save, save: Path | None, stored: Recorder | None, why: str = ""
) -> str:
    """Keep a game that stops unfinished (left, interrupted, or a search bot that cannot
    go on): in the store and the --save file, else in a save file of its own; say where,
    after `why`."""
    lead = f"{why} " if why else ""
    if stored is not None:
        stored.keep(game, final=True)
        if save is not None:
            write_save(save, game, record, f"\n{lead}It")
        also = f" (and to {save})" if save is not None else ""
        return f"{lead}{stored.saved_as()}{also}"
    where = save or Path(f"{Path(record.rules).stem}-seed{record.seed}.save.json")
    write_save(where, game, record, f"\n{lead}It")
    return f"{lead}Saved to {where}; continue with:\n  rulelang resume {quote(str(where))}"


def check_table_options(save: Path | None, delay: float) -> None:
    """Refuse, before anything is played, a --save or --delay that cannot work."""
    if not delay >= 0 or delay > 3600:  # also refuses nan
        raise usage(f"--delay must be between 0 and 3600 seconds, not {delay}")
    if save is None:
        return
    try:
        _check_save(save)
    except OSError as err:  # a name too long for the file system
        raise usage(f"--save {save}: that cannot be a file name: {err.strerror}") from None


def _check_save(save: Path) -> None:
    if save.is_dir():
        raise usage(f"--save {save}: that is a folder; name a file to save the game in")
    folder = save.parent if str(save.parent) else Path(".")
    if not folder.is_dir():
        raise usage(f"--save {save}: there is no folder {folder}")
    if save.exists() and not save.is_file():
        raise usage(f"--save {save}: that is not a regular file")
    if not saves.may_replace(save):
        raise usage(f"--save {save}: that file is there and is not a saved game; name a new file")
    refused = unwritable(save)
    if refused:
        raise usage(f"--save {save}: {refused}")


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
    from rulelang.runtime.belief import NoBelief

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
        raise CliExit(EX_USAGE, f"error: {exc}\n{_kept(game, record, save, stored)}") from None
    except (KeyboardInterrupt, EOFError, LeftGame) as exc:
        # `quit` is a deliberate, successful end of the session (exit 0); Ctrl-C and
        # the end of input are interruptions (130). Either way the game is saved.
        why = "Input ended; game left." if isinstance(exc, EOFError) else "Game left."
        code = EX_OK if isinstance(exc, LeftGame) else EX_INTERRUPTED
        raise CliExit(code, "\n" + _kept(game, record, save, stored, why)) from None
    finally:
        if stored is not None:
            # the bots' moves made before an error are kept (a failure to store them
            # now is not the error to report)
            with contextlib.suppress(CliExit):
                stored.flush(game)
            stored.close()


@app.command()
@with_limits
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
            metavar="FILE",
            help="Save the game to this file after every move (a file's default: the same file).",
        ),
    ] = None,
    omniscient: Omniscient = False,
    delay: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds to wait after each bot move.")
    ] = 0.0,
    allow_path: AllowPath = None,
    force: Annotated[
        bool,
        typer.Option(help="Replay the game even if its rule file changed since it was saved."),
    ] = False,
    limits: Limits = DEFAULT_LIMITS,
) -> None:
    """Continue a saved game: by its id ('rulelang games list') or a --save file."""
    from rulelang.cli.games import stored_game
    from rulelang.cli.loading import check_saved_bots, replay_saved

    stored: Recorder | None = None
    path: Path | None = None
    if saved.isascii() and saved.isdigit():  # an id of the store (write ./7 for a file named 7)
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


@app.command()
@with_limits
def serve(
    file: Annotated[
        Path | None,
        typer.Argument(metavar="FILE", help="The rule file; without it, a lobby to start tables."),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", metavar="N", help="Number of players.")
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            metavar="BOTS",
            help="Seats played by bots on the server, e.g. 3,4 or 3:random (as for play).",
        ),
    ] = "none",
    option: RuleParams = None,
    seed: Annotated[
        int | None,
        typer.Option(metavar="N", help="Seed of the game's random generator (default: random)."),
    ] = None,
    host: Annotated[
        str,
        typer.Option(
            metavar="HOST",
            help="Address to listen on: 127.0.0.1 (this machine only), or 0.0.0.0 for "
            "every device of your network (docs/serve.md).",
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(metavar="N", help="Port to listen on (0: any free).")] = 8000,
    resume: Annotated[
        str | None,
        typer.Option(metavar="ID", help="Serve the open table ID again, with the same links."),
    ] = None,
    delay: Annotated[
        float, typer.Option(metavar="SECONDS", help="Seconds to wait after each bot move.")
    ] = 0.3,
    names: Annotated[
        str, typer.Option(metavar="NAMES", help="Player names, separated by commas.")
    ] = "",
    allow_path: AllowPath = None,
    limits: Limits = DEFAULT_LIMITS,
) -> None:
    """Host a table in the browser: one link per human seat, one for the game master,
    one for spectators; each device sees only what its seat may. Ctrl-C stops it."""
    from rulelang.cli.serve import serve_command

    serve_command(
        file,
        players,
        bots,
        option or [],
        seed,
        host,
        port,
        resume,
        delay,
        allow_path,
        limits,
        names,
    )


app.command()(simulate)
app.command()(compare)
app.command()(rulebook)
app.add_typer(games_app, name="games")


def run_app(args: list[str]) -> int:
    """Run a command through the typer app (errors are mapped by main.run)."""
    if not args:
        app(args=["--help"], standalone_mode=False)
        return EX_USAGE
    try:
        result = app(args=args, standalone_mode=False)
    except typer.Exit as exc:
        return int(exc.exit_code)
    except SystemExit:  # click's own exit on a broken pipe (`| head`) is status 1,
        # which means a bug in rulelang: main.run says it as the reader leaving. Click
        # (vendored by some typers) wraps standard output then, and only then
        if type(sys.stdout).__name__ == "PacifyFlushWrapper":
            raise BrokenPipeError from None
        raise
    except typer.Abort:
        raise KeyboardInterrupt from None
    except typer.TyperException as exc:
        message = exc.format_message() if hasattr(exc, "format_message") else str(exc)
        if type(exc).__name__ == "NoArgsIsHelpError":  # a group without its command
            print(message)  # its help, on stdout as --help does; still a usage error
            raise CliExit(EX_USAGE) from None
        if not message.strip():  # a group without its command: its help was shown
            raise CliExit(EX_USAGE) from None
        raise CliExit(EX_USAGE, f"error: {message}\nTry 'rulelang --help'.") from None
    return result if isinstance(result, int) else 0

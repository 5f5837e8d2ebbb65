"""`rulelang games list | show | delete | import | export`, and the recording of a game
in play into the store of saved games (store.py)."""

from __future__ import annotations

import contextlib
import dataclasses
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from shlex import quote
from typing import TYPE_CHECKING, Annotated

import typer

from rulelang.cli.errors import EX_DATAERR, EX_IOERR, EX_USAGE, CliExit, say_err, usage
from rulelang.cli.terminal import say
from rulelang.storage import saves
from rulelang.storage.store import (
    OVER,
    PLAYING,
    BadSetting,
    Entry,
    NoSuchGame,
    Store,
    StoreError,
    game_number,
)
from rulelang.words import columns, pad

if TYPE_CHECKING:
    from rulelang import Game, Ruleset

games_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    rich_markup_mode=None,
    help="The saved games: every game 'rulelang play' starts is recorded, move by move, "
    "in one database in your data folder ($RULELANG_DATA_DIR, else "
    "$XDG_DATA_HOME/rulelang or ~/.local/share/rulelang).",
)


@contextmanager
def failures() -> Iterator[None]:
    """A store's failure as one line and an exit code: an unknown id is a usage error
    (64), a damaged database 65, a busy or unwritable one 74."""
    try:
        yield
    except NoSuchGame as exc:
        raise CliExit(EX_USAGE, f"error: {exc} (see 'rulelang games list')") from None
    except BadSetting as exc:
        raise CliExit(EX_USAGE, f"error: {exc}") from None
    except StoreError as exc:
        code = EX_IOERR if exc.io else EX_DATAERR
        raise CliExit(code, f"error: {exc}") from None


def results_line(game: Game) -> str:
    return ", ".join(f"{n}: {r}" for n, r in zip(game.player_names, game.results(), strict=True))


# Bots' moves are stored together, at the latest before a human is asked (or the
# game ends, or the table is left), and at least this often in seconds while bots play
# on alone, so that a game of bots killed at any moment loses at most that much
FLUSH_SECONDS = 1.0
_UNKNOWN = object()  # where the stored events end, for a recorder of a resumed game


class Recorder:
    """A game in play recorded in the store, move by move: each human's move is stored
    (in one transaction with the bots' moves before it) before the next prompt, so a
    process killed at any moment loses no move a player made. Only the new events are
    read from the game and written (a mark of the log where the stored ones end)."""

    def __init__(self, store: Store, game_id: int, bots: frozenset[int] = frozenset()):
        self.store = store
        self.id = game_id
        self.bots = bots  # the seats bots play: their moves may wait for the next
        self.over = False
        self.fresh = False  # started by this process, and no move stored yet
        self.since: object = _UNKNOWN  # the mark (Game.mark) of the last event stored
        self.count = 0  # events stored
        self.done: object = None  # the mark after the last move made, while not stored
        self.waiting = False
        self.flushed = time.monotonic()

    @classmethod
    def start(cls, ruleset: Ruleset, game: Game, record: saves.Save) -> Recorder:
        # the rule file by its full path: the game resumes from any folder
        stored = dataclasses.replace(record, rules=str(Path(record.rules).resolve()))
        stored.log = game.record()
        # a game may end in its setup, before any move: stored as over from the start
        over = game.is_over()
        status, result = (OVER, results_line(game)) if over else (PLAYING, "")
        with failures():
            store = Store(create=True)
            game_id = store.add(ruleset.title, stored, status, result)
            recorder = cls(store, game_id, frozenset(record.bots))
        recorder.fresh, recorder.over = True, over
        recorder.since, recorder.count = game.mark(), len(stored.log)
        then = "" if over else f": 'rulelang resume {recorder.id}' continues it"
        say(f"Recording as game {recorder.id}{then}.")
        return recorder

    def keep(self, game: Game, final: bool = False) -> None:
        """After a move: stored now unless a bot moves next (`final`: now)."""
        self.done, self.waiting = game.mark(), True
        if (
            final
            or game.is_over()
            or game.current_player() not in self.bots
            or time.monotonic() - self.flushed >= FLUSH_SECONDS
        ):
            self.flush(game)

    def flush(self, game: Game) -> None:
        """Store the moves made and not stored yet, in one transaction."""
        if not self.waiting:
            return
        over = self.over = game.is_over()
        if self.since is _UNKNOWN:  # resumed: the whole record, the store skips the old
            events, start = game.record(upto=self.done), 0
        else:
            events, start = game.record(self.since, self.done), self.count
        try:
            self.store.append(
                self.id,
                events,
                OVER if over else PLAYING,
                results_line(game) if over else "",
                start,
            )
        except NoSuchGame as exc:  # deleted while it was played
            raise CliExit(EX_IOERR, f"error: the game could not be saved: {exc}") from None
        except StoreError as exc:
            why = f"the game could not be saved: {exc}; {self._kept()}"
            raise CliExit(EX_IOERR, f"error: {why}") from None
        self.since, self.count, self.waiting = self.done, start + len(events), False
        self.flushed = time.monotonic()
        self.fresh = False

    def _kept(self) -> str:
        """What the store keeps of a game whose move could not be stored: the moves
        before it; a game begun here with none is deleted, not left with 0 moves."""
        if self.fresh:
            with contextlib.suppress(StoreError):
                self.store.delete(self.id)
                return "nothing of it was kept"
            return f"game {self.id} holds it as it began"
        return f"game {self.id} keeps every move before this one: 'rulelang resume {self.id}'"

    def close(self) -> None:
        self.store.close()

    def saved_as(self) -> str:
        if self.over:
            return f"Saved as game {self.id}: 'rulelang games show {self.id}'"
        return f"Saved as game {self.id}: 'rulelang resume {self.id}'"


def stored_game(game_id: int | str) -> tuple[Recorder, saves.Save]:
    """A stored game to resume: its recorder (to go on recording) and its save."""
    with failures():
        number = game_number(game_id)
        store = Store()
        record = store.load(number)
        return Recorder(store, number, frozenset(record.bots)), record


def when(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def seats(entry: Entry, bot_names: dict[str, str] | None = None) -> list[str]:
    """Each seat's name, a bot's marked (with its bot when one was named)."""
    out = []
    for seat in range(entry.players):
        name = entry.names[seat] if seat < len(entry.names) else f"player {seat + 1}"
        if seat in entry.bots:
            bot = (bot_names or {}).get(str(seat))
            name += f" (bot: {bot})" if bot else " (bot)"
        out.append(name)
    return out


@games_app.command("list")
def list_games() -> None:
    """List the saved games, the most recently played first."""
    with failures(), Store(write=False) as store:
        entries = store.entries()
    if not entries:
        say("no saved games")
        return
    rows = [("id", "game", "rule file", "players", "moves", "status", "last played")]
    for e in entries:
        status = f"over ({e.result})" if e.status == OVER else e.status
        rows.append(
            (
                str(e.id),
                e.title,
                Path(e.rules).name,
                ", ".join(seats(e)),
                str(e.decisions),
                status,
                when(e.updated),
            )
        )
    widths = [max(columns(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        cells = [pad(r[0], widths[0], right=True)] + [
            pad(c, w) for c, w in zip(r[1:], widths[1:], strict=True)
        ]
        say("  ".join(cells).rstrip())


Id = Annotated[int, typer.Argument(metavar="ID", help="The game's id ('rulelang games list').")]


@games_app.command("show")
def show(game_id: Id) -> None:
    """Show a saved game: its table, status and public log (never a secret)."""
    with failures(), Store(write=False) as store:
        entry = store.entry(game_id)
        record = store.load(game_id)
    say(f"Game {entry.id}: {entry.title}")
    say(f"  rule file: {entry.rules}")
    say(f"  players: {', '.join(seats(entry, record.bot_names))}")
    options = ", ".join(f"{k}={v}" for k, v in record.options.items())
    say(f"  seed: {record.seed}" + (f"; options: {options}" if options else ""))
    say(f"  moves: {entry.decisions} ({len(record.log)} events with chance)")
    say(f"  started {when(entry.created)}, last played {when(entry.updated)}")
    say(f"  status: {entry.status}" + (f": {entry.result}" if entry.result else ""))
    say("")
    log, why = public_log(record)
    if why:
        say(f"(no public log: {why})")
    else:
        say("public log:")
        for line in log:
            say(f"  {line}")
    if entry.status == PLAYING:
        say(f"\ncontinue with: rulelang resume {entry.id}")


def public_log(record: saves.Save) -> tuple[list[str], str]:
    """What every player saw of the game (the log as PUBLIC sees it), or why it cannot
    be shown: it is replayed from the rule file, which must be there, unchanged."""
    from rulelang import PUBLIC, replay
    from rulelang.api import compile_file
    from rulelang.diagnostics import RulelangError
    from rulelang.loader import shown

    try:
        path, now = saves.rule_file("it", record, None)
    except saves.MissingRules:
        return [], f"the rule file {shown(record.rules)} is missing"
    except saves.SaveError as exc:
        return [], str(exc)
    if now != record.rules_sha256:
        return [], f"the rule file {path} changed since the game was saved"
    try:
        ruleset = compile_file(path)
        game = replay(
            ruleset, record.players, record.seed, record.log, record.options, record.names
        )
    except RulelangError as exc:
        return [], f"it does not replay: {str(exc).splitlines()[0]}"
    return game.history(PUBLIC), ""


@games_app.command("delete")
def delete(
    game_id: Annotated[
        int | None, typer.Argument(metavar="[ID]", help="The game to delete.")
    ] = None,
    every: Annotated[bool, typer.Option("--all", help="Delete every saved game.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="With --all: do not ask first.")] = False,
) -> None:
    """Delete a saved game, or all of them (--all asks first)."""
    from rulelang.serve.keeper import forget_links

    if (game_id is None) == (not every):
        raise usage("give the id of a game to delete, or --all (not both)")
    with failures(), Store() as store:
        if game_id is not None:
            store.delete(game_id)
            say(f"Deleted game {game_id}.")
            _links_left(forget_links(game_id))
            return
        count = len(store.entries())
        if count == 0:
            say("no saved games")
            return
        if not yes:
            if not sys.stdin.isatty():
                raise usage(
                    f"not deleting all {count} saved game(s) without asking, and the input "
                    "is not a terminal: add --yes to delete them"
                )
            answer = input(f"Delete all {count} saved game{'s' if count != 1 else ''}? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                say("Nothing deleted.")
                return
        gone = store.delete_all()
        say(f"Deleted {gone} saved game{'s' if gone != 1 else ''}.")
        _links_left(forget_links())


def _links_left(failed: list[str]) -> None:
    """Warn of a served table's links file that stayed behind its deleted game."""
    for line in failed:
        say_err(f"warning: the links of a deleted table could not be removed: {line}")


@games_app.command("import")
def import_game(
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="A file written with 'rulelang play --save'.")
    ],
    force: Annotated[
        bool, typer.Option(help="Import it even if its rule file changed since it was saved.")
    ] = False,
    allow_path: Annotated[
        list[Path] | None,
        typer.Option(
            "--allow-path",
            metavar="DIR",
            help="Let the save name a rule file in this folder, and the rule file read "
            "files in it; repeatable.",
        ),
    ] = None,
) -> None:
    """Copy a portable saved game into the saved games; print its new id."""
    from rulelang.cli.loading import load, saved_rules

    record = read_portable(file)
    path, differs = saved_rules(record, f"saved game '{file}'", file, allow_path)
    if differs and not force:
        raise CliExit(
            EX_DATAERR,
            f"error: {file} cannot be imported: {differs}; add --force to import it anyway",
        )
    ruleset = load(path, allow_path, quote=not differs)
    record.rules = str(path)
    game, why = _replayed(ruleset, record)
    if why:
        raise CliExit(EX_DATAERR, f"error: {file} cannot be imported: {why}")
    assert game is not None
    over = game.is_over()
    with failures(), Store(create=True) as store:
        new = store.add(
            ruleset.title, record, OVER if over else PLAYING, results_line(game) if over else ""
        )
    say(f"Imported {file} as game {new}: 'rulelang resume {new}'")


def _replayed(ruleset: Ruleset, record: saves.Save) -> tuple[Game | None, str]:
    from rulelang import UsageError, replay
    from rulelang.diagnostics import GameRuntimeError

    try:
        return replay(
            ruleset, record.players, record.seed, record.log, record.options, record.names
        ), ""
    except (UsageError, GameRuntimeError) as exc:
        return None, f"it does not replay with {record.rules}: {exc}"


@games_app.command("export")
def export(
    game_id: Id,
    file: Annotated[
        Path, typer.Argument(metavar="FILE", help="The file to write (portable, like --save).")
    ],
) -> None:
    """Write a saved game to a portable file, which 'rulelang resume FILE' continues."""
    if not saves.may_replace(file) and file.is_file():
        raise usage(f"{file} is there and is not a saved game; name a new file")
    with failures(), Store(write=False) as store:
        record = store.load(game_id)
    try:
        saves.write(file, record)
    except OSError as exc:
        raise CliExit(
            EX_IOERR, f"error: game {game_id} could not be written to {file}: {exc.strerror}"
        ) from None
    say(f"Exported game {game_id} to {file}: 'rulelang resume {quote(str(file))}'")


def read_portable(path: Path) -> saves.Save:
    """A portable saved game read for `resume FILE` and `games import`: a missing file
    is a usage error, a damaged one a one-line data error."""
    if not path.is_file():
        raise usage(f"no such saved game: {path}")
    try:
        return saves.read(path)
    except saves.SaveError as exc:
        raise CliExit(EX_DATAERR, f"error: {exc}") from None

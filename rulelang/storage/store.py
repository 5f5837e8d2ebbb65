"""The store of saved games: one SQLite database in the user's data folder.

Every game `rulelang play` starts is recorded here, one transaction per move, so a
process killed at any moment loses no move it made. A game is what a portable save
(saves.Save) holds, plus its title, times and status; its decision log is kept one
event per row, so a move appends rows instead of rewriting the game. The database is
never deleted or rewritten as a whole: one that is not ours, or is damaged, is
refused with one line and left as it is."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rulelang.diagnostics import RulelangError
from rulelang.storage import saves
from rulelang.words import digits

FILE_NAME = "games.sqlite3"
APPLICATION_ID = 0x524C4E47  # "RLNG": marks the database as rulelang's
SCHEMA = 1  # PRAGMA user_version; a later version migrates from the ones it knows
BUSY_SECONDS = 5.0  # how long to wait for another rulelang writing to the database

# Schema 1. `moves` holds the decision log, one event (JSON, as in a portable save)
# per row; `decisions` counts the players' decisions among them, for the list.
_TABLES = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    rules TEXT NOT NULL,
    rules_sha256 TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    options TEXT NOT NULL,
    names TEXT NOT NULL,
    bots TEXT NOT NULL,
    bot_names TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    status TEXT NOT NULL,
    result TEXT NOT NULL DEFAULT '',
    decisions INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE moves (
    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    n INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
"""
PLAYING, OVER = "in play", "over"
MAX_ID = 2**63 - 1  # SQLite's largest integer: no game has a larger id


class StoreError(RulelangError):
    """The store cannot be used (damaged, not ours, busy, unwritable): one line why."""

    def __init__(self, message: str, io: bool = False):
        super().__init__(message)
        self.io = io  # busy or unwritable (not damaged): the database is fine


class NoSuchGame(StoreError):
    """No saved game has that id."""


class BadSetting(StoreError):
    """The data folder's setting cannot be used (a usage error)."""


def game_number(given: int | str) -> int:
    """The id `given` (a number, or its digits), or NoSuchGame if no game can have it: a
    number SQLite cannot hold is refused here, not by an OverflowError of SQLite."""
    text = str(given)
    if digits(text) and len(text) <= len(str(MAX_ID)) and 1 <= int(text) <= MAX_ID:
        return int(text)
    shown = text if len(text) <= 30 else text[:27] + "..."
    raise NoSuchGame(f"no saved game {shown}: ids are whole numbers from 1 to {MAX_ID}")


@dataclass
class Entry:
    """A stored game's summary, as `games list` shows it."""

    id: int
    title: str
    rules: str
    players: int
    names: list[str]
    bots: list[int]
    decisions: int
    status: str
    result: str
    created: float
    updated: float


def data_dir() -> Path:
    """$RULELANG_DATA_DIR, else the platform's folder for a user's application data."""
    given = os.environ.get("RULELANG_DATA_DIR")
    if given is not None and not given.strip():  # a mistake, not a wish for the default
        raise BadSetting(
            "RULELANG_DATA_DIR is set but empty: name the folder for the saved games, "
            "or unset it to use the default one"
        )
    if given:
        return Path(given)
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("LOCALAPPDATA") or home / "AppData" / "Local") / "rulelang"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "rulelang"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else home / ".local" / "share") / "rulelang"


def default_path() -> Path:
    return data_dir() / FILE_NAME


class Store:
    """An open store. `create` makes the folder and the database when missing;
    without it a missing database is an empty store (nothing is written). Not `write`:
    opened read-only, so that a store in a folder one may not write can be read.
    `any_thread`: the connection may be used from another thread than the one that
    opened it (a server opens it before its event loop runs), one thread at a time."""

    def __init__(
        self,
        path: Path | None = None,
        create: bool = False,
        write: bool = True,
        any_thread: bool = False,
    ):
        self.path = path or default_path()
        self.db: sqlite3.Connection | None = None
        self.write = write or create
        if not self.path.exists():
            if not create:
                return
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"cannot make the folder {self.path.parent}: {exc.strerror}", io=True
                ) from None
        if self.path.is_dir():
            raise StoreError(f"the saved games database {self.path} is a folder")
        writable = all(os.access(p, os.W_OK) for p in (self.path, self.path.parent))
        if self.write and self.path.exists() and not writable:  # WAL writes in the folder
            raise StoreError(
                f"the saved games database {self.path} is read-only (it or its folder may "
                "not be written); 'rulelang games list' and 'show' can still read it",
                io=True,
            )
        with self._errors():
            if self.write:
                self.db = sqlite3.connect(
                    self.path,
                    timeout=BUSY_SECONDS,
                    isolation_level=None,
                    check_same_thread=not any_thread,
                )
                self._open()
            else:
                self.db = self._read_only()

    def close(self) -> None:
        if self.db is not None:
            self.db.close()
            self.db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _read_only(self) -> sqlite3.Connection | None:
        """The database opened read-only, or None if it is new (empty). SQLite reads a
        WAL database read-only only where it may make its -shm file; in a folder it may
        not write, and with no writer (none can write there either) it reads it as
        immutable (a -wal file a crash left there is not seen then)."""
        uri = self.path.absolute().as_uri()
        for mode in ("mode=ro", "immutable=1"):
            db = sqlite3.connect(f"{uri}?{mode}", uri=True, timeout=BUSY_SECONDS)
            try:
                new = self._check(db)
            except sqlite3.OperationalError:
                db.close()
                if mode == "mode=ro" and not os.access(self.path.parent, os.W_OK):
                    continue
                raise
            if not new:
                return db
            db.close()
            return None
        return None

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """Any SQLite failure as one line; the database is left as it is."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", None)
            if code == sqlite3.SQLITE_FULL or "disk is full" in str(exc):
                raise StoreError(
                    f"no space left on device for the saved games database {self.path}",
                    io=True,
                ) from None
            if "readonly" in str(exc):
                raise StoreError(
                    f"the saved games database {self.path} is read-only: {exc}", io=True
                ) from None
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(
                    f"the saved games database {self.path} is busy (another rulelang is "
                    f"writing to it, waited {BUSY_SECONDS:g} s); try again in a moment",
                    io=True,
                ) from None
            raise StoreError(
                f"cannot use the saved games database {self.path}: {exc}", io=True
            ) from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"{self.path} is damaged or is not a rulelang saved games database ({exc}); "
                "it was left as it is: move it away to start a new one"
            ) from None

    def _open(self) -> None:
        """Check that the database is ours and of a schema this version knows; make the
        tables in a new (empty) one, in the same transaction as the check: two first
        `play`s at once must not both find it empty. Nothing is written to a database
        that is not ours."""
        db = self.db
        assert db is not None
        db.execute("BEGIN IMMEDIATE")
        try:
            new = self._check(db)
            if new:  # make it ours
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:  # SQLite rolls back by itself on some errors
                db.execute("ROLLBACK")
            raise
        if new:  # outside a transaction, where the journal mode can change
            _to_wal(db)
        db.execute("PRAGMA foreign_keys=ON")
        # a move is committed to disk before the game goes on: a crash loses none
        db.execute("PRAGMA synchronous=FULL")

    def _check(self, db: sqlite3.Connection) -> bool:
        """True if the database is new (empty); raise if it is not ours or of a schema
        this version does not know."""
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app == 0 and version == 0 and tables == 0:
            return True
        if app != APPLICATION_ID:
            raise sqlite3.DatabaseError("it is another program's database")
        if version > SCHEMA:
            raise StoreError(
                f"the saved games database {self.path} was written by a newer rulelang "
                f"(schema {version}; this one knows {SCHEMA}); it was left as it is"
            )
        if version != SCHEMA:
            raise sqlite3.DatabaseError(f"unknown schema {version}")
        return False

    def _db(self, game: int | None) -> sqlite3.Connection:
        """The database, to use game `game` (None: a new one) in it."""
        if game is not None:
            game_number(game)
        if self.db is None:  # no database yet: no game
            raise NoSuchGame(f"no saved game {game}")
        return self.db

    # -- writing -----------------------------------------------------------------

    def add(self, title: str, save: saves.Save, status: str = PLAYING, result: str = "") -> int:
        """Record a game (with the events of its log so far); its new id."""
        now = time.time()
        with self._errors():
            db = self._db(None)
            db.execute("BEGIN IMMEDIATE")
            try:
                cur = db.execute(
                    "INSERT INTO games (title, rules, rules_sha256, players, seed, options, "
                    "names, bots, bot_names, created, updated, status, result) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        title,
                        save.rules,
                        save.rules_sha256,
                        save.players,
                        save.seed,
                        json.dumps(save.options),
                        json.dumps(save.names),
                        json.dumps(save.bots),
                        json.dumps(save.bot_names),
                        now,
                        now,
                        status,
                        result,
                    ),
                )
                game = int(cur.lastrowid or 0)
                self._append(db, game, 0, save.log, now)
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # SQLite rolls back by itself on a full disk
                    db.execute("ROLLBACK")
                raise
        return game

    def append(
        self, game: int, log: list[Any], status: str = PLAYING, result: str = "", start: int = 0
    ) -> None:
        """One transaction: the events of `log` not stored yet, and the game's status.
        `log` holds the game's events from event `start` on (a recorder passes only
        the new ones)."""
        with self._errors():
            db = self._db(game)
            db.execute("BEGIN IMMEDIATE")
            try:
                if db.execute("SELECT 1 FROM games WHERE id=?", (game,)).fetchone() is None:
                    raise NoSuchGame(
                        f"saved game {game} was deleted from {self.path} while it was played"
                    )
                # the next event's number, from the primary key (not a count of rows)
                row = db.execute("SELECT max(n) FROM moves WHERE game=?", (game,)).fetchone()
                stored = 0 if row[0] is None else row[0] + 1
                if stored < start:
                    raise StoreError(f"saved game {game} lacks events before event {start}")
                self._append(db, game, stored, log[stored - start :], time.time())
                db.execute("UPDATE games SET status=?, result=? WHERE id=?", (status, result, game))
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:  # SQLite rolls back by itself on a full disk
                    db.execute("ROLLBACK")
                raise

    @staticmethod
    def _append(
        db: sqlite3.Connection, game: int, start: int, events: list[Any], now: float
    ) -> None:
        db.executemany(
            "INSERT INTO moves (game, n, event) VALUES (?,?,?)",
            [(game, start + i, json.dumps(e)) for i, e in enumerate(events)],
        )
        chose = sum(1 for e in events if isinstance(e, dict) and "choose" in e)
        db.execute(
            "UPDATE games SET updated=?, decisions=decisions+? WHERE id=?", (now, chose, game)
        )

    def delete(self, game: int) -> None:
        with self._errors():
            cur = self._db(game).execute("DELETE FROM games WHERE id=?", (game,))
            if cur.rowcount == 0:
                raise NoSuchGame(f"no saved game {game}")

    def delete_all(self) -> int:
        if self.db is None:
            return 0
        with self._errors():
            return int(self.db.execute("DELETE FROM games").rowcount)

    # -- reading -----------------------------------------------------------------

    def entries(self) -> list[Entry]:
        """Every stored game, the most recently played first."""
        if self.db is None:
            return []
        with self._errors():
            rows = self.db.execute(
                "SELECT id, title, rules, players, names, bots, decisions, status, result, "
                "created, updated FROM games ORDER BY updated DESC, id DESC"
            ).fetchall()
        return [self._entry(row) for row in rows]

    def entry(self, game: int) -> Entry:
        with self._errors():
            row = (
                self._db(game)
                .execute(
                    "SELECT id, title, rules, players, names, bots, decisions, status, result, "
                    "created, updated FROM games WHERE id=?",
                    (game,),
                )
                .fetchone()
            )
        if row is None:
            raise NoSuchGame(f"no saved game {game}")
        return self._entry(row)

    def _entry(self, row: tuple[Any, ...]) -> Entry:
        """A row of `games` as an Entry, every field checked (a corrupt row is refused)."""
        try:
            names, bots = json.loads(row[4]), json.loads(row[5])
        except (ValueError, TypeError, RecursionError):
            names = bots = None
        entry = Entry(row[0], row[1], row[2], row[3], names, bots, *row[6:])
        number = (int, float)
        ok = (
            isinstance(entry.title, str)
            and isinstance(entry.rules, str)
            and type(entry.players) is int
            and 1 <= entry.players <= 1000
            and isinstance(names, list)
            and all(isinstance(n, str) for n in names)
            and isinstance(bots, list)
            and all(type(b) is int for b in bots)
            and type(entry.decisions) is int
            and entry.status in (PLAYING, OVER)
            and isinstance(entry.result, str)
            and isinstance(entry.created, number)
            and isinstance(entry.updated, number)
        )
        if not ok:
            raise StoreError(f"saved game {row[0]} in {self.path} is damaged")
        return entry

    def load(self, game: int) -> saves.Save:
        """The game as a portable save holds it, every field checked."""
        with self._errors():
            db = self._db(game)
            row = db.execute(
                "SELECT rules, rules_sha256, players, seed, options, names, bots, bot_names "
                "FROM games WHERE id=?",
                (game,),
            ).fetchone()
            if row is None:
                raise NoSuchGame(f"no saved game {game}")
            events = db.execute(
                "SELECT n, event FROM moves WHERE game=? ORDER BY n", (game,)
            ).fetchall()
        what = f"saved game {game} in {self.path}"
        try:
            if [n for n, _ in events] != list(range(len(events))):
                raise ValueError("its log has a gap")
            data: dict[str, Any] = {
                "rules": row[0],
                "rules_sha256": row[1],
                "players": row[2],
                "seed": row[3],
                "options": json.loads(row[4]),
                "names": json.loads(row[5]),
                "bots": json.loads(row[6]),
                "bot_names": json.loads(row[7]),
                "log": [json.loads(e) for _, e in events],
            }
        except (ValueError, TypeError, RecursionError):
            raise StoreError(f"{what} is damaged (a field is not what rulelang wrote)") from None
        try:
            return saves.from_data(what, data)
        except saves.SaveError as exc:
            raise StoreError(str(exc)) from None


def _to_wal(db: sqlite3.Connection) -> None:
    """Switch a new database to WAL. The switch needs the database to itself, and while
    other connections read it (first `play`s at once, checking whether it is new) SQLite
    answers "locked" at once, without waiting as it does for a write: asked again until
    BUSY_SECONDS have passed (one first play in 8 at once failed so, 5 rounds in 60)."""
    deadline = time.monotonic() + BUSY_SECONDS
    while True:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            busy = "locked" in str(exc) or "busy" in str(exc)
            if not busy or time.monotonic() > deadline:
                raise
        time.sleep(0.005)

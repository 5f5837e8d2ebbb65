"""The store of saved games under strain: ids no game can have, first `play`s racing
to make the database, a read-only data folder, a full disk, an empty data folder
setting. Each is one clear line and its documented exit code, and the store is never
left half-written."""

from __future__ import annotations

import builtins
import ctypes
import json
import os
import select
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_support import cli, no_traceback

from rulelang.storage import saves, store

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
WHISPER = ROOT / "tests" / "games" / "whisper.rules"
CLI = "from rulelang.cli.main import main; main()"


def one_game() -> None:
    """A store holding one game in play."""
    record = saves.Save(str(WHISPER), saves.fingerprint(WHISPER), 2, 0, {}, ["A", "B"], [1])
    with store.Store(create=True) as s:
        s.add("Whisper", record)


# ------------------------------------------------------------------ ids
@pytest.mark.parametrize(
    "number",
    ["99999999999999999999999", str(2**63), "0", "9" * 5000, "-1"],
    ids=["huge", "2**63", "zero", "5000 digits", "negative"],
)
def test_ids_no_game_can_have_are_usage_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, number: str
) -> None:
    """`games show 99999999999999999999999` exited 1 (an OverflowError from SQLite)."""
    one_game()
    for argv in (
        ["games", "show", "--", number],
        ["games", "delete", "--", number],
        ["games", "export", "--", number, tmp_path / "x.json"],
        ["resume", number],
    ):
        code, out, err = cli(capsys, *argv)
        assert code == 64, (argv, err)
        no_traceback(out, err)
        assert out == "" and err.count("\n") <= 2 and len(err) < 300, err
    assert cli(capsys, "games", "show", "1")[0] == 0  # nothing was deleted


@pytest.mark.parametrize("number", ["\u00b2", "\u0661"], ids=["superscript two", "arabic one"])
def test_ids_in_other_digits_are_usage_errors(
    capsys: pytest.CaptureFixture[str], number: str
) -> None:
    """`resume ²` and `serve --resume ²` exited 1 with an internal error (str.isdigit
    holds for '²', int() refuses it); `resume ١` (an Arabic-Indic one) took game 1."""
    one_game()
    for argv in (["resume", number], ["serve", "--resume", number, "--port", "0"]):
        code, out, err = cli(capsys, *argv)
        assert code == 64, (argv, err)
        no_traceback(out, err)
        assert "internal error" not in err and "saved game" in err, err


# ------------------------------------------------------------------ a new store
# A child of the race: `play`, held at its first opening of the store until the test
# says go (closes the pipe of fd argv[1]), having said it is there (a byte on fd argv[2])
AT_THE_STORE = """\
import os, sys
from rulelang.cli.main import run
from rulelang.storage import store
opened = store.Store.__init__
def at_once(self, *args, **kwargs):
    store.Store.__init__ = opened
    os.write(int(sys.argv[2]), b"r")
    os.read(int(sys.argv[1]), 1)
    opened(self, *args, **kwargs)
store.Store.__init__ = at_once
sys.exit(run(sys.argv[3:]))
"""


def test_first_plays_at_once_all_make_or_use_the_store(tmp_path: Path) -> None:
    """Two first `play`s on a new data folder raced: one exited 74 "table games already
    exists". Eight open the new store at the same instant (each held there until all
    are: a loaded machine starts them far apart); every one records its game."""
    data = tmp_path / "fresh"
    env = {**os.environ, "RULELANG_DATA_DIR": str(data)}
    go, ready = os.pipe(), os.pipe()
    fds = (go[0], ready[1])
    argv = ["play", WHISPER, "-p", "2", "--bots", "all"]
    children = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                AT_THE_STORE,
                *map(str, fds),
                *map(str, argv),
                "--seed",
                str(seed),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            env=env,
            pass_fds=fds,
        )
        for seed in range(8)
    ]
    os.close(ready[1])
    try:
        there = b""
        while len(there) < 8 and select.select([ready[0]], [], [], 120)[0]:  # a safety net
            there += os.read(ready[0], 8) or b"?" * 8  # "?": a child ended before
        assert there == b"r" * 8 and not data.exists()
    finally:
        for fd in (go[0], go[1], ready[0]):
            os.close(fd)  # go: every child's read ends at once
    done = [(child.wait(timeout=120), *child.communicate()) for child in children]
    for code_, out, err in done:
        assert code_ == 0, err
        no_traceback(out, err)
    db = sqlite3.connect(data / store.FILE_NAME)
    assert db.execute("SELECT count(*) FROM games").fetchone()[0] == 8
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


# ------------------------------------------------------------------ read-only
def unprivileged() -> Callable[[], None] | None:
    """What a child must run to be refused writes by file permissions: nothing for a
    user; for root, which writes anywhere, dropping the capabilities that let it
    (CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER) from the set its program gets."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    libc = ctypes.CDLL(None, use_errno=True)

    def drop() -> None:
        for capability in (1, 2, 3):
            if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
                raise OSError(ctypes.get_errno(), "prctl")

    return drop


def as_a_user(*argv: object) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [sys.executable, "-c", CLI, *map(str, argv)],
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            preexec_fn=unprivileged(),
            timeout=120,
        )
    except subprocess.SubprocessError as exc:  # root, but the capabilities are not ours
        pytest.skip(f"cannot run a child without root's right to write anywhere: {exc}")


def test_a_read_only_store_can_be_listed_and_shown(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    """`games list` in a read-only data folder exited 74."""
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    assert cli(capsys, "play", WHISPER, "-p", "2", "--bots", "2", "--names", "Ann,Bob")[0] == 0
    database = data_dir / store.FILE_NAME
    try:
        database.chmod(0o444)
        data_dir.chmod(0o555)
        done = as_a_user("games", "list")
        assert done.returncode == 0, done.stderr
        assert "Whisper" in done.stdout and "Ann, Bob (bot)" in done.stdout
        done = as_a_user("games", "show", "1")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Game 1: Whisper\n")
        done = as_a_user("games", "delete", "1")  # writing: one line why not
        assert done.returncode == 74 and done.stderr.count("\n") == 1, done.stderr
        assert "read-only" in done.stderr
        no_traceback(done.stdout, done.stderr)
    finally:
        data_dir.chmod(0o755)
        database.chmod(0o644)
    assert cli(capsys, "games", "show", "1")[0] == 0  # the store is as it was


# ------------------------------------------------------------------ a full disk
def full_after(monkeypatch: pytest.MonkeyPatch, events: int) -> None:
    """The disk fills once a game's `events` first events are stored: SQLite's own
    SQLITE_FULL, by its max_page_count, which it meets exactly as a full disk (the
    transaction is rolled back, 'database or disk is full')."""
    append = store.Store.append

    def filling(
        self: store.Store,
        game: int,
        log: list[Any],
        status: str = "",
        result: str = "",
        start: int = 0,
    ) -> None:
        # `log` holds the game's events from event `start` on
        if start + len(log) > events and self.db is not None:
            pages = self.db.execute("PRAGMA page_count").fetchone()[0]
            self.db.execute(f"PRAGMA max_page_count={pages}")
            log = log + [{"chance": "x" * 3000, "outcome": 0}] * 2  # needs a new page
        append(self, game, log, status, result, start)

    monkeypatch.setattr(store.Store, "append", filling)


def test_a_full_disk_is_said_and_leaves_no_half_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk said "cannot rollback - no transaction is active" and left an
    in-play game with 0 moves."""
    monkeypatch.setattr(builtins, "input", lambda prompt="": "1")
    full_after(monkeypatch, 0)
    code, out, err = cli(capsys, "play", WHISPER, "-p", "2", "--bots", "2")
    assert code == 74, err
    no_traceback(out, err)
    assert "no space left on device" in err and "rollback" not in err
    assert err.startswith("error: ") and err.count("\n") == 1
    code, out, err = cli(capsys, "games", "list")
    assert (code, out) == (0, "no saved games\n"), out  # no game of 0 moves is left


def test_a_disk_full_mid_game_keeps_the_moves_before(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtins, "input", lambda prompt="": "1")
    full_after(monkeypatch, 3)
    code, out, err = cli(capsys, "play", WHISPER, "-p", "2", "--bots", "2")
    assert code == 74, err
    assert "no space left on device" in err and "rollback" not in err
    assert "'rulelang resume 1'" in err
    with store.Store() as s:
        record, entry = s.load(1), s.entry(1)
    # the moves before the disk filled, whole: a human's move and the bot's reply after
    # it are stored in one transaction (before the human is asked again), so the
    # third event, the human's second move, went with the fourth
    assert len(record.log) == 2
    assert entry.decisions == sum(1 for e in record.log if "choose" in e)
    assert all("x" * 3000 not in json.dumps(e) for e in record.log)


# ------------------------------------------------------------------ the data folder
def test_an_empty_data_folder_setting_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """RULELANG_DATA_DIR set but empty used the real store in the home folder."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("RULELANG_DATA_DIR", "")
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    for argv in (["games", "list"], ["play", WHISPER, "-p", "2", "--bots", "2"], ["resume", "1"]):
        code, out, err = cli(capsys, *argv)
        assert code == 64, err
        assert err == (
            "error: RULELANG_DATA_DIR is set but empty: name the folder for the saved "
            "games, or unset it to use the default one\n"
        )
    assert not list(tmp_path.rglob(store.FILE_NAME))  # no store made in the home folder
    code, out, err = cli(capsys, "play", WHISPER, "-p", "2", "--bots", "all", "--no-store")
    assert code == 0, err  # no store, no question


def test_a_new_store_turns_to_wal_though_sqlite_first_says_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The switch of a new store to WAL needs the database to itself, and SQLite
    answers "locked" at once, without waiting, while another connection reads it (a
    first play checking whether the store is new; one first play of eight at once
    failed so, as "busy"): the switch is asked again. SQLite's answer is made here by a
    connection that says "locked" to the first three switches."""
    refused = []

    class Reading(sqlite3.Connection):  # another connection reading, three times
        def execute(self, sql: str, *args: Any) -> sqlite3.Cursor:
            if sql == "PRAGMA journal_mode=WAL" and len(refused) < 3:
                refused.append(sql)
                raise sqlite3.OperationalError("database is locked")
            return super().execute(sql, *args)

    connect = sqlite3.connect
    monkeypatch.setattr(store.sqlite3, "connect", lambda *a, **k: connect(*a, **k, factory=Reading))
    with store.Store(tmp_path / "games.sqlite3", create=True) as made:
        assert made.db is not None
        assert made.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert len(refused) == 3

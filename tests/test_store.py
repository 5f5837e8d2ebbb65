"""The store of saved games: `play` records every game in one SQLite database, move by
move; `games list | show | delete | import | export` and `resume ID` use it; a damaged,
foreign or busy database is refused with one line and never changed."""

from __future__ import annotations

import builtins
import json
import os
import pty
import random
import re
import sqlite3
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang
from rulelang import replay
from rulelang.cli.main import run
from rulelang.storage import saves, store

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"

# A secret number per player, and a message said to the chooser alone.
WHISPER = (ROOT / "tests" / "games" / "whisper.rules").read_text("utf-8")


def answers(monkeypatch: pytest.MonkeyPatch, replies: list[str], then: BaseException) -> None:
    it: Iterator[str] = iter(replies)

    def fake_input(prompt: str = "") -> str:
        for reply in it:
            return reply
        raise then

    monkeypatch.setattr(builtins, "input", fake_input)


def hot(*moves: str) -> list[str]:
    """Two humans share the screen: Enter before each move (the screen is passed), and
    from the second on one more before it (the last holder clears the screen)."""
    return [a for i, m in enumerate(moves) for a in ("", "", m)[(0 if i else 1) :]]


def whisper(tmp_path: Path) -> Path:
    path = tmp_path / "whisper.rules"
    path.write_text(WHISPER, encoding="utf-8")
    return path


def database(data_dir: Path) -> Path:
    return data_dir / "games.sqlite3"


def stored(game_id: int) -> saves.Save:
    with store.Store() as s:
        return s.load(game_id)


# ------------------------------------------------------------------ where and how
def test_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RULELANG_DATA_DIR", str(tmp_path / "mine"))
    assert store.default_path() == tmp_path / "mine" / "games.sqlite3"
    monkeypatch.delenv("RULELANG_DATA_DIR")
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert store.data_dir() == tmp_path / "xdg" / "rulelang"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert store.data_dir() == tmp_path / "home" / ".local" / "share" / "rulelang"
    monkeypatch.setattr(sys, "platform", "darwin")
    assert store.data_dir() == tmp_path / "home" / "Library" / "Application Support" / "rulelang"


def test_the_database_is_wal_and_versioned(
    capsys: pytest.CaptureFixture[str], data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    assert cli(capsys, "play", HEIMLICH, "-p", "2", "--bots", "2")[0] == 0
    db = sqlite3.connect(database(data_dir))
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA == 1
    assert db.execute("PRAGMA application_id").fetchone()[0] == store.APPLICATION_ID


# ------------------------------------------------------------------ play records
def test_play_records_every_game_and_list_shows_it(
    capsys: pytest.CaptureFixture[str], data_dir: Path
) -> None:
    code, out, err = cli(capsys, "games", "list")
    assert (code, out, err) == (0, "no saved games\n", "")
    assert not database(data_dir).exists()  # looking creates nothing
    code, out, err = cli(
        capsys, "play", HEIMLICH, "-p", "3", "--bots", "all", "--seed", "2", "--names", "A,B,C"
    )
    assert code == 0, err
    assert out.startswith("Recording as game 1: 'rulelang resume 1' continues it.\n")
    assert out.endswith("Saved as game 1: 'rulelang games show 1'\n")
    game = rulelang.compile_file(HEIMLICH).new_game(3, 2, names=["A", "B", "C"])
    record = stored(1)
    assert record.rules == str(HEIMLICH) and record.rules_sha256 == saves.fingerprint(HEIMLICH)
    assert (record.players, record.seed, record.names, record.bots) == (
        3,
        2,
        ["A", "B", "C"],
        [0, 1, 2],
    )
    again = replay(rulelang.compile_file(HEIMLICH), 3, 2, record.log, names=["A", "B", "C"])
    assert again.is_over() and not game.is_over()
    results = ", ".join(f"{n}: {r}" for n, r in zip("ABC", again.results(), strict=True))
    code, out, _ = cli(capsys, "games", "list")
    header, row = out.splitlines()
    assert header.split() == [
        "id",
        "game",
        "rule",
        "file",
        "players",
        "moves",
        "status",
        "last",
        "played",
    ]
    decisions = sum(1 for e in record.log if "choose" in e)
    assert row.startswith(" 1  Heimlich & Co  heimlich.rules  A (bot), B (bot), C (bot)  ")
    assert f"  {decisions}  " in row and f"over ({results})" in row


def test_list_is_newest_first(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(2):
        answers(monkeypatch, ["1"], KeyboardInterrupt())
        assert run(["play", str(HEIMLICH), "-p", "2", "--bots", "2"]) == 130
    answers(monkeypatch, ["1"], KeyboardInterrupt())
    assert run(["resume", "1"]) == 130  # game 1 is played last
    capsys.readouterr()
    out = cli(capsys, "games", "list")[1]
    assert [line.split()[0] for line in out.splitlines()[1:]] == ["1", "2"]


def test_every_move_is_one_transaction(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    """Before each answer is read, the moves so far are in the database already (read
    by another connection, as another process would)."""
    seen: list[int] = []

    def fake_input(prompt: str = "") -> str:
        if database(data_dir).exists():
            db = sqlite3.connect(database(data_dir))
            seen.append(db.execute("SELECT count(*) FROM moves").fetchone()[0])
            db.close()
        if len(seen) >= 6:
            raise KeyboardInterrupt
        return "1"

    monkeypatch.setattr(builtins, "input", fake_input)
    assert run(["play", str(HEIMLICH), "-p", "2", "--bots", "2", "--seed", "5"]) == 130
    assert seen == sorted(seen) and len(set(seen)) >= 4
    assert len(stored(1).log) == seen[-1]


def test_no_store_records_nothing(
    capsys: pytest.CaptureFixture[str],
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "play", HEIMLICH, "-p", "2", "--bots", "all", "--no-store")
    assert code == 0 and "Recording" not in out and "Saved as game" not in out
    assert list(data_dir.iterdir()) == []


def test_resume_by_id_continues_the_same_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A game left and resumed by its id ends as the same game played in one go."""
    rules = whisper(tmp_path)
    picks = ["3", "7", "5", "2", "9", "4"]
    answers(monkeypatch, hot(*picks), EOFError())
    assert run(["play", str(rules), "-p", "2", "--no-store"]) == 0
    whole = capsys.readouterr().out
    answers(monkeypatch, hot(*picks[:2]), KeyboardInterrupt())
    assert run(["play", str(rules), "-p", "2"]) == 130
    left = capsys.readouterr()
    assert left.err.strip() == "Game left. Saved as game 1: 'rulelang resume 1'"
    # said again once the screen is cleared for the first player
    assert left.out.count("(game 1 of the saved games)") == 1
    assert "saved games" not in whole
    monkeypatch.chdir(ROOT)  # the game resumes from any folder
    answers(monkeypatch, hot(*picks[2:]), EOFError())
    code, out, err = cli(capsys, "resume", "1")
    assert code == 0, err
    assert out.startswith("Resuming Whisper after 2 events.\nRecording as game 1.\n")
    tail = out[out.index("Game over.") :]
    assert tail.split("\n\nSaved as")[0] == whole[whole.index("Game over.") :].rstrip("\n")
    assert "over (P1: loss, P2: win)" in cli(capsys, "games", "list")[1]
    code, _, err = cli(capsys, "resume", "1")
    assert (code, err) == (65, "error: the saved game 1 is already over\n")


def test_show_gives_the_public_log_and_no_secret(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rules = whisper(tmp_path)
    answers(monkeypatch, hot("3", "7"), KeyboardInterrupt())
    assert (
        run(
            [
                "play",
                str(rules),
                "-p",
                "3",
                "--names",
                "Ann,Bob,Cy",
                "--bots",
                "3:random",
                "--seed",
                "9",
                "-o",
                "x=1",
            ]
        )
        != 0
    )
    capsys.readouterr()
    answers(monkeypatch, hot("3", "7"), KeyboardInterrupt())
    assert (
        run(
            [
                "play",
                str(rules),
                "-p",
                "3",
                "--names",
                "Ann,Bob,Cy",
                "--bots",
                "3:random",
                "--seed",
                "9",
            ]
        )
        == 130
    )
    capsys.readouterr()
    code, out, err = cli(capsys, "games", "show", "1")
    assert code == 0, err
    assert out.startswith(f"Game 1: Whisper\n  rule file: {rules}\n")
    assert "  players: Ann, Bob, Cy (bot: random)\n  seed: 9\n" in out
    assert "  status: in play\n" in out
    log = out.split("public log:\n")[1].split("\n\n")[0].splitlines()
    assert log == [
        "  Ann chooses in secret",
        "  Ann has chosen.",
        "  Bob chooses in secret",
        "  Bob has chosen.",
        "  Cy chooses in secret",
        "  Cy has chosen.",
    ]
    assert "You chose" not in out and "secret_number" not in out
    assert out.endswith("continue with: rulelang resume 1\n")
    # the rule file changed: the details, without the log, and the reason
    rules.write_text(WHISPER + "\n# edited\n", encoding="utf-8")
    out = cli(capsys, "games", "show", "1")[1]
    assert f"(no public log: the rule file {rules} changed since the game was saved)" in out


def test_unknown_ids_are_usage_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    for argv in (
        ["games", "show", "3"],
        ["games", "delete", "3"],
        ["games", "export", "3", tmp_path / "x.json"],
        ["resume", "3"],
    ):
        code, out, err = cli(capsys, *argv)
        assert (code, out, err) == (64, "", "error: no saved game 3 (see 'rulelang games list')\n")
    code, _, err = cli(capsys, "games", "show", "three")
    assert code == 64 and "Invalid value for 'ID'" in err and len(err.splitlines()) == 2
    code, _, err = cli(capsys, "resume", "nothing.json")
    assert (code, err) == (64, "error: no such saved game: nothing.json\n")


def play_some(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    for _ in range(games):
        answers(monkeypatch, ["1"], KeyboardInterrupt())
        assert run(["play", str(HEIMLICH), "-p", "2", "--bots", "2"]) == 130


def test_delete(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    play_some(monkeypatch, 3)
    capsys.readouterr()
    assert cli(capsys, "games", "delete", "2") == (0, "Deleted game 2.\n", "")
    assert [line.split()[0] for line in cli(capsys, "games", "list")[1].splitlines()[1:]] == [
        "3",
        "1",
    ]
    code, _, err = cli(capsys, "games", "delete", "--all")  # stdin is no terminal here
    assert code == 64
    assert err == (
        "error: not deleting all 2 saved game(s) without asking, and the input is not a "
        "terminal: add --yes to delete them\n"
    )
    assert len(cli(capsys, "games", "list")[1].splitlines()) == 3
    for argv in (["games", "delete"], ["games", "delete", "1", "--all"]):
        code, _, err = cli(capsys, *argv)
        assert (code, err) == (64, "error: give the id of a game to delete, or --all (not both)\n")
    assert cli(capsys, "games", "delete", "--all", "--yes") == (0, "Deleted 2 saved games.\n", "")
    assert cli(capsys, "games", "list")[1] == "no saved games\n"
    assert cli(capsys, "games", "delete", "--all")[1] == "no saved games\n"
    # the moves went with their games
    assert sqlite3.connect(store.default_path()).execute(
        "SELECT count(*) FROM moves"
    ).fetchone() == (0,)


def rulelang_in_a_terminal(argv: list[str], typed: str) -> tuple[int, str]:
    """Run `rulelang ARGV` with a terminal as its input; type `typed` at its prompt."""
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rulelang.cli.main", *argv],
        stdin=follower,
        stdout=follower,
        stderr=follower,
        env=os.environ.copy(),
    )
    os.close(follower)
    seen = b""
    deadline = time.monotonic() + 30
    while b"[y/N]" not in seen and time.monotonic() < deadline:
        seen += os.read(leader, 1024)
    os.write(leader, typed.encode() + b"\n")
    code = proc.wait(timeout=30)
    try:
        while chunk := os.read(leader, 1024):
            seen += chunk
    except OSError:  # the terminal closed with the process
        pass
    os.close(leader)
    return code, seen.decode().replace("\r\n", "\n")


def test_delete_all_asks_first_in_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    play_some(monkeypatch, 2)
    capsys.readouterr()
    code, text = rulelang_in_a_terminal(["games", "delete", "--all"], "n")
    assert code == 0 and "Delete all 2 saved games? [y/N] n\nNothing deleted." in text
    assert len(cli(capsys, "games", "list")[1].splitlines()) == 3
    code, text = rulelang_in_a_terminal(["games", "delete", "--all"], "y")
    assert code == 0 and "Deleted 2 saved games." in text
    assert cli(capsys, "games", "list")[1] == "no saved games\n"


# ------------------------------------------------------------------ import, export
def test_export_and_import_move_games_between_file_and_store(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rules = whisper(tmp_path)
    portable = tmp_path / "game.json"
    answers(monkeypatch, hot("3", "7"), KeyboardInterrupt())
    assert run(["play", str(rules), "-p", "2", "--save", str(portable)]) == 130
    capsys.readouterr()
    assert saves.read(portable).log == stored(1).log  # --save and the store agree
    code, out, err = cli(capsys, "games", "import", portable)
    assert (code, out, err) == (0, f"Imported {portable} as game 2: 'rulelang resume 2'\n", "")
    assert stored(2).log == stored(1).log
    out_file = tmp_path / "out.json"
    assert cli(capsys, "games", "export", "2", out_file) == (
        0,
        f"Exported game 2 to {out_file}: 'rulelang resume {out_file}'\n",
        "",
    )
    back = saves.read(out_file)
    assert back.log == stored(2).log and back.rules == str(rules)
    answers(monkeypatch, hot("5", "2", "9", "4"), EOFError())
    code, out, err = cli(capsys, "resume", out_file)
    assert code == 0 and "Game over." in out, err
    assert saves.read(out_file).log != back.log  # resuming a file saves to the file
    assert stored(2).log == back.log  # and leaves the store alone
    # a damaged file, or a file whose rule file changed, is refused with one line
    (tmp_path / "bad.json").write_text("{", encoding="utf-8")
    code, _, err = cli(capsys, "games", "import", tmp_path / "bad.json")
    assert code == 65 and len(err.splitlines()) == 1 and "is not a saved game" in err
    rules.write_text(WHISPER + "\n# edited\n", encoding="utf-8")
    code, _, err = cli(capsys, "games", "import", portable)
    assert code == 65 and len(err.splitlines()) == 1 and "add --force to import it anyway" in err
    assert cli(capsys, "games", "import", portable, "--force")[0] == 0
    assert len(cli(capsys, "games", "list")[1].splitlines()) == 4
    code, _, err = cli(capsys, "games", "export", "1", tmp_path)
    assert code == 74 and len(err.splitlines()) == 1 and "could not be written" in err
    # a FIFO (a device, /dev/stdout as root) was replaced by a regular file, said done
    os.mkfifo(tmp_path / "pipe")
    code, _, err = cli(capsys, "games", "export", "1", tmp_path / "pipe")
    assert code == 74 and "not a regular file" in err, err
    assert stat.S_ISFIFO((tmp_path / "pipe").stat().st_mode)


def test_a_changed_rule_file_is_refused_unless_forced(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    rules = whisper(tmp_path)
    answers(monkeypatch, hot("3"), KeyboardInterrupt())
    assert run(["play", str(rules), "-p", "2"]) == 130
    rules.write_text(WHISPER + "\n# edited\n", encoding="utf-8")
    capsys.readouterr()
    code, out, err = cli(capsys, "resume", "1")
    assert code == 65 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"error: {rules} changed since this game was saved (sha256 ")
    answers(monkeypatch, hot("7", "5", "2", "9", "4"), EOFError())
    code, out, err = cli(capsys, "resume", "1", "--force")
    assert code == 0 and "Game over." in out and "replaying it anyway (--force)" in err


# ------------------------------------------------------------------ a damaged store
def bytes_of(path: Path) -> bytes:
    return path.read_bytes()


@pytest.mark.parametrize("kind", ["not sqlite", "foreign", "newer", "unknown schema"])
def test_a_damaged_or_foreign_database_is_refused_and_left_alone(
    capsys: pytest.CaptureFixture[str], data_dir: Path, kind: str
) -> None:
    path = database(data_dir)
    if kind == "not sqlite":
        path.write_bytes(b"my notes, not a database\n" * 200)
    else:
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE notes (text)")
        if kind == "newer":
            db.execute(f"PRAGMA application_id={store.APPLICATION_ID}")
            db.execute("PRAGMA user_version=9")
        if kind == "unknown schema":
            db.execute(f"PRAGMA application_id={store.APPLICATION_ID}")
        db.commit()
        db.close()
    before = bytes_of(path)
    for argv in (
        ["games", "list"],
        ["games", "show", "1"],
        ["games", "delete", "--all", "--yes"],
        ["resume", "1"],
        ["play", HEIMLICH, "-p", "2", "--bots", "all"],
    ):
        code, out, err = cli(capsys, *argv)
        assert code == 65, (argv, err)
        assert len(err.splitlines()) == 1 and "it was left as it is" in err
        no_traceback(out, err)
    assert bytes_of(path) == before
    assert sorted(p.name for p in data_dir.iterdir()) == ["games.sqlite3"]
    # --no-store still plays
    assert cli(capsys, "play", HEIMLICH, "-p", "2", "--bots", "all", "--no-store")[0] == 0


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("UPDATE games SET players='three'", ""),
        ("UPDATE games SET names='[1, 2]'", ""),
        ("UPDATE games SET options='{'", " (a field is not what rulelang wrote)"),
        ("UPDATE moves SET event='{\"x\": 1}' WHERE n=2", ": event 3 of its log is not an event"),
        ("DELETE FROM moves WHERE n=1", " (a field is not what rulelang wrote)"),
        ("UPDATE games SET seed=-4", ": 'seed' is missing or wrong"),
    ],
)
def test_a_damaged_game_is_refused_with_one_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data_dir: Path,
    sql: str,
    message: str,
) -> None:
    play_some(monkeypatch, 1)
    db = sqlite3.connect(database(data_dir))
    db.execute(sql)
    db.commit()
    db.close()
    capsys.readouterr()
    results = [cli(capsys, *argv) for argv in (["games", "show", "1"], ["resume", "1"])]
    if "players" in sql or "names" in sql:
        results.append(cli(capsys, "games", "list"))
    for code, out, err in results:
        assert (code, out) == (65, "")
        assert err.startswith(f"error: saved game 1 in {database(data_dir)} is damaged")
        assert err.endswith(message + "\n") and len(err.splitlines()) == 1
    assert cli(capsys, "games", "delete", "1")[0] == 0  # a damaged game can be deleted


def test_a_busy_database_is_waited_for_then_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    play_some(monkeypatch, 1)
    capsys.readouterr()
    monkeypatch.setattr(store, "BUSY_SECONDS", 0.3)
    other = sqlite3.connect(database(data_dir), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another rulelang is writing
    start = time.monotonic()
    code, out, err = cli(capsys, "games", "delete", "1")
    assert time.monotonic() - start >= 0.25
    assert code == 74 and out == ""
    assert err == (
        f"error: the saved games database {database(data_dir)} is busy (another rulelang is "
        "writing to it, waited 0.3 s); try again in a moment\n"
    )
    assert cli(capsys, "games", "list")[0] == 0  # reading is not blocked (WAL)
    other.execute("ROLLBACK")
    assert cli(capsys, "games", "delete", "1")[0] == 0


# ------------------------------------------------------------------ kill -9
def test_a_killed_game_loses_no_move(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    data_dir: Path,
    tmp_path: Path,
) -> None:
    """`rulelang play` killed with SIGKILL between moves: every move it made is stored,
    and `resume ID` continues from there."""
    out = (tmp_path / "out.txt").open("w")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "rulelang.cli.main",
            "play",
            str(HEIMLICH),
            "-p",
            "2",
            "--bots",
            "2",
            "--seed",
            "6",
        ],
        stdin=subprocess.PIPE,
        stdout=out,
        stderr=subprocess.STDOUT,
        env=os.environ.copy(),
    )
    assert proc.stdin is not None

    def my_decisions() -> int:
        if not database(data_dir).exists():
            return 0
        db = sqlite3.connect(database(data_dir))
        try:
            return sum(
                1 for (e,) in db.execute("SELECT event FROM moves") if json.loads(e).get("by") == 0
            )
        except sqlite3.OperationalError:  # not made yet
            return 0
        finally:
            db.close()

    # each answer is a decision of seat 0, stored before the next prompt; a choice with
    # one option is taken without asking, so an answer may be followed by another one
    made = 0
    for _ in range(8):
        proc.stdin.write(b"1\n")
        proc.stdin.flush()
        deadline = time.monotonic() + 30
        while my_decisions() <= made and time.monotonic() < deadline:
            time.sleep(0.02)
        assert my_decisions() > made
        made = my_decisions()
    proc.kill()  # SIGKILL: no handler runs
    proc.wait(timeout=30)
    proc.stdin.close()
    out.close()
    assert proc.returncode == -9
    assert "Game left" not in (tmp_path / "out.txt").read_text()
    record = stored(1)
    assert sum(1 for e in record.log if e.get("by") == 0) >= made >= 8
    code, listing, _ = cli(capsys, "games", "list")
    assert code == 0 and "in play" in listing
    answers(monkeypatch, [], KeyboardInterrupt())
    assert run(["resume", "1"]) == 130
    assert f"Resuming Heimlich & Co after {len(record.log)} events." in capsys.readouterr().out


def test_games_without_a_command_shows_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "games")
    assert code == 64 and err == ""
    for command in ("list", "show", "delete", "import", "export"):
        assert re.search(rf"^  {command} ", out, re.M), command
    code, out, _ = cli(capsys, "--help")
    assert code == 0 and re.search(r"^  games ", out, re.M)
    code, out, _ = cli(capsys, "play", "--help")
    assert code == 0 and "--omniscient" in out and "--no-store" in out


def test_a_game_deleted_while_played_stops_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    replies = iter(["1", "delete", "1"])

    def fake_input(prompt: str = "") -> str:
        reply = next(replies)
        if reply == "delete":  # another terminal deletes the game in play
            assert run(["games", "delete", "1"]) == 0
            return next(replies)
        return reply

    monkeypatch.setattr(builtins, "input", fake_input)
    code, out, err = cli(capsys, "play", HEIMLICH, "-p", "2", "--bots", "2")
    assert code == 74 and "Deleted game 1." in out
    assert err == (
        f"error: the game could not be saved: saved game 1 was deleted from "
        f"{store.default_path()} while it was played\n"
    )


# ------------------------------------------------------------------ keeping up with bots
def test_bots_moves_share_transactions_and_every_event_is_stored(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, data_dir: Path
) -> None:
    """`play --bots all` stores the bots' moves together (one transaction for many,
    not one per move), and the stored game is the whole game, event for event."""
    calls: list[int] = []
    append = store.Store.append

    def counted(self: store.Store, game: int, log: list[object], *args: object) -> None:
        calls.append(len(log))
        append(self, game, log, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(store.Store, "append", counted)
    code, _, err = cli(capsys, "play", HEIMLICH, "-p", "3", "--bots", "all", "--seed", "4")
    assert code == 0, err
    record = stored(1)
    rules = rulelang.compile_file(HEIMLICH)
    game = replay(rules, 3, 4, record.log, record.options, record.names)
    setup = len(rules.new_game(3, seed=4).record())  # stored as the game began
    assert game.is_over() and game.record() == record.log
    decisions = sum(1 for e in record.log if "choose" in e)
    assert decisions > 100 and len(calls) < decisions / 10  # moves share transactions
    assert setup + sum(calls) == len(record.log)  # each event read and written once


def test_a_record_between_marks_is_that_part_of_the_whole_record() -> None:
    game = rulelang.compile_file(HEIMLICH).new_game(3, seed=2)
    marks = [game.mark()]
    rng = random.Random(2)
    while not game.is_over():
        actions = game.legal_actions()
        game.apply(actions[int(rng.random() * len(actions))])
        marks.append(game.mark())
    whole = game.record()
    pieces = game.record(upto=marks[0])  # the setup's shuffles
    for since, upto in zip(marks, marks[1:], strict=False):
        pieces += game.record(since, upto)
    assert pieces == whole and game.record(marks[5]) == whole[len(game.record(upto=marks[5])) :]


# A game whose end rule holds as soon as its setup is done: over before any move.
OVER_AT_ONCE = """game "over at once"
players 2..2
global { n: int = 0 }
setup { set n = 1 }
turn { choose x in [1, 2] prompt "pick" }
end when n == 1 { win players }
"""


def test_a_game_over_before_any_move_is_stored_as_over(
    capsys: pytest.CaptureFixture[str], data_dir: Path, tmp_path: Path
) -> None:
    """It was stored "in play", and its last line said 'rulelang resume 1', which then
    refused it ("already over")."""
    path = tmp_path / "at-once.rules"
    path.write_text(OVER_AT_ONCE, encoding="utf-8")
    code, out, err = cli(capsys, "play", path, "--names", "Ann,Bob")
    assert code == 0, err
    assert out.endswith("Saved as game 1: 'rulelang games show 1'\n")
    code, out, _ = cli(capsys, "games", "list")
    assert "over (Ann: win, Bob: win)" in out.splitlines()[1]
    code, out, _ = cli(capsys, "games", "show", "1")
    assert "status: over" in out and "rulelang resume" not in out

"""The files a command writes (`--report`, `rulebook --out`, `--save`, `games export`)
never destroy another: `play --save game.rules` wrote the save over the rule file, a
link named r.md wrote the rulebook into the rule file it led to, and a FIFO named
r.html made the command wait for a reader for ever. Each is refused, in one line with
exit code 64, before anything is played or built."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

from rulelang.storage import saves

ROOT = Path(__file__).resolve().parents[1]
TICTACTOE = ROOT / "rulesets" / "examples" / "tictactoe.rules"


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    copy = tmp_path / "tictactoe.rules"
    copy.write_text(TICTACTOE.read_text(encoding="utf-8"), encoding="utf-8")
    return copy


def refused(capsys: pytest.CaptureFixture[str], *argv: object) -> str:
    code, out, err = cli(capsys, *argv)
    assert code == 64, (out, err)
    no_traceback(out, err)
    assert len(err.strip().splitlines()) == 1
    return err


def test_a_save_is_never_written_over_the_rule_file_or_notes(
    rules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = rules.read_text(encoding="utf-8")
    play = ("play", rules, "--bots", "all", "--no-store", "--save")
    assert "is not a saved game; name a new file" in refused(capsys, *play, rules)
    assert rules.read_text(encoding="utf-8") == before
    notes = tmp_path / "notes.json"
    notes.write_text('{"mine": 1}', encoding="utf-8")
    refused(capsys, *play, notes)
    assert "is not a saved game" in refused(capsys, "games", "export", "1", notes)
    assert notes.read_text(encoding="utf-8") == '{"mine": 1}'
    # a save, an empty file or a new file is written as before, and a save over a save
    save = tmp_path / "game.save.json"
    for _ in range(2):
        assert cli(capsys, *play, save)[0] == 0
        assert saves.read(save).rules == str(rules)
    (tmp_path / "empty.json").touch()
    assert cli(capsys, *play, tmp_path / "empty.json")[0] == 0


def test_the_writer_of_saves_refuses_what_is_not_one(rules: Path) -> None:
    """Whoever calls it (leaving a game writes NAME-seedN.save.json in the current
    folder): the file is left as it was."""
    with pytest.raises(OSError) as info:
        saves.write(rules, saves.Save(str(rules), "0" * 64, 2, 0))
    assert info.value.errno == errno.EEXIST and "not a saved game" in str(info.value)
    assert rules.read_text(encoding="utf-8") == TICTACTOE.read_text(encoding="utf-8")


def test_a_link_to_a_file_of_another_kind_is_refused(
    rules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "r.md"
    link.symlink_to(rules)
    err = refused(capsys, "rulebook", rules, "--out", link)
    assert f"that is a link to {rules}" in err
    assert rules.read_text(encoding="utf-8") == TICTACTOE.read_text(encoding="utf-8")
    page = tmp_path / "r.html"
    page.symlink_to(rules)
    refused(capsys, "simulate", rules, "-n", "2", "--report", page)
    loop = tmp_path / "loop.html"
    loop.symlink_to(loop)
    assert "leads nowhere" in refused(capsys, "rulebook", rules, "--out", loop)
    # a link to a file of the same kind is written through, as any file is
    other = tmp_path / "book.md"
    (tmp_path / "to-book.md").symlink_to(other)
    assert cli(capsys, "rulebook", rules, "--out", tmp_path / "to-book.md")[0] == 0
    assert other.read_text(encoding="utf-8").startswith("# Tic-tac-toe")


@pytest.mark.parametrize("command", ["rulebook", "simulate", "compare"])
def test_a_fifo_is_refused_at_once(
    command: str, rules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "out.html"
    os.mkfifo(fifo)
    if command == "rulebook":
        err = refused(capsys, "rulebook", rules, "--out", fifo)
    else:
        more = ["-o", "x=1"] if command == "compare" else []
        err = refused(capsys, command, rules, "-n", "2", *more, "--report", fifo)
    assert "that is not a regular file" in err


def test_the_output_is_never_a_file_the_rules_are_read_from(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rule file may have any name: `rulebook notes.md --out notes.md` wrote the
    rulebook over it, and `simulate game.html --report game.html` the report."""
    text = TICTACTOE.read_text(encoding="utf-8")
    for name in ("notes.md", "game.html"):
        (tmp_path / name).write_text(text, encoding="utf-8")
    err = refused(capsys, "rulebook", tmp_path / "notes.md", "--out", tmp_path / "notes.md")
    assert "the rules are read from that file" in err
    game = tmp_path / "game.html"
    refused(capsys, "simulate", game, "-n", "2", "--report", tmp_path / "." / "game.html")
    refused(capsys, "compare", game, "-n", "2", "--b-bots", "all:random", "--report", game)
    assert all(
        (tmp_path / n).read_text(encoding="utf-8") == text for n in ("notes.md", "game.html")
    )


@pytest.mark.parametrize("option", ["--report", "--out", "--save"])
def test_a_name_too_long_for_the_file_system_is_a_usage_error(
    option: str, rules: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was "internal error: OSError: [Errno 36] File name too long ... a bug in
    rulelang", exit 1."""
    suffix = {"--report": ".html", "--out": ".md", "--save": ".json"}[option]
    path = tmp_path / ("a" * 300 + suffix)
    command = {"--report": ["simulate", rules, "-n", "2"], "--out": ["rulebook", rules]}
    argv = command.get(option, ["play", rules, "--bots", "all", "--no-store"])
    err = refused(capsys, *argv, option, path)
    assert "that cannot be a file name: File name too long" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "{long}.rules"],
        ["validate", "{long}.rules"],
        ["resume", "{long}.json"],
        ["games", "import", "{long}.json"],
        ["fmt", "{long}.rules"],
        ["test", "{long}.rulestest"],
    ],
    ids=lambda argv: argv[0] + (f" {argv[1]}" if argv[0] == "games" else ""),
)
def test_an_input_name_too_long_is_a_usage_error(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    long = str(tmp_path / ("a" * 300))
    err = refused(capsys, *(a.format(long=long) for a in argv))
    assert err.endswith("...': that name is too long for the file system\n")

"""Text from others reaches the terminal harmless: a control character in a player's
name, a save, a rule file's title, prompt, option, log sentence or a line a diagnostic
quotes is shown as an escape (\\x1b), never sent to the terminal raw, where it could
retitle the window, recolour the screen or fake a line of output."""

from __future__ import annotations

import builtins
import json
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

from rulelang.storage import saves

RAW = ("\x1b", "\x07", "\r", "\x9b")  # escape, bell, carriage return, the C1 escape
# a title, a prompt, an option and a log sentence that try escape sequences
NOISY = (
    'game "Noisy\x1b]0;pwned\x07"\n'
    "players 2..2\n"
    "global { moves: int = 0 }\n"
    "turn {\n"
    '  choose c in ["red\x1b[31m", "faked\\rline"] prompt "Pick\x1b[2J\x9b1m"\n'
    '  say "{current.name} took {c}\x07"\n'
    "  set moves += 1\n"
    "}\n"
    "end when moves >= 4 { win [current] }\n"
)


def harmless(*texts: str) -> None:
    for text in texts:
        for char in RAW:
            assert char not in text, f"{char!r} reached the terminal"


@pytest.fixture
def noisy(tmp_path: Path) -> Path:
    path = tmp_path / "noisy.rules"
    path.write_text(NOISY, encoding="utf-8")
    return path


def test_control_characters_in_names_are_refused(
    capsys: pytest.CaptureFixture[str], noisy: Path
) -> None:
    """`play --names $'\\e[31mX,Y'` sent the escape sequence to the terminal."""
    for names in ("\x1b[31mX,Y", "X,\x07Y", "X\rZ,Y"):
        code, out, err = cli(capsys, "play", noisy, "-p", "2", "--bots", "all", "--names", names)
        assert code == 64, err
        no_traceback(out, err)
        harmless(out, err)
        assert err.startswith("error: --names: ") and err.count("\n") == 1


def test_a_rule_files_texts_reach_the_terminal_escaped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, noisy: Path
) -> None:
    replies = iter(["1", "2", "quit"])
    monkeypatch.setattr(builtins, "input", lambda prompt="": (harmless(prompt), next(replies))[1])
    code, out, err = cli(capsys, "play", noisy, "-p", "2", "--bots", "2")
    assert code == 0, err
    harmless(out, err)
    assert "Noisy\\x1b]0;pwned\\x07" in out
    assert "took red\\x1b[31m\\x07" in out
    code, out, err = cli(capsys, "games", "list")
    assert code == 0
    harmless(out, err)
    code, out, err = cli(capsys, "games", "show", "1")
    assert code == 0 and "public log:" in out
    harmless(out, err)
    code, out, err = cli(capsys, "simulate", noisy, "-p", "2", "-n", "3")
    assert code == 0, err
    harmless(out, err)


def test_a_diagnostic_quotes_a_line_escaped(
    capsys: pytest.CaptureFixture[str], noisy: Path
) -> None:
    noisy.write_text(NOISY.replace("set moves += 1", "set moves += \x1b[2J oops"), "utf-8")
    code, out, err = cli(capsys, "validate", noisy)
    assert code == 65 and "error[" in err
    harmless(out, err)
    assert "\\x1b[2J" in err


def test_names_in_a_save_reach_the_terminal_escaped(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, noisy: Path
) -> None:
    save = noisy.parent / "noisy.save.json"
    monkeypatch.setattr(builtins, "input", lambda prompt="": "quit")
    code, out, err = cli(capsys, "play", noisy, "-p", "2", "--bots", "2", "--save", save)
    assert code == 0, err
    data = json.loads(save.read_text(encoding="utf-8"))
    data["names"] = ["\x1b]0;owned\x07Ann", "Bob\r\x1b[2KSystem: all good"]
    data["checksum"] = saves.checksum(data)  # anyone can sign a save
    save.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = cli(capsys, "resume", save)
    assert code == 0, err
    harmless(out, err)
    assert "Bob\\r\\x1b[2KSystem: all good" in out
    code, out, err = cli(capsys, "games", "import", save)
    assert code == 0, err
    for argv in (["games", "list"], ["games", "show", "2"]):
        code, out, err = cli(capsys, *argv)
        assert code == 0, err
        harmless(out, err)

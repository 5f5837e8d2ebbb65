"""`play --omniscient` shows the game master's whole view; `peek` shows the game
master's log only when every other player agrees (a bot never does); the referee's
view says whom each private message was for."""

from __future__ import annotations

import builtins
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_support import cli, no_traceback

import rulelang

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"

# A secret number per player, and a message said to the chooser alone.
WHISPER = (ROOT / "tests" / "games" / "whisper.rules").read_text("utf-8")


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    path = tmp_path / "whisper.rules"
    path.write_text(WHISPER, encoding="utf-8")
    return path


def typing(monkeypatch: pytest.MonkeyPatch, replies: list[str]) -> list[str]:
    """Answer the prompts from `replies`, then leave (Ctrl-C); the prompts asked."""
    it: Iterator[str] = iter(replies)
    asked: list[str] = []

    def fake_input(prompt: str = "") -> str:
        asked.append(prompt)
        print(prompt)
        for reply in it:
            return reply
        raise KeyboardInterrupt

    monkeypatch.setattr(builtins, "input", fake_input)
    return asked


def test_the_referee_view_says_whom_each_private_message_was_for(rules: Path) -> None:
    game = rulelang.compile_file(rules).new_game(3, names=["Ann", "Bob", "Cy"])
    for option in ("4", "8"):
        game.apply(option)
    assert game.view(None)["private"] == ["You chose 4.", "You chose 8."]
    assert game.view(None)["private_to"] == [["Ann"], ["Bob"]]
    assert game.view(1)["private"] == ["You chose 8."] and "private_to" not in game.view(1)


def test_the_final_view_labels_everyone_s_private_messages(
    capsys: pytest.CaptureFixture[str], rules: Path
) -> None:
    code, out, err = cli(capsys, "play", rules, "-p", "2", "--bots", "all", "--names", "Ann,Bob")
    assert code == 0, err
    tail = out[out.index("Game over.") :]
    assert "only you know" not in tail
    said = re.findall(r"^  to (Ann|Bob): You chose \d\.$", tail, re.M)
    assert said == ["Ann", "Bob"] * 3


def test_omniscient_play_shows_every_secret(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, rules: Path
) -> None:
    argv = ["play", rules, "-p", "2", "--bots", "2", "--names", "Ann,Bob", "--seed", "3"]
    typing(monkeypatch, ["5", "6"])
    code, plain, _ = cli(capsys, *argv)
    assert code == 130
    typing(monkeypatch, ["5", "6"])
    code, out, err = cli(capsys, *argv, "--omniscient")
    assert code == 130
    no_traceback(out, err)
    assert "(the game master's view: everything, hidden or not)" in out
    # Bob's (the bot's) secret number and message, which Ann alone never sees
    bob = re.findall(r"^  Bob - secret_number: (\d)$", out, re.M)
    assert bob and bob[-1] != "0"
    assert re.search(r"^  \(to Bob\) You chose \d\.$", out, re.M)
    # the secret choice itself, printed as it happens (the screen's board has no log tail)
    assert re.search(r"^  \(hidden\) Bob chooses \d$", out, re.M)
    assert "Bob - secret_number" not in plain and "(to Bob)" not in plain
    assert "Bob chooses in secret" in plain


def test_omniscient_heimlich_shows_every_agent(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    typing(monkeypatch, [])
    code, out, _ = cli(capsys, "play", HEIMLICH, "-p", "3", "--bots", "2,3", "--omniscient")
    assert code == 130
    assert len(re.findall(r"^  P[123] - agent: \w+$", out, re.M)) == 3
    typing(monkeypatch, [])
    code, out, _ = cli(capsys, "play", HEIMLICH, "-p", "3", "--bots", "2,3")
    agents = re.findall(r"^  (P[123].*) - agent: \w+$", out, re.M)
    assert agents == ["P1 (you)"]  # the seat at the screen sees its own agent only


def test_resume_omniscient(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, rules: Path
) -> None:
    typing(monkeypatch, ["5"])
    assert cli(capsys, "play", rules, "-p", "2", "--bots", "2", "--names", "Ann,Bob")[0] == 130
    typing(monkeypatch, [])
    code, out, _ = cli(capsys, "resume", "1", "--omniscient")
    assert code == 130 and re.search(r"^  Bob - secret_number: [1-9]$", out, re.M)
    typing(monkeypatch, [])
    code, out, _ = cli(capsys, "resume", "1")
    assert code == 130 and "Bob - secret_number" not in out


def test_peek_with_a_bot_at_the_table_shows_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, rules: Path
) -> None:
    asked = typing(monkeypatch, ["5", "peek"])
    code, out, _ = cli(capsys, "play", rules, "-p", "3", "--bots", "2,3", "--names", "Ann,Bob,Cy")
    assert code == 130
    after = out[out.index("  Bob, Cy: a bot always declines.") :]
    assert after.startswith(
        "  Bob, Cy: a bot always declines.\n  Not everyone agreed; nothing is shown.\n"
    )
    assert "The game master's log" not in out
    assert "Bob chooses" in out and not re.search(r"Bob chooses \d|Cy chooses \d", out)
    assert not any("do you agree" in a for a in asked)  # no human was asked


def test_peek_asks_every_other_human_and_needs_all(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, rules: Path
) -> None:
    argv = ["play", rules, "-p", "3", "--names", "Ann,Bob,Cy"]
    # Ann and Bob choose; then Cy asks to peek: Ann agrees, Bob does not (an Enter
    # takes the screen; from the second hand-over on, one before it clears it)
    asked = typing(monkeypatch, ["", "4", "", "", "8", "", "", "peek", "y", "n"])
    code, out, _ = cli(capsys, *argv)
    assert code == 130
    questions = [a for a in asked if "agree" in a]
    assert questions == [
        "Cy wants to peek at the game master's log. Ann, do you agree? [y/N] ",
        "Cy wants to peek at the game master's log. Bob, do you agree? [y/N] ",
    ]
    refused = out[out.index("Bob, do you agree") :]
    assert "Not everyone agreed; nothing is shown." in refused
    assert "You chose 4." not in refused and "You chose 8." not in refused
    # the first refusal ends the asking
    asked = typing(monkeypatch, ["", "4", "", "", "8", "", "", "peek", "no"])
    assert cli(capsys, *argv)[0] == 130
    assert [a for a in asked if "agree" in a] == [questions[0]]
    # everyone agrees: the log as the game master has it, every secret in it
    typing(monkeypatch, ["", "4", "", "", "8", "", "", "peek", "y", "YES"])
    code, out, _ = cli(capsys, *argv)
    shown = out[out.index("The game master's log:") :].splitlines()[1:6]
    assert shown == [
        "  Ann chooses 4",
        "  You chose 4.",
        "  Ann has chosen.",
        "  Bob chooses 8",
        "  You chose 8.",
    ]


def test_peek_alone_at_the_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, rules: Path
) -> None:
    """No other player to ask: every player (one) agrees. The command is in the help."""
    one = rules.read_text(encoding="utf-8").replace("players 2..3", "players 1..3")
    rules.write_text(one, encoding="utf-8")
    asked = typing(monkeypatch, ["4", "peek"])
    code, out, _ = cli(capsys, "play", rules, "-p", "1")
    assert code == 130
    assert "'peek' asks the others to let you see the game master's log" in out
    assert not any("agree" in a for a in asked)
    assert "The game master's log:\n  P1 chooses 4\n  You chose 4.\n  P1 has chosen.\n" in out

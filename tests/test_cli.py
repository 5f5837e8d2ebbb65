"""The `rulelang` command, driven in-process through `rulelang.cli.main.run(argv)`.

`play` reads with the builtin `input`: the tests replace it with a scripted terminal
that sees everything printed so far, answers, and may raise KeyboardInterrupt (Ctrl-C)
or EOFError (end of input).
"""

from __future__ import annotations

import builtins
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cli_support import cli, no_traceback

from rulelang.cli.main import run
from rulelang.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.rules"))
STDLIB = sorted((ROOT / "stdlib").glob("*.rules"))
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"
DIAG = re.compile(r"^(?P<file>.+):(?P<line>\d+):(?P<col>\d+): error\[(?P<code>E\d{3})\]: .+$")
PROMPT = re.compile(r"^(P\d+): (.+)$")  # "P1: Move which agent? (4 move points left)"
OPTION = re.compile(r"^\s+(\d+)\. (.+)$")  # "   1. Perry"
NODE = re.compile(r"^\s+(\d+) (.+?)\s+points\s+-?\d+\s+\|(.*)$")  # one board line

ENDLESS_AFTER_CHOICE = """game "Endless"
players 2..3
global { x: int = 0 }
turn {
  choose n in 1..2 prompt "Pick a number"
  while true {
    set x += 1
  }
}
end when false { }
"""
ENDLESS_LOOP_LINE = 6

ENDLESS_AT_START = """game "Endless at once"
players 2..3
global { x: int = 0 }
turn {
  while x >= 0 {
    set x += 1
  }
  choose n in 1..2
}
end when false { }
"""


def assert_usage_error(code: int, out: str, err: str) -> str:
    """Exit 64, one `error:` line (optionally followed by the help hint), no traceback."""
    assert code == 64, (out, err)
    no_traceback(out, err)
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines, err
    assert lines[0].startswith("error: "), err
    assert sum(line.startswith("error:") for line in lines) == 1, err
    assert lines[1:] in ([], ["Try 'rulelang --help'."]), err
    return lines[0]


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def line_of(path: Path, fragment: str) -> int:
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if fragment in line:
            return i
    raise AssertionError(f"{fragment!r} not in {path}")


# --------------------------------------------------------------------------- terminal
class Terminal:
    """A scripted player at the keyboard: `policy(terminal, prompt)` gives each answer."""

    def __init__(
        self,
        capsys: pytest.CaptureFixture[str],
        policy: Callable[[Terminal, str], str],
        limit: int = 3000,
    ):
        self.capsys = capsys
        self.policy = policy
        self.limit = limit
        self.chunks: list[str] = []
        self.err: list[str] = []
        self.answers: list[str] = []
        self.memo: dict[str, Any] = {}

    def flush(self) -> str:
        out, err = self.capsys.readouterr()
        self.chunks.append(out)
        self.err.append(err)
        return "".join(self.chunks)

    @property
    def text(self) -> str:
        return self.flush()

    def __call__(self, prompt: object = "") -> str:
        self.flush()
        self.chunks.append(str(prompt))  # a real terminal shows the prompt too
        if len(self.answers) >= self.limit:
            raise AssertionError(f"still playing after {self.limit} answers")
        answer = self.policy(self, str(prompt))
        self.answers.append(answer)
        self.chunks.append(answer + "\n")
        return answer

    # What is on the screen -------------------------------------------------------
    def prompt_count(self) -> int:
        return sum(1 for line in self.text.splitlines() if PROMPT.match(line))

    def last_prompt(self) -> tuple[str, str, list[str]]:
        """The last `Pn: question` line and the numbered options printed after it."""
        lines = self.text.splitlines()
        for i in range(len(lines) - 1, -1, -1):
            m = PROMPT.match(lines[i])
            if m:
                options: list[str] = []
                for line in lines[i + 1 :]:
                    o = OPTION.match(line)
                    if not o:
                        break
                    assert int(o.group(1)) == len(options) + 1
                    options.append(o.group(2))
                return m.group(1), m.group(2), options
        raise AssertionError("no question was printed")

    def board(self) -> tuple[dict[str, int], int, list[str]]:
        """From the last board shown: where each agent is, the safe's node, node names."""
        lines = self.text.splitlines()
        nodes = [m for m in (NODE.match(line) for line in lines) if m]
        assert len(nodes) >= 12
        where: dict[str, int] = {}
        safe = -1
        names = []
        for m in nodes[-12:]:
            node = int(m.group(1))
            names.append(m.group(2))
            for token in m.group(3).split():
                if token == "[SAFE]":
                    safe = node
                else:
                    where[token] = node
        assert safe >= 0
        return where, safe, names


def heimlich_policy(term: Terminal, prompt: str) -> str:
    """Plays seat 1 and steers agents onto the safe; exercises the awkward answers once."""
    assert prompt == "> ", prompt
    memo = term.memo
    count = term.prompt_count()
    if memo.get("question") != count:  # a new question: plan the answers to it
        memo["question"] = count
        _who, question, options = term.last_prompt()
        plan: list[Any] = []
        if not memo.get("tested_range"):
            memo["tested_range"] = True
            memo["range_options"] = len(options)
            plan += ["99", "", "help"]
        if question.startswith("Move which agent?"):
            plan += ["help", lambda: pick_agent(term, question)]
        elif question.startswith("Move ") and "how many buildings" in question:
            plan += [lambda: str(memo.pop("steps", 1))]
        elif question.startswith("The die shows 1-3"):
            plan += ["3"]
        elif question.startswith("Scoring!"):
            plan += ["help"]
            if not memo.get("tested_require"):
                memo["tested_require"] = True
                plan += [lambda: term.board()[2][term.board()[1]]]  # the safe's own building
            plan += [lambda: move_safe(term, options)]
        else:
            raise AssertionError(f"unexpected question {question!r}")
        memo["plan"] = plan
    plan = memo["plan"]
    assert plan, "asked again although every planned answer was given"
    step = plan.pop(0)
    return step() if callable(step) else step


def pick_agent(term: Terminal, question: str) -> str:
    found = re.search(r"\((\d+) move points left\)", question)
    assert found, question
    left = int(found.group(1))
    where, safe, _names = term.board()
    for agent, node in where.items():
        distance = (safe - node) % 12
        if 1 <= distance <= left:
            term.memo["steps"] = distance
            return agent.lower()  # typed text, in any case
    term.memo["steps"] = left
    return "1"  # by number


def move_safe(term: Terminal, options: list[str]) -> str:
    # A building with agents in it but no safe: typed by name.
    where, safe, names = term.board()
    crowded = [names[n] for n in sorted(set(where.values()), reverse=True) if n != safe]
    choice = next((b for b in crowded if b in options), options[0])
    term.memo.setdefault("safe_moves", []).append(choice)
    return choice.upper()


def play_with(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    policy: Callable[[Terminal, str], str],
    *argv: object,
) -> tuple[int, Terminal]:
    term = Terminal(capsys, policy)
    monkeypatch.setattr(builtins, "input", term)
    monkeypatch.chdir(tempfile.mkdtemp(prefix="rulelang-cli-"))  # a left game is saved here
    code = run([str(a) for a in argv])
    term.flush()
    return code, term


def no_input(prompt: object = "") -> str:
    raise AssertionError(f"input was read: {prompt!r}")


# --------------------------------------------------------------------------- validate
def test_validate_every_shipped_rule_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert RULESETS and STDLIB
    code, out, err = cli(capsys, "validate", *RULESETS, *STDLIB)
    assert code == 0, err
    no_traceback(out, err)
    lines = out.splitlines()
    assert len(lines) == len(RULESETS) + len(STDLIB)
    for path, line in zip([*RULESETS, *STDLIB], lines, strict=True):
        assert line.startswith(f"ok: {path} (")
    assert f"ok: {HEIMLICH} (game 'Heimlich & Co')" in lines
    for path in STDLIB:
        assert any(line.startswith(f"ok: {path} (library '") for line in lines)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.name)
def test_validate_one_ruleset(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    code, out, err = cli(capsys, "validate", path)
    assert code == 0, err
    assert out.startswith(f"ok: {path} (game '")


def test_validate_broken_file_prints_diagnostics(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = write(
        tmp_path,
        "bad.rules",
        """game "Broken"
players 2..3
global { score: int = 0 }
turn { choose n in 1..3 set scor = n }
end when score >= 5 { win [current] }
""",
    )
    code, out, err = cli(capsys, "validate", bad)
    assert code == 65
    no_traceback(out, err)
    assert out == ""
    lines = err.splitlines()
    first = DIAG.match(lines[0])
    assert first, err
    assert (first["file"], first["line"], first["col"], first["code"]) == (
        str(bad),
        "4",
        "29",
        "E101",
    )
    assert "'scor'" in lines[0]
    assert lines[1] == "   4 | turn { choose n in 1..3 set scor = n }"
    caret = lines[2]
    assert caret.strip() == "^^^^"
    assert caret.index("^") == lines[1].index("scor")
    assert any("did you mean 'score'?" in line for line in lines)
    assert lines[-1] == f"1 problem(s) in {bad}"


def test_validate_reports_every_error_and_still_checks_other_files(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = write(
        tmp_path,
        "two.rules",
        """game "Two errors"
players 2..3
turn {
  choose n in 1..3
  set totl = n
  say "{nope}"
}
end when false { }
""",
    )
    code, out, err = cli(capsys, "validate", bad, HEIMLICH)
    assert code == 65
    no_traceback(out, err)
    assert out.splitlines() == [f"ok: {HEIMLICH} (game 'Heimlich & Co')"]
    headers = [m for m in map(DIAG.match, err.splitlines()) if m]
    assert [(m["line"], m["code"]) for m in headers] == [("5", "E101"), ("6", "E101")]
    assert err.splitlines()[-1] == f"2 problem(s) in {bad}"


def test_validate_syntax_error_has_caret_and_no_parser_jargon(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = write(
        tmp_path, "syntax.rules", 'game "S"\nplayers 2..3\nturn { let = 3 }\nend when false { }\n'
    )
    code, out, err = cli(capsys, "validate", bad)
    assert code == 65
    no_traceback(out, err)
    lines = err.splitlines()
    m = DIAG.match(lines[0])
    assert m and m["code"] == "E001" and m["line"] == "3"
    assert lines[1] == "   3 | turn { let = 3 }"
    assert set(lines[2].strip()) == {"^"}
    assert "lark" not in err.lower()


def test_validate_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = tmp_path / "nope.rules"
    code, out, err = cli(capsys, "validate", missing)
    line = assert_usage_error(code, out, err)
    assert line == f"error: no such rule file: {missing}"
    assert err.strip() == line


@pytest.mark.parametrize("command", ["validate", "simulate", "rulebook", "play"])
def test_a_folder_given_as_the_rule_file_is_said_to_be_one(
    command: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`rulelang validate rulesets` said 'no such rule file: rulesets' of a folder that
    is there (fmt and test take folders; these commands take a file)."""
    folder = tmp_path / "games"
    folder.mkdir()
    code, out, err = cli(capsys, command, folder)
    line = assert_usage_error(code, out, err)
    assert (
        line
        == f"error: {folder} is a folder, not a rule file: name one in it ({folder}/NAME.rules)"
    )


def test_no_arguments_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys)
    assert code == 64
    assert "validate" in out and "play" in out and "simulate" in out
    no_traceback(out, err)


# --------------------------------------------------------------------------- usage errors
@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["frobnicate"], "frobnicate"),
        (["play", HEIMLICH], "2 to 7 players: say how many with -p N"),
        (["play", HEIMLICH, "--players", "three"], "--players"),
        (["simulate", HEIMLICH, "-p", "3", "-n", "lots"], "-n"),
        (["play", HEIMLICH, "-p", "3", "--option", "speed=3"], "unknown option 'speed'"),
        (["play", HEIMLICH, "-p", "3", "-o", "win_score"], "name=value"),
        (["play", HEIMLICH, "-p", "3", "-o", "=3"], "name=value"),
        (["play", HEIMLICH, "-p", "3", "-o", "win_score=lots"], "whole number"),
        (["play", HEIMLICH, "-p", "1"], "2 to 7 players, not 1"),
        (["play", HEIMLICH, "-p", "8"], "2 to 7 players, not 8"),
        (["simulate", HEIMLICH, "-p", "8", "-n", "5"], "2 to 7 players, not 8"),
        (["play", HEIMLICH, "-p", "3", "--bots", "4"], "--bots"),
        (["play", HEIMLICH, "-p", "3", "--bots", "0"], "--bots"),
        (["play", HEIMLICH, "-p", "3", "--bots", "2;3"], "--bots"),
        (["play", HEIMLICH, "-p", "3", "--bots", "some"], "--bots"),
        (["play", HEIMLICH, "-p", "3", "--names", "ann,bob"], "2 names given for 3 players"),
        (["play", HEIMLICH, "-p", "3", "--names", "ann,bob,ann"], "two players are named 'ann'"),
        (["play", HEIMLICH, "-p", "3", "--names", "ann,,bob"], "the name of player 2 is empty"),
        (["serve", HEIMLICH, "-p", "2", "--names", "bo,bo"], "two players are named 'bo'"),
        (
            ["simulate", HEIMLICH, "-p", "3", "-n", "0"],
            "-n must be between 1 and 1000000000, not 0",
        ),
        (["simulate", HEIMLICH, "-p", "3", "-n", "5", "--jobs", "0"], "--jobs"),
        (["play", "no/such/file.rules", "-p", "3"], "no such rule file"),
    ],
    ids=lambda v: " ".join(map(str, v)) if isinstance(v, list) else None,
)
def test_usage_errors_exit_64_with_one_error_line(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[object],
    needle: str,
) -> None:
    monkeypatch.setattr(builtins, "input", no_input)
    code, out, err = cli(capsys, *argv)
    line = assert_usage_error(code, out, err)
    assert needle in line, line
    assert "Game over." not in out


def test_playing_a_library_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtins, "input", no_input)
    code, out, err = cli(capsys, "play", ROOT / "stdlib" / "dice.rules", "-p", "2")
    line = assert_usage_error(code, out, err)
    assert "library" in line


# --------------------------------------------------------------------------- play
def test_play_against_bots_to_the_end(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, term = play_with(
        monkeypatch,
        capsys,
        heimlich_policy,
        "play",
        HEIMLICH,
        "--players",
        "4",
        "--bots",
        "2,3,4",
        "--seed",
        "3",
        "-o",
        "safe_start=1",
    )
    text, err = term.text, "".join(term.err)
    assert code == 0, err
    no_traceback(text, err)
    # one human: no screen to pass
    assert "Pass the screen" not in text
    assert "\033[2J" not in text
    # during the game, seat 1 sees its own agent, and only its own
    during = text[: text.index("Game over.")]
    assert re.search(r"^  P1 \(you\) - agent: \w+$", during, re.M)
    assert not re.search(r"^  P[234]\b.*agent:", during, re.M)
    # a number out of range is answered, and the question is asked again
    n = term.memo["range_options"]
    assert f"  There is no option 99: pick 1 to {n}." in text
    assert term.answers[:3] == ["99", "", "help"]
    # typing the safe's own building during scoring is refused with the rule's reason
    require_line = line_of(HEIMLICH, "require target != safe")
    refusal = re.search(r"^  Not allowed: (.+) \((.+):(\d+):(\d+)\)$", text, re.M)
    assert refusal, text[-3000:]
    assert refusal.group(1) == "the safe must move to a different building"
    assert refusal.group(2) == str(HEIMLICH)
    assert int(refusal.group(3)) == require_line
    assert term.memo["safe_moves"], "seat 1 never moved the safe"
    assert any(a.isalpha() or " " in a for a in term.answers)  # typed texts were used
    # the game went on to its end and shows the results
    assert "Game over." in text
    tail = text[text.index("Game over.") :]
    results = re.findall(r"^  (P[1-4]): (win|draw|loss)$", tail, re.M)
    assert [p for p, _ in results] == ["P1", "P2", "P3", "P4"]
    assert {r for _, r in results} <= {"win", "draw", "loss"}
    # the final view is omniscient: every agent is shown
    assert len(re.findall(r"^  P[1-4] - agent: \w+$", tail, re.M)) == 4


def test_play_refusals_do_not_change_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown text is refused with the options, then Ctrl-C leaves the game."""
    answers = iter(["Bond", "0", "-1"])
    questions = []

    def policy(term: Terminal, prompt: str) -> str:
        questions.append(term.prompt_count())
        for answer in answers:
            return answer
        raise KeyboardInterrupt

    code, term = play_with(
        monkeypatch, capsys, policy, "play", HEIMLICH, "-p", "3", "--bots", "2,3", "--seed", "1"
    )
    text, err = term.text, "".join(term.err)
    assert code == 130
    no_traceback(text, err)
    assert "Not allowed: 'Bond' is not an option for" in text
    assert "There is no option 0: pick 1 to" in text
    assert "Not allowed: '-1' is not an option for" in text
    assert err.strip() == "Game left. Saved as game 1: 'rulelang resume 1'"
    assert "Game over." not in text
    assert term.answers == ["Bond", "0", "-1"]
    assert len(questions) == 4 and len(set(questions)) == 1  # the same question each time


@pytest.mark.parametrize(
    ("stop", "message"), [(KeyboardInterrupt, "Game left."), (EOFError, "Input ended; game left.")]
)
def test_play_interrupted(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    stop: type[BaseException],
    message: str,
) -> None:
    def policy(term: Terminal, prompt: str) -> str:
        if len(term.answers) == 3:
            raise stop
        return "1"

    code, term = play_with(
        monkeypatch, capsys, policy, "play", HEIMLICH, "-p", "4", "--bots", "2,3,4", "--seed", "2"
    )
    err = "".join(term.err)
    assert code == 130
    # the game is in the saved games: no file is written
    assert err.strip() == f"{message} Saved as game 1: 'rulelang resume 1'"
    assert "Recording as game 1: 'rulelang resume 1' continues it." in term.text
    assert list(Path().iterdir()) == []
    no_traceback(term.text, err)
    assert "Game over." not in term.text


def test_play_quit_leaves_the_game(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the store (--no-store), leaving saves the game to a file."""
    code, term = play_with(
        monkeypatch,
        capsys,
        lambda t, p: "quit",
        "play",
        HEIMLICH,
        "-p",
        "2",
        "--bots",
        "2",
        "--no-store",
    )
    assert code == 0  # leaving on purpose is not an interruption
    assert "Recording" not in term.text
    assert "".join(term.err).strip().startswith("Game left. Saved to heimlich-seed0.save.json")
    assert term.answers == ["quit"]


def test_play_all_bots_reads_no_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtins, "input", no_input)
    code, out, err = cli(
        capsys,
        "play",
        HEIMLICH,
        "-p",
        "5",
        "--bots",
        "all",
        "--seed",
        "7",
        "--names",
        "Ann,Bob,Cy,Di,Ed",
    )
    assert code == 0, err
    no_traceback(out, err)
    assert "Game over." in out
    tail = out[out.index("Game over.") :]
    results = dict(re.findall(r"^  (Ann|Bob|Cy|Di|Ed): (win|draw|loss)$", tail, re.M))
    assert sorted(results) == ["Ann", "Bob", "Cy", "Di", "Ed"]
    outcome = list(results.values())
    # Heimlich: one winner and no draw, or no winner and a draw between the best
    if "win" in outcome:
        assert outcome.count("win") == 1 and "draw" not in outcome
    else:
        assert "draw" in outcome
    # the bots' moves were narrated
    assert re.search(r"^  (Ann|Bob|Cy|Di|Ed) moves \w+ \d buildings? clockwise, to ", out, re.M)


def test_play_all_bots_is_deterministic(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(builtins, "input", no_input)
    first = cli(capsys, "play", HEIMLICH, "-p", "3", "--bots", "all", "--seed", "11", "--no-store")
    second = cli(capsys, "play", HEIMLICH, "-p", "3", "--bots", "ALL", "--seed", "11", "--no-store")
    assert first[0] == second[0] == 0
    assert first[1] == second[1]


def test_hot_seat_hides_the_other_players_secret(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def policy(term: Terminal, prompt: str) -> str:
        if (
            prompt.startswith("Pass the screen to P1")
            and term.text.count("Pass the screen to P1") == 2
        ):
            raise KeyboardInterrupt  # P2 has played a whole turn
        return "" if prompt.startswith("Pass the screen") else "1"

    code, term = play_with(monkeypatch, capsys, policy, "play", HEIMLICH, "-p", "2", "--seed", "4")
    assert code == 130
    text = term.text
    no_traceback(text, "".join(term.err))
    first = text.index("Pass the screen to P1 and press Enter... ")
    to_p2 = text.index("Pass the screen to P2 and press Enter... ")
    back = text.index("Pass the screen to P1", to_p2)
    assert first < to_p2 < back
    # the screen is cleared before and after the screen is passed
    assert text[:first].endswith("\033[H\033[2J\033[3J\n")  # the scrollback too
    assert text[to_p2:].split("\n", 2)[1] == "\033[H\033[2J\033[3J"
    p1_screen, p2_screen = text[first:to_p2], text[to_p2:back]

    p1_agent = re.findall(r"^  P1 \(you\) - agent: (\w+)$", p1_screen, re.M)
    p2_agent = re.findall(r"^  P2 \(you\) - agent: (\w+)$", p2_screen, re.M)
    assert p1_agent and p2_agent
    assert p1_agent[0] != p2_agent[0]
    # each screen shows its player's agent line only
    for screen, other in ((p1_screen, "P2"), (p2_screen, "P1")):
        player_lines = re.findall(r"^  (P[12])( \(you\))?( - .*)?$", screen, re.M)
        assert player_lines
        for name, _you, extras in player_lines:
            if name == other:
                assert "agent" not in extras, f"{other}'s agent is shown: {extras}"
    assert not re.search(r"^  P1\b.*agent:", p2_screen, re.M)
    assert "P2 (you)" not in p1_screen and "P1 (you)" not in p2_screen


def test_play_runtime_error_exits_70(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = write(tmp_path, "endless.rules", ENDLESS_AFTER_CHOICE)
    monkeypatch.setattr(builtins, "input", lambda prompt="": "2")
    code, out, err = cli(capsys, "play", path, "-p", "2", "--bots", "2")
    assert code == 70
    no_traceback(out, err)
    assert f"{path}:{ENDLESS_LOOP_LINE}:3: runtime error[R001]:" in err
    assert f"{ENDLESS_LOOP_LINE:>4} |   while true {{" in err
    assert "Game over." not in out


def test_play_runtime_error_with_bots_and_at_start(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(builtins, "input", no_input)
    path = write(tmp_path, "endless.rules", ENDLESS_AFTER_CHOICE)
    code, out, err = cli(capsys, "play", path, "-p", "3", "--bots", "all")
    assert code == 70
    assert f"{path}:{ENDLESS_LOOP_LINE}:3: runtime error[R001]" in err
    no_traceback(out, err)
    start = write(tmp_path, "start.rules", ENDLESS_AT_START)
    code, out, err = cli(capsys, "play", start, "-p", "2")
    assert code == 70
    assert f"{start}:5:3: runtime error[R001]" in err
    no_traceback(out, err)


# --------------------------------------------------------------------------- simulate
def simulate_json(capsys: pytest.CaptureFixture[str], *extra: object) -> dict[str, Any]:
    code, out, err = cli(capsys, "simulate", HEIMLICH, *extra, "--json")
    assert code == 0, err
    no_traceback(out, err)
    data: dict[str, Any] = json.loads(out)
    return data


def numbers(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in ("seconds", "games_per_second")}


def test_simulate_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    data = simulate_json(capsys, "-n", "60", "--players", "3", "--seed", "5")
    assert data["games"] == 60
    assert data["players"] == 3
    seats = data["seats"]
    assert [s["seat"] for s in seats] == [1, 2, 3]
    for s in seats:
        assert 0 <= s["wins"] + s["draws"] <= 60
        assert s["win_rate"] == pytest.approx(s["wins"] / 60)
        assert s["draw_rate"] == pytest.approx(s["draws"] / 60)
        lo, hi = s["win_ci95"]
        assert 0.0 <= lo <= s["win_rate"] <= hi <= 1.0
        assert hi - lo < 0.5
    # a game of Heimlich has one winner or none
    wins = sum(s["wins"] for s in seats)
    assert 0 <= data["games_without_winner"] <= 60
    assert wins + data["games_without_winner"] == 60
    # identities: the secret agents; every player has one in every game
    ids = data["identities"]
    assert ids
    assert all(row["identity"].startswith("agent=") for row in ids)
    assert {row["identity"] for row in ids} <= {
        f"agent={a}" for a in ["Perry", "Schulz", "Doyle", "Jaques", "Bucci", "Mirkov"]
    }
    # each agent is one player's in a game: games and seats agree
    assert sum(row["games"] for row in ids) == sum(row["seats"] for row in ids) == 60 * 3
    assert sum(row["wins"] for row in ids) == sum(row["seat_wins"] for row in ids) == wins
    assert sum(row["draws"] for row in ids) == sum(s["draws"] for s in seats)
    for row in ids:
        lo, hi = row["win_ci95"]
        assert lo <= row["win_rate"] <= hi
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"])
    assert data["mean_turns"] > 3
    assert data["mean_decisions"] >= data["mean_turns"]
    assert data["seconds"] >= 0


def test_simulate_same_seed_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    a = simulate_json(capsys, "-n", "60", "-p", "3", "--seed", "9")
    b = simulate_json(capsys, "-n", "60", "-p", "3", "--seed", "9")
    c = simulate_json(capsys, "-n", "60", "-p", "3", "--seed", "10")
    assert numbers(a) == numbers(b)
    assert numbers(a) != numbers(c)


def test_simulate_jobs_do_not_change_the_results(capsys: pytest.CaptureFixture[str]) -> None:
    one = simulate_json(capsys, "-n", "60", "-p", "4", "--seed", "21", "--jobs", "1")
    two = simulate_json(capsys, "-n", "60", "-p", "4", "--seed", "21", "--jobs", "2")
    assert [s["wins"] for s in one["seats"]] == [s["wins"] for s in two["seats"]]
    assert numbers(one) == numbers(two)


def test_simulate_options_change_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    short = simulate_json(capsys, "-n", "30", "-p", "3", "-o", "win_score=12")
    full = simulate_json(capsys, "-n", "30", "-p", "3")
    assert short["mean_turns"] < full["mean_turns"]


def test_simulate_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "simulate", HEIMLICH, "-n", "20", "-p", "2")
    assert code == 0, err
    assert out.startswith("20 games, 2 players, ")
    assert re.search(r"^seat 1 +\d+\.\d% +\d+\.\d% - \d+\.\d%", out, re.M)
    assert re.search(r"^agent=Perry ", out, re.M)
    assert "mean game length:" in out


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_runtime_error_exits_70(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, jobs: str
) -> None:
    path = write(tmp_path, "endless.rules", ENDLESS_AFTER_CHOICE)
    code, out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "3", "--jobs", jobs)
    assert code == 70
    no_traceback(out, err)
    assert f"{path}:{ENDLESS_LOOP_LINE}:3: runtime error[R001]:" in err
    assert f"{ENDLESS_LOOP_LINE:>4} |   while true {{" in err


def test_simulate_runtime_error_at_start(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = write(tmp_path, "start.rules", ENDLESS_AT_START)
    code, out, err = cli(capsys, "simulate", path, "-p", "2", "-n", "3")
    assert code == 70
    assert f"{path}:5:3: runtime error[R001]" in err
    no_traceback(out, err)


def test_simulate_broken_file_exits_65(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = write(
        tmp_path, "bad.rules", 'game "B"\nplayers 2..3\nturn { set x = 1 }\nend when false { }\n'
    )
    code, out, err = cli(capsys, "simulate", bad, "-p", "2", "-n", "3")
    assert code == 65
    no_traceback(out, err)
    assert DIAG.match(err.splitlines()[0])


# --------------------------------------------------------------------------- the script
def console_script() -> str:
    beside = Path(sys.executable).with_name("rulelang")
    if beside.is_file():
        return str(beside)
    found = shutil.which("rulelang")
    assert found, "the rulelang console script is not installed"
    return found


def test_console_script() -> None:
    exe = console_script()
    ok = subprocess.run(
        [exe, "validate", "rulesets/heimlich.rules"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == "ok: rulesets/heimlich.rules (game 'Heimlich & Co')"
    bad = subprocess.run([exe, "frobnicate"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 64
    assert "Traceback" not in bad.stderr + bad.stdout
    assert bad.stderr.startswith("error: ")


def test_a_bug_in_rulelang_has_its_own_exit_code(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Not 70, which says a rule failed while running: this one says rulelang did."""
    import rulelang.cli.validate

    def broken(files: list[Path]) -> int:
        raise ZeroDivisionError("a slip inside rulelang")

    monkeypatch.setattr(rulelang.cli.validate, "validate_files", broken)
    code, out, err = cli(capsys, "validate", ROOT / "rulesets" / "heimlich.rules")
    assert code == 1
    no_traceback(out, err)
    assert err.splitlines()[0] == "internal error: ZeroDivisionError: a slip inside rulelang"
    assert "This is a bug in rulelang, not in your rule file" in err


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--delay", "-1"], "--delay must be between 0 and 3600 seconds, not -1.0"),
        (["--delay", "nan"], "--delay must be between 0 and 3600 seconds, not nan"),
        (["--save", "{tmp}"], "that is a folder; name a file to save the game in"),
        (["--save", "{tmp}/missing/game.json"], "there is no folder {tmp}/missing"),
        # found before the game, not after it (root too cannot make a file in /sys)
        (["--save", "/sys/game.json"], "the folder /sys cannot be written to"),
    ],
)
def test_play_refuses_table_options_that_cannot_work(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    extra: list[str],
    message: str,
) -> None:
    monkeypatch.setattr(builtins, "input", no_input)
    argv = [a.format(tmp=tmp_path) for a in extra]
    code, out, err = cli(capsys, "play", HEIMLICH, "-p", "2", "--bots", "all", *argv)
    line = assert_usage_error(code, out, err)
    assert message.format(tmp=tmp_path) in line


IDENTITY_AND_STATE = """
players 2..4
die d2 = [1, 2]
player {
  side: int = 0 visible to owner     # dealt once: who the player is
  coins: int = 0 visible to owner    # changes in play: not an identity
}
setup {
  for p in players { set p.side = seat(p) % 2 }
}
turn {
  choose k in 1..2
  roll r = d2
  set current.coins += k * r
}
end when turn_number > 6 { win [p for p in players where p.coins == max(q.coins for q in players)] }
"""


def test_simulate_lists_as_identities_only_secrets_that_never_change(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "ids.rules"
    rules.write_text(IDENTITY_AND_STATE)
    code, out, _ = cli(capsys, "simulate", rules, "-n", "30", "-p", "3", "--json")
    assert code == 0
    keys = {row["identity"] for row in json.loads(out)["identities"]}
    assert keys == {"side=0", "side=1"}


def test_identity_rates_count_games_not_seats(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 18: at 10 players `simulate` printed saboteurs 94.2% over 3,647 "games" that
    were seats. Players of one role win together: an identity's rate is over the games
    where it was in play, its interval over those games; seats are counted apart."""
    rules = ROOT / "rulesets" / "saboteur-stoneseekers.rules"
    n = 40
    code, out, err = cli(capsys, "simulate", rules, "-p", "10", "-n", n, "--json")
    assert code == 0, err
    data = json.loads(out)
    roles = {row["identity"]: row for row in data["identities"]}
    saboteurs = roles["role=saboteur"]
    assert saboteurs["games"] == n < saboteurs["seats"]  # several saboteurs in every game
    for row in roles.values():
        assert row["games"] <= n and row["seats"] >= row["games"]
        assert row["wins"] <= row["games"] and row["seat_wins"] >= row["wins"]
        assert row["win_rate"] == pytest.approx(row["wins"] / row["games"])
        assert row["win_ci95"] == pytest.approx(list(wilson(row["wins"], row["games"])))


def test_simulate_names_the_seeds_of_its_shortest_and_longest_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 18: a designer wants to look at the extreme games. `simulate` gives the
    seeds of the shortest and the longest, whatever --jobs, and each replays alone."""
    rules = ROOT / "rulesets" / "heimlich.rules"
    runs = []
    for jobs in ("1", "2"):
        code, out, err = cli(capsys, "simulate", rules, "-p", "3", "-n", "30", "-j", jobs, "--json")
        assert code == 0, err
        runs.append(json.loads(out))
    ends = runs[0]["extremes"]
    assert ends == runs[1]["extremes"]
    shortest, longest = ends["shortest"]["decisions"], ends["longest"]["decisions"]
    assert shortest < runs[0]["mean_decisions"] < longest
    for end in ends.values():
        args = ("simulate", rules, "-p", "3", "-n", "1", "--seed", end["seed"], "--json")
        code, out, err = cli(capsys, *args)
        assert code == 0, err
        assert json.loads(out)["mean_decisions"] == end["decisions"]
    code, out, err = cli(capsys, "simulate", rules, "-p", "3", "-n", "30")
    first, last = ends["shortest"], ends["longest"]
    assert (
        f"shortest game: {first['decisions']} decisions (seed {first['seed']}); "
        f"longest: {last['decisions']} (seed {last['seed']})"
    ) in out


def test_a_game_for_one_player_count_needs_no_players_option(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Where the rules allow one count (`players 2..2`), -p may be left out."""
    tictactoe = str(ROOT / "rulesets" / "examples" / "tictactoe.rules")
    code, out, err = cli(capsys, "simulate", tictactoe, "-n", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["players"] == 2


def test_a_shipped_game_is_named_without_its_path(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`rulelang simulate tictactoe` plays the shipped game; a name that is neither a
    file nor a shipped game is a usage error that lists the shipped ones."""
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, "simulate", "tictactoe", "-n", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 3
    code, out, err = cli(capsys, "validate", "tictactoe")
    assert code == 0 and "tictactoe.rules" in out, err
    code, out, err = cli(capsys, "play", "tictactoo")
    assert code == 64
    assert "no such rule file: tictactoo (or name a shipped game:" in err
    assert "tictactoe" in err


def test_a_folder_named_like_a_shipped_game_does_not_hide_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A designer's folder `tictactoe/` (the game's drafts) beside them made
    `rulelang simulate tictactoe` say "no such rule file: tictactoe (or name a shipped
    game: ..., tictactoe)": a folder is no rule file, so the name is the shipped game."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tictactoe").mkdir()
    code, out, err = cli(capsys, "simulate", "tictactoe", "-n", "3", "--json")
    assert code == 0, err
    assert json.loads(out)["games"] == 3
    code, out, err = cli(capsys, "validate", "tictactoe")
    assert code == 0 and "tictactoe.rules" in out, err


@pytest.mark.parametrize(
    ("given", "said"),
    [
        (["-o", "goal=3", "-o", "goal=5"], "--option goal is given twice"),
        (["-o", "goal=1_000"], "option 'goal' needs a whole number, not '1_000'"),
        (["-o", "goal=\u0663"], "needs a whole number"),  # an Arabic-Indic 3
        (["-o", "goal=" + "9" * 19], "option 'goal' needs a number of at most 18 digits"),
    ],
)
def test_a_number_option_is_read_as_a_rule_file_writes_it_and_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], given: list[str], said: str
) -> None:
    """Before, the last of two values won unsaid, and int() took `1_000`, other
    scripts' digits and numbers of any length, which no rule file may write (E005)."""
    path = tmp_path / "goal.rules"
    path.write_text(
        'game "goal"\nplayers 2..2\nparam goal = 4 "points to win"\n'
        "global { n: int = 0 }\nturn { choose x in 1..2\n  set n += x }\n"
        "end when n >= goal { win players }\n",
        encoding="utf-8",
    )
    code, _, err = cli(capsys, "simulate", path, "-n", "2", *given)
    assert code == 64 and said in err, err
    assert cli(capsys, "simulate", path, "-n", "2", "-o", "goal=-" + "9" * 18)[0] == 0


LONG_NUMBER = """
game "Doubling"
players 2..2
global { n: int = 1 }
turn {
  choose k in 1..2
  repeat STEPS { set n = n + n }
  say "n is {n}"
}
end when turn_number > 4 { draw players }
"""


@pytest.mark.parametrize("steps, code", [(15_000, 0), (90_000, 70)])
def test_a_number_past_pythons_4300_digits_is_shown_or_refused_as_the_rules_doing(
    tmp_path: Path, steps: int, code: int
) -> None:
    """Python 3.11 refuses to write an int of more than 4,300 digits as text, which
    made a rule's doubling number "a bug in rulelang" (exit 1). The command writes up
    to 100,000 digits; past that it is the rules' error (exit 70), said in one line."""
    rules = tmp_path / "doubling.rules"
    rules.write_text(LONG_NUMBER.replace("STEPS", str(steps)), encoding="utf-8")
    done = subprocess.run(
        [console_script(), "play", str(rules), "--bots", "all", "--no-store"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path), "RULELANG_DATA_DIR": str(tmp_path)},
    )
    assert done.returncode == code, done.stderr[-500:]
    assert "bug in rulelang" not in done.stderr and "Traceback" not in done.stderr
    if code == 0:
        shown = [ln.split("n is ")[1] for ln in done.stdout.splitlines() if "n is " in ln]
        assert [len(n) for n in shown] == [4516, 9031, 13547, 18062]  # 2**15000, ...
        assert all(n.isdigit() for n in shown)
    else:
        assert "number too long to show as text (more than 100,000 digits)" in done.stderr

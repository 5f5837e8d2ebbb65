"""docs/tutorial.md is honest: every file it shows is written as it stands (`<!--
test: file NAME -->` before a fenced block, a later block of the same name replacing
it, as the designer rewrites the file; `append NAME` adds the block at its end), and
every command it shows (`<!-- test: output exit N -->` before a block whose first
line is `$ rulelang ...`) is run, in order, in one folder, and prints what the block
shows, with that exit code (`... writes FILE`: and writes FILE).

In a shown output, a line `...` stands for any lines (the tutorial leaves out the
middle of a long log), and the speed of a run (`2835 games/s`) is not compared."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from cli_support import cli

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "tutorial.md"
BLOCK = re.compile(r"<!-- test: (.*?) -->\n```\w*\n(.*?)^```", re.S | re.M)
SPEED = re.compile(r"\d+(?:\.\d+)? games/s")


def blocks() -> list[tuple[str, str]]:
    return [(m.group(1).strip(), m.group(2)) for m in BLOCK.finditer(DOC.read_text())]


def shown_as_pattern(shown: list[str]) -> re.Pattern[str]:
    """The lines of a shown output as a pattern: `...` matches any lines."""
    parts = ["(?:.*\n)*?" if line == "..." else re.escape(line) + "\n" for line in shown]
    return re.compile("".join(parts))


def matches(shown: list[str], printed: str) -> bool:
    printed = SPEED.sub("N games/s", printed)
    shown = [SPEED.sub("N games/s", line) for line in shown]
    return shown_as_pattern(shown).fullmatch(printed) is not None


def test_the_pattern_of_a_shown_output() -> None:
    assert matches(["a", "...", "d"], "a\nb\nc\nd\n")
    assert matches(["a", "...", "b"], "a\nb\n")
    assert not matches(["a", "...", "d"], "a\nb\nc\n")
    assert not matches(["a", "b"], "a\nb\nc\n")
    assert matches(["200 games, 2 players, 2835 games/s"], "200 games, 2 players, 17 games/s\n")


def test_the_tutorial_has_its_steps() -> None:
    kinds = [directive.split()[0] for directive, _ in blocks()]
    assert kinds.count("file") >= 5 and kinds.count("append") >= 2 and kinds.count("output") >= 10
    commands = " ".join(text.splitlines()[0] for d, text in blocks() if d.startswith("output"))
    for step in ("validate", "play", "simulate", "compare", "--report", "rulelang test"):
        assert step in commands


def run_shown(command: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    assert command.startswith("$ rulelang "), command
    code, out, err = cli(capsys, *shlex.split(command)[2:])
    return code, out + err


def test_every_step_runs_as_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULELANG_DATA_DIR", str(tmp_path / "data"))
    for directive, text in blocks():
        kind, *rest = directive.split()
        if kind == "file":
            (tmp_path / rest[0]).write_text(text)
            continue
        if kind == "append":
            with (tmp_path / rest[0]).open("a") as file:
                file.write("\n" + text)
            continue
        assert kind == "output" and rest[0] == "exit", directive
        command, *shown = text.splitlines()
        code, printed = run_shown(command, capsys)
        assert code == int(rest[1]) and matches(shown, printed), f"{command}\n{printed}"
        for written in rest[3:] if rest[2:3] == ["writes"] else []:
            assert (tmp_path / written).stat().st_size > 0, f"{command} wrote no {written}"

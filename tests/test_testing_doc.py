"""docs/testing.md is honest: its files are written as they stand (`<!-- test: file
NAME -->` before a fenced block), and each `<!-- test: output NAME exit N -->` block is
what `rulelang test NAME` prints, with that exit code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cli_support import cli

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "testing.md"
BLOCK = re.compile(r"<!-- test: (.*?) -->\n```\w*\n(.*?)^```", re.S | re.M)


def blocks() -> list[tuple[str, str]]:
    return [(m.group(1).strip(), m.group(2)) for m in BLOCK.finditer(DOC.read_text())]


def test_the_doc_has_files_and_outputs() -> None:
    kinds = [directive.split()[0] for directive, _ in blocks()]
    assert kinds.count("file") >= 3 and kinds.count("output") >= 2


def test_every_example_runs_as_shown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    for directive, text in blocks():
        kind, name, *rest = directive.split()
        if kind == "file":
            (tmp_path / name).write_text(text)
            continue
        assert kind == "output" and rest[0] == "exit", directive
        command, *shown = text.splitlines()
        assert command == f"$ rulelang test {name}"
        code, out, err = cli(capsys, "test", name)
        assert (code, out.splitlines()) == (int(rest[1]), shown), err

"""Helpers shared by the command-line tests: run `rulelang` in-process and read it."""

from __future__ import annotations

import pytest

from rulelang.cli.main import run


def cli(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    """Run `rulelang ARGV...`; its exit code, stdout and stderr."""
    code = run([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text
        assert 'File "' not in text

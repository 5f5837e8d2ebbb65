"""A command whose output cannot be written (`> /dev/full`, a full disk) said
"internal error: OSError: [Errno 28] No space left on device ... This is a bug in
rulelang" with exit code 1. The machine's failure is not rulelang's: one line naming
it, exit code 74, as a file that cannot be written."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulelang.cli.main import run

TICTACTOE = Path(__file__).resolve().parents[1] / "rulesets" / "examples" / "tictactoe.rules"


class Full(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize(
    "argv",
    [["simulate", str(TICTACTOE), "-n", "2"], ["rulebook", str(TICTACTOE)], ["games", "list"]],
)
def test_output_that_cannot_be_written_is_said_in_one_line(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdout", Full())
    assert run(argv) == 74
    err = capsys.readouterr().err
    assert err == "error: the output could not be written: No space left on device\n"


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_device_as_the_output() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-c", "from rulelang.cli.main import main; main()", "simulate"]
            + [str(TICTACTOE), "-n", "2"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert done.returncode == 74
    assert done.stderr == "error: the output could not be written: No space left on device\n"

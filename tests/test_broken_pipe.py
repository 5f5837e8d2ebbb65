"""A reader that leaves early (`rulelang simulate ... | head -c 10`) is the reader's
doing: the command stops without a word and exits 74 (the output could not be
written), never 1, which says a bug in rulelang. Click, under typer, turned the broken
pipe into a silent exit 1 for every command but the plain `validate`."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "rulesets" / "examples" / "tictactoe.rules"
CODE = "import sys; from rulelang.cli.main import main; sys.argv[0] = 'rulelang'; main()"


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", str(GAME), "-n", "3"],
        ["validate", str(GAME)],
        ["validate", "--max-items", "100", str(GAME)],
    ],
    ids=["simulate", "validate's short way", "validate through typer"],
)
def test_a_reader_that_left_is_exit_74_in_silence(argv: list[str], tmp_path: Path) -> None:
    read, write = os.pipe()
    os.close(read)  # the reader has gone before a byte is written
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "RULELANG_DATA_DIR": str(tmp_path)}
    try:
        done = subprocess.run(
            [sys.executable, "-c", CODE, *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write)
    assert done.returncode == 74, done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr

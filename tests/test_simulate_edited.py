"""A rule file edited between two simulations in one process (a notebook, a test, an
editor's plugin) is simulated as it now stands, not as it was first compiled."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli

RACE = """game "Race"
players 2..2
player { pos: int = 0 }
turn { choose step in [1, 2] }
end when turn_number > 4 { draw players }
"""


def test_an_edited_file_is_simulated_as_it_now_stands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "race.rules").write_text(RACE)
    code, out, _ = cli(capsys, "simulate", "race.rules", "-p", "2", "-n", "5")
    assert code == 0 and "measures" not in out
    with (tmp_path / "race.rules").open("a") as file:
        file.write('measure moved per player = me.pos "steps"\n')
    code, out, _ = cli(capsys, "simulate", "race.rules", "-p", "2", "-n", "5")
    assert code == 0 and "moved (per player)" in out

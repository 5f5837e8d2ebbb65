"""Tables whose cells hold wide characters (a player named 李雷, a role 妖精) lined up
by `len`, which counts one column for a character the terminal shows in two: every
column after it was pushed out of line. They are padded by the columns shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli

from rulelang.simulation.summary import Record, Summary
from rulelang.words import columns, pad

TICTACTOE = Path(__file__).resolve().parents[1] / "rulesets" / "examples" / "tictactoe.rules"


def test_columns_count_what_a_terminal_shows() -> None:
    assert [columns(t) for t in ("abc", "李雷", "Zoë", "e\u0301", "")] == [3, 4, 3, 1, 0]
    assert pad("李", 4) == "李  " and pad("李", 4, right=True) == "  李"


def test_games_list_lines_up_wide_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("RULELANG_DATA_DIR", str(tmp_path))
    for names in ("李雷,韩梅梅", "Ann,Bob"):
        assert cli(capsys, "play", TICTACTOE, "--bots", "all", "--names", names)[0] == 0
    code, out, _err = cli(capsys, "games", "list")
    assert code == 0
    lines = out.splitlines()
    at = [columns(line[: line.index("6 ")]) for line in lines[1:]]  # the moves column
    assert at[0] == at[1] == columns(lines[0][: lines[0].index("moves")])


def test_the_identities_table_lines_up_wide_roles() -> None:
    s = Summary(players=2)
    for seed, roles in enumerate([("妖精", "騎士"), ("knight", "妖精")]):
        secrets = [{"role": r} for r in roles]
        s.add(Record(["win", "loss"], 3, 3, secrets, seed))
    rows = [line for line in s.table().splitlines() if line.startswith("role=")]
    assert len(rows) == 3
    ends = {columns(line[: line.index("%") + 1]) for line in rows}  # end of the win rate
    assert len(ends) == 1

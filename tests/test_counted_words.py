"""One is singular: the headings of simulate, compare and the rulebook said "1 games",
"1 players" and "For 1 players."."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli

import rulelang
from rulelang.diagnostics import UsageError

SOLO = """
game "Solo"
players 1..1
global { n: int = 0 }
turn {
  choose k in 1..2
  set n += k
}
end when n >= 3 { win players }
"""


def test_one_game_of_one_player_is_said_in_the_singular(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "solo.rules"
    path.write_text(SOLO, encoding="utf-8")
    code, out, _ = cli(capsys, "simulate", path, "-n", "1")
    assert code == 0 and out.startswith("1 game, 1 player, "), out
    code, out, _ = cli(capsys, "simulate", path, "-n", "2")
    assert code == 0 and out.startswith("2 games, 1 player, "), out
    code, out, _ = cli(capsys, "compare", path, path, "-n", "2")
    assert code == 0 and "2 games each, 1 player, the same seeds" in out, out
    book = tmp_path / "solo.md"
    code, _, err = cli(capsys, "rulebook", path, "--out", book)
    assert code == 0, err
    assert "For 1 player." in book.read_text("utf-8")


def test_a_player_count_out_of_range_names_the_counts_as_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """ "Solo is for 1 to 1 players" read as a slip: one count is said alone."""
    path = tmp_path / "solo.rules"
    path.write_text(SOLO, encoding="utf-8")
    code, _, err = cli(capsys, "simulate", path, "-n", "1", "-p", "3")
    assert code == 64 and "Solo is for 1 player, not 3" in err, err
    ranged = tmp_path / "duo.rules"
    ranged.write_text(SOLO.replace("players 1..1", "players 2..4"), encoding="utf-8")
    code, _, err = cli(capsys, "simulate", ranged, "-n", "1", "-p", "7")
    assert code == 64 and "is for 2 to 4 players, not 7" in err, err
    rules = rulelang.compile_file(path)
    with pytest.raises(UsageError, match="Solo is for 1 player, not 2"):
        rules.new_game(2, 1)

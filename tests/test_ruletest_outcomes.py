"""docs/testing.md, "What is expected": a rule test can say which end rule ended the
game (`ended by:`), what a `measure` reads (`measure NAME = VALUE`) and which options
the seat's declared bot keeps (`bot keeps:`); each fails, with what the game did,
when the game does otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli

RULES = """game "Count"
players 2..2
global { total: int = 0 }
turn {
  choose n in 1..3
  set total += n
}
end when total >= 5 { win current }
end when turn_number > 20 { draw players }
measure total_reached = total "the count at the end"
bot greedy for seat(me) == 1 { when choosing n { best n } }
"""


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> tuple[int, str]:
    (tmp_path / "count.rules").write_text(RULES)
    (tmp_path / "count.rulestest").write_text('players Ann, Bob\n\ncase "c"\n' + case)
    code, out, err = cli(capsys, "test", str(tmp_path / "count.rulestest"))
    return code, out + err


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("  play 3\n  play 2\n  ended by: end when total >= 5\n", 0),
        ("  play 3\n  play 2\n  ended by: count.rules:8\n", 0),
        ("  play 3\n  play 2\n  ended by: end when turn_number > 20\n", 2),
        ("  play 3\n  measure total_reached = 3\n", 0),
        ("  play 3\n  measure total_reached = 4\n", 2),
        ("  play 1\n  bot keeps: 3\n", 0),
        ("  play 1\n  bot keeps: 1\n", 2),
    ],
)
def test_outcome_lines_hold_or_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str, code: int
) -> None:
    got, out = _run(tmp_path, capsys, case)
    assert got == code, out


def test_a_failed_end_rule_names_the_one_that_fired(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(tmp_path, capsys, "  play 3\n  play 2\n  ended by: count.rules:9\n")
    assert code == 2
    assert "end when total >= 5 (count.rules:8)" in out


def test_a_seat_without_a_declared_bot_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(tmp_path, capsys, "  bot keeps: 3\n")
    assert code == 2
    assert "no declared bot plays Ann" in out


def test_an_unknown_measure_is_said_with_a_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(tmp_path, capsys, "  measure total_reachd = 0\n")
    assert code == 2
    assert "did you mean 'total_reached'?" in out

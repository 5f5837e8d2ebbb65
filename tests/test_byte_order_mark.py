"""A rule file or a rule test file that starts with a UTF-8 byte order mark (as
Notepad and other Windows editors save them) reads as the same file without it; `fmt`
keeps the mark."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli

BOM = "\ufeff"
RULES = """game "marked"
players 2..2
global { n: int = 0 }
turn {
  choose x in [1, 2]
  set n += x
}
end when n > 3 { win players }
"""


def test_a_marked_rule_file_validates_plays_and_is_tested(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before: error[E001] at 1:1, "expected a declaration", for a mark nobody sees."""
    path = tmp_path / "marked.rules"
    path.write_text(BOM + RULES, encoding="utf-8")
    (tmp_path / "marked.rulestest").write_text(
        BOM + 'players Ann, Bob\ncase "the first choice"\n  options: 1, 2\n', encoding="utf-8"
    )
    code, out, err = cli(capsys, "validate", path)
    assert code == 0 and "ok:" in out, err
    assert cli(capsys, "test", tmp_path / "marked.rulestest")[0] == 0
    assert cli(capsys, "simulate", path, "-n", "3")[0] == 0


def test_fmt_formats_a_marked_file_and_keeps_its_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "marked.rules"
    path.write_text(BOM + RULES, encoding="utf-8")
    assert cli(capsys, "fmt", "--check", path)[0] == 0
    path.write_text(BOM + RULES.replace("  set n", "      set n"), encoding="utf-8")
    assert cli(capsys, "fmt", path)[0] == 0
    assert path.read_text(encoding="utf-8") == BOM + RULES

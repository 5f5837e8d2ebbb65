"""docs/testing.md, "Positions": an edit made before the game's first decision, while
a chance event of the setup waits, is made before the rest of the setup runs; where
the setup then sets the value again (or moves the item away), the case fails at the
edit and says how to make it at the first decision. Before, the case went on with the
setup's value and tested another position than the one it wrote (found writing an
auction game's tests from the docs: `set Ann.coins = 2` as a case's first line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli, no_traceback

RULES = """game "Purse"
players 2..3
card coin count 6 { }
die d3 = [1, 2, 3]
zone pile: coin visible to none
zone purse: coin per player visible to owner
player { gold: int = 0  luck: int = 0 }
setup {
  roll start = d3
  add pieces(coin) to pile
  shuffle pile
  for p in players { set p.gold = 5 }
  deal 1 from pile to purse
  say "the purses are filled"
}
turn {
  roll r = d3
  set current.luck = r
  choose n in 0..current.gold prompt "Spend how much?"
  set current.gold -= n
}
end when turn_number > 4 { draw players }
"""


def _run(tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> tuple[int, str]:
    (tmp_path / "purse.rules").write_text(RULES)
    (tmp_path / "purse.rulestest").write_text('players Ann, Bob\n\ncase "c"\n' + case)
    code, out, err = cli(capsys, "test", str(tmp_path / "purse.rulestest"))
    no_traceback(out, err)
    return code, out + err


def test_a_set_the_setup_undoes_fails_at_the_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(tmp_path, capsys, "  set Ann.gold = 2\n  options: 0, 1, 2\n")
    assert code == 2, out
    assert "purse.rulestest:4:" in out  # the edit's line, not the options'
    assert "the rules undid this edit before the first decision (Ann.gold is 5, not 2)" in out
    assert "the chance event 'start' waited" in out
    assert "(`to act: Ann`)" in out


def test_a_move_the_setup_undoes_fails_at_the_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # after the roll, the setup's `add pieces(coin) to pile` takes every coin to the pile
    code, out = _run(tmp_path, capsys, "  move coin3 to purse[Bob]\n  to act: Ann\n")
    assert code == 2, out
    assert "purse.rulestest:4:" in out
    assert "coin3 is no longer in purse[Bob]" in out


@pytest.mark.parametrize(
    "case",
    [
        # made at the first decision: it stands
        "  to act: Ann\n  set Ann.gold = 2\n  options: 0, 1, 2\n",
        # before the first decision, but nothing the setup sets
        "  set Bob.luck = 3\n  to act: Ann\n  expect Bob.luck = 3\n",
        # the setup done, the first turn's roll waits: the roll's own rules set luck,
        # not gold
        "  shuffle pile: coin1, coin2, coin3, coin4, coin5, coin6\n"
        "  set Ann.gold = 1\n  roll r: 2\n  options: 0, 1\n",
    ],
)
def test_an_edit_that_stands_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    code, out = _run(tmp_path, capsys, case)
    assert code == 0, out


def test_a_line_written_after_the_last_move_names_the_events_to_script(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`log includes` reads the lines of the last move; a line written once the events
    the test left to the seed were drawn is not among them, and the failure says
    which events to script to read it."""
    code, out = _run(tmp_path, capsys, "  roll start: 1\n  log includes: the purses are filled\n")
    assert code == 2, out  # not written yet: nothing has let the game run on
    assert "(the chance event 'pile' waits: what comes after it is not written yet)" in out
    looked = "  roll start: 1\n  to act: Ann\n  log includes: the purses are filled\n"
    code, out = _run(tmp_path, capsys, looked)
    assert code == 2, out  # written, once `to act` drew 'pile' and 'r' from the seed
    assert "drawn from the seed ('pile', 'r'): script them to read their lines" in out
    scripted = "  roll start: 1\n  shuffle pile top: coin2\n  log includes: the purses are filled\n"
    code, out = _run(tmp_path, capsys, scripted)
    assert code == 0, out

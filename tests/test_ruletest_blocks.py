"""docs/testing.md: "A line that ends with `:` and nothing after it takes the `| ...`
lines under it as its value, one item a line" - a shuffle's order too (a deal of 24
cards does not fit on one line)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cli_support import cli

RULES = """game "Cut"
players 2..2
card c count 3 { name: text = "card {index + 1}" }
zone deck: c visible to none
zone hand: c per player visible to owner
setup { add pieces(c) to deck  shuffle deck  deal 1 from deck to hand }
turn { choose x in hand[current] }
end when turn_number > 2 { draw players }
"""

TESTS = """players Ann, Bob
shuffle deck top:
  | card 3
  | card 1

case "the cards named under the shuffle come off the top, in order"
  expect hand[Ann] = [card 3]
  expect hand[Bob] = [card 1]
"""


def test_a_shuffle_takes_its_order_from_the_lines_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "cut.rules").write_text(RULES)
    (tmp_path / "cut.rulestest").write_text(TESTS)
    code, out, err = cli(capsys, "test", "cut.rulestest")
    assert (code, out.splitlines()[-1:]) == (0, ["1 case(s): 1 passed"]), out + err

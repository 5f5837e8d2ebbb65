"""docs/language.md, `display bookkeeping`: a bot's notebook, left off the screens unless
asked. It is no outcome either: simulate's numbers at the end (and compare's "mean ...
at the end") leave it out, and keep the players' other public numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_support import cli

RULES = """game "Tally"
players 2..2
player {
  score: int = 0
  tries: int = 0 display bookkeeping
}
turn {
  choose n in 1..3
  set current.score += n
  set current.tries += 1
}
end when turn_number > 6 { win [p for p in players where p.score == max(q.score for q in players)] }
"""


def test_bookkeeping_numbers_are_not_scores(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rules = tmp_path / "tally.rules"
    rules.write_text(RULES)
    code, out, err = cli(capsys, "simulate", rules, "-n", "10", "--json")
    assert code == 0, err
    assert set(json.loads(out)["scores"]) == {"score"}

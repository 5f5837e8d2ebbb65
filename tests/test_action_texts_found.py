"""Every option is found by its own text (Game.find, `apply(text)`, a rule test's
`play`, a `serve` move by text, a typed answer in `play`): the text written exactly so
first, then one alike but for case and blanks."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang.cli.play import Table

RULES = """game "texts"
players 2..2
global { picked: text = "none" }
turn {
  let title = ""
  choose x in ["a", "A", "Ann {title}", "b  c", "d"] prompt "pick"
    require x != "d" else "not d"
  set picked = x
}
end when picked != "none" { win players }
"""


@pytest.mark.parametrize("text", ["a", "A", "Ann ", "b  c"])
def test_each_option_is_found_by_its_exact_text(text: str) -> None:
    """Before: `find("A")` gave "a", and "Ann " (a `{...}` of it empty) and "b  c"
    were found by no text at all, so a rule test could not play them."""
    game = rulelang.compile_source(RULES, "t.rules").new_game(2, 1)
    action = game.find(text)
    assert action is not None and action.text == text
    assert Table.pick(game.legal_actions(), text) == action
    game.apply(text)
    assert game.is_over() and game.history()[-1] == f"P1 chooses {text}"


def test_case_and_blanks_still_do_not_matter_where_no_text_is_exact() -> None:
    game = rulelang.compile_source(RULES, "t.rules").new_game(2, 1)
    assert game.find("ANN").text == "Ann "  # type: ignore[union-attr]
    assert game.find(" b c ").text == "b  c"  # type: ignore[union-attr]
    assert game.find("e") is None
    assert game.why_not(" D ").reason == "not d"


def test_a_rule_test_plays_an_option_differing_only_in_case(tmp_path: Path) -> None:
    from rulelang.cli.main import run

    (tmp_path / "t.rules").write_text(RULES, encoding="utf-8")
    (tmp_path / "t.rulestest").write_text(
        'players Ann, Bob\n\ncase "upper"\n  play A\n  expect picked = A\n', encoding="utf-8"
    )
    assert run(["test", str(tmp_path / "t.rulestest")]) == 0

"""The line table: the code generator records which generated line belongs to which rule
statement, and an error raised from generated code is placed through it on the rule
line that caused it: a `none` used as a value (R030), and any error the helpers raise
(a division by zero, an index outside a list); an unexpected Python error (a bug in
rulelang) keeps its type and names the rule line in a note. The generated sources are
in `linecache`, so a developer's traceback shows their lines."""

from __future__ import annotations

import random
import re
import traceback
from pathlib import Path

import pytest

import rulelang
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import helpers

GAME = """game "Lines"
players 2..2
player {{ score: int = 0 }}
global {{
  who: player
  total: int = 0
  zero: int = 0
  empty: list(int) = []
}}
setup {{
{setup}
}}
turn {{
  choose k in [1, 2]
  set total += k
{turn}
}}
end when total > 3 {{ win [current] }}
"""


def line_of(text: str, fragment: str) -> int:
    hits = [i for i, line in enumerate(text.splitlines(), start=1) if fragment in line]
    assert len(hits) == 1, (fragment, hits)
    return hits[0]


def first_error(text: str) -> GameRuntimeError:
    """The runtime error of a game that plays "1" until something fails."""
    rules = rulelang.compile_source(text, "lines.rules")
    with pytest.raises(GameRuntimeError) as info:
        g = rules.new_game(2)
        for _ in range(10):
            g.apply("1")
    return info.value


CASES = [
    # (setup, turn, the code, the fragment of the line it is placed on)
    (
        "",
        "  if total > 100 {\n    set total += 1\n  } elif who.score > 0 {\n    set total += 2\n  }",
        "R030",
        "elif who.score",
    ),
    (
        "  let n = 1",
        "  set total += 1\n  choose c in 1..who.score",
        "R030",
        "choose c in 1..who.score",
    ),
    (
        "",
        "  set total += 1\n  while who.score > 0 {\n    choose c in [1, 2]\n  }",
        "R030",
        "while who.score",
    ),
    ("", "  set total += 1\n  set total += 6 / zero", "R005", "6 / zero"),
    ("", "  set total += 1\n  set total += 6 % zero", "R005", "6 % zero"),
    ("", "  let i = total + 5\n  set total += empty[i]", "R003", "empty[i]"),
    ("  set total = who.score", "", "R030", "who.score"),
]


@pytest.mark.parametrize(
    ("setup", "turn", "code", "fragment"),
    CASES,
    ids=[
        "none in elif",
        "none in a choice",
        "none in a loop that asks",
        "division",
        "modulo",
        "index",
        "none in setup",
    ],
)
def test_a_runtime_error_is_placed_on_its_rule_line(
    setup: str, turn: str, code: str, fragment: str
) -> None:
    text = GAME.format(setup=setup, turn=turn)
    err = first_error(text)
    assert err.code == code, err
    assert err.span.line == line_of(text, fragment), err


def test_bots_place_errors_through_the_same_table() -> None:
    text = GAME.format(setup="", turn="  if total > 100 {\n  } elif who.score > 0 {\n  }")
    rules = rulelang.compile_source(text, "lines.rules")
    with pytest.raises(GameRuntimeError) as info:
        rules.new_game(2, seed=3).playout(random.Random(1))
    assert info.value.code == "R030"
    assert info.value.span.line == line_of(text, "elif who.score")


def test_a_bug_keeps_its_error_and_names_the_rule_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error that is no rule's fault is given back as it is (exit code 1 at the
    command line), with a note saying which rule line the generated code was running."""
    text = GAME.format(setup="", turn="  set total += 1\n  set total += 6 / (zero + 1)")

    def broken(a: int, b: int, span: object) -> int:
        raise KeyError("a bug")

    monkeypatch.setattr(helpers, "divide", broken)
    rules = rulelang.compile_source(text, "lines.rules")
    g = rules.new_game(2)
    with pytest.raises(KeyError) as info:
        g.apply("1")
    where = f"lines.rules:{line_of(text, '6 / (zero + 1)')}"
    assert any(where in note for note in getattr(info.value, "__notes__", [])), info.value


def test_a_developer_traceback_shows_the_generated_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    text = GAME.format(setup="", turn="  set total += 1\n  set total += 6 / (zero + 1)")

    def broken(a: int, b: int, span: object) -> int:
        raise KeyError("a bug")

    monkeypatch.setattr(helpers, "divide", broken)
    g = rulelang.compile_source(text, "lines.rules").new_game(2)
    with pytest.raises(KeyError) as info:
        g.apply("1")
    shown = "".join(traceback.format_exception(info.value))
    assert "_h.divide(" in shown, shown


def test_a_file_name_cannot_break_out_of_its_comment(tmp_path: Path) -> None:
    """The comment naming the rule line in generated code shows the file's name; a line
    break in the name must not make the rest of it code."""
    path = tmp_path / "odd\nraise SystemExit(3)\n.rules"
    path.write_text(GAME.format(setup="", turn="  set total += 1"), encoding="utf-8")
    g = rulelang.compile_file(path).new_game(2)
    for _ in range(6):
        if not g.is_over():
            g.apply("1")
    assert g.is_over()


def test_marks_leave_jumps_bare_for_inlining() -> None:
    """A jump to another op (`return N`) is never marked: the code generator copies a
    small op in place of a bare jump to it, so that a decision usually costs one op."""
    rules = rulelang.compile_file(Path(__file__).parent.parent / "rulesets" / "heimlich.rules")
    lines = [line for source in rules.code.source for line in source.splitlines()]
    assert any(re.search(r"  # @\d+$", line) for line in lines)  # statements are marked
    assert not [line for line in lines if re.match(r"\s*return \d+  #", line)]

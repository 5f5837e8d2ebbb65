"""The gaps a designer hit first (issue 20, item 4): `break` and `continue`, `for ...
where`, eight directions and lines on grids (stdlib `grids`), quotes and braces in
texts. Each is played through a small rule file; Connect Four
(rulesets/examples/connect-four.rules) uses them all."""

from __future__ import annotations

from pathlib import Path

import pytest

import rulelang
from rulelang import GameRuntimeError
from rulelang.diagnostics import Diagnostic, RuleError

ROOT = Path(__file__).resolve().parent.parent
HEAD = 'game "gaps"\nplayers 2..2\n'
TAIL = "\nend when done { draw players }\n"


def compile_turn(globals_: str, body: str, extra: str = "") -> rulelang.Ruleset:
    """A game whose only turn runs `body`, then ends (`done`)."""
    state = f"global {{ done: bool = false {globals_} }}"
    text = f"{HEAD}{extra}\n{state}\nturn {{\n{body}\n  set done = true\n}}{TAIL}"
    return rulelang.compile_source(text, str(ROOT / "tests" / "gaps.rules"))


def said(g: rulelang.Game) -> list[str]:
    """The log lines of the game so far, as the referee reads them."""
    return list(g.history(None))


def problems(text: str) -> list[Diagnostic]:
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(HEAD + text, str(ROOT / "tests" / "gaps.rules"))
    return info.value.diagnostics


# ------------------------------------------------------------------ break, continue
def test_break_and_continue_in_loops_that_never_ask() -> None:
    rules = compile_turn(
        "total: int = 0",
        """
  for k in 1..10 {
    if k == 2 { continue }
    if k == 5 { break }
    set total += k            # 1 + 3 + 4
  }
  let n = 0
  while true {
    set n += 1
    if n < 3 { continue }
    set total += 10 * n       # 30, once
    break
  }
  repeat 4 { set total += 100 break }
""",
    )
    g = rules.new_game(2)
    assert g.is_over()
    assert g.view(None)["globals"]["total"] == 8 + 30 + 100


def test_break_and_continue_in_a_loop_that_asks_between_rounds() -> None:
    """A loop whose body asks a player is compiled as ops with labels: the jumps land
    on them (the round counted as a round's end counts it)."""
    rules = compile_turn(
        'picks: text = ""',
        """
  let n = 0
  while true {
    set n += 1
    if n == 2 { continue }
    if n > 4 { break }
    choose x in 1..2 prompt "Pick {n}"
    set picks = "{picks}{n}:{x} "
  }
  for k in 1..9 {
    if k == 3 { break }
    choose y in [7, 8] prompt "Again {k}"
    if y == 7 { continue }
    set picks = "{picks}{k}! "
  }
""",
    )
    g = rules.new_game(2)
    prompts = []
    for pick in ["1", "2", "1", "8", "7"]:
        prompts.append(g.prompt())
        g.apply(pick)
    assert prompts == ["Pick 1", "Pick 3", "Pick 4", "Again 1", "Again 2"]
    assert g.is_over()
    assert g.view(None)["globals"]["picks"] == "1:1 3:2 4:1 1! "


def test_break_in_a_def_block_leaves_its_loop() -> None:
    rules = compile_turn(
        "found: int = 0",
        "  set found = first_over(5)",
        extra="""
def first_over(limit: int) {
  let at = 0
  for k in 1..100 {
    if k * k > limit { set at = k break }
  }
  return at
}
""",
    )
    assert rules.new_game(2).view(None)["globals"]["found"] == 3


@pytest.mark.parametrize(
    ("body", "hint"),
    [
        (
            "  choose x in 1..3\n  if x == 2 { break }",
            "only be used inside 'while', 'for' or 'repeat'",
        ),
        ("  choose x in 1..3\n  continue", "only be used inside 'while', 'for' or 'repeat'"),
        (
            "  react from current as p { choose c in 1..2 allow pass\n  break }",
            "a reaction round is played out whole",
        ),
    ],
)
def test_break_or_continue_outside_a_loop_is_e325(body: str, hint: str) -> None:
    loop = "  repeat 2 { set done = done }"
    found = problems(f"global {{ done: bool = false }}\nturn {{\n{loop}\n{body}\n}}{TAIL}")
    assert [d.code for d in found] == ["E325"]
    assert "outside a loop" in found[0].message and hint in found[0].hint


def test_break_in_a_proc_called_from_a_loop_is_e325() -> None:
    found = problems(
        "global { done: bool = false }\nproc stop { break }\n"
        "turn {\n  while true { do stop }\n}" + TAIL
    )
    assert [d.code for d in found] == ["E325"]
    assert "proc 'stop' cannot break its caller's loop" in found[0].hint


# ------------------------------------------------------------------ for ... where
def test_for_where_runs_the_rounds_the_condition_holds_for() -> None:
    rules = compile_turn(
        "odd: list(int) = []  asked: list(int) = []",
        """
  for k in 1..7 where k % 2 == 1 { set odd = odd + [k] }
  for k in 1..6 where k > 4 {
    choose x in [k] prompt "Round {k}"
    set asked = asked + [x]
  }
""",
    )
    g = rules.new_game(2)
    assert g.prompt() == "Round 5"
    g.apply("5")
    g.apply("6")
    assert g.view(None)["globals"]["odd"] == [1, 3, 5, 7]
    assert g.view(None)["globals"]["asked"] == [5, 6]


def test_for_where_needs_a_condition() -> None:
    found = problems(
        "global { done: bool = false }\nturn {\n  for k in 1..3 where k { set done = true }\n"
        "  choose x in 1..2\n}" + TAIL
    )
    assert [d.code for d in found] == ["E201"]


# ------------------------------------------------------------------ texts
def test_quotes_inside_braces_of_a_text() -> None:
    """The issue's own example: `"{if b == none then "none yet" else b}"`."""
    rules = compile_turn(
        "b: player = none",
        '  say "best: {if b == none then "none yet" else "{b} so far"}"\n'
        "  set b = current\n"
        '  say "best: {if b == none then "none yet" else "{b} so far"}"',
    )
    g = rules.new_game(2)
    assert said(g)[-2:] == ["best: none yet", "best: P1 so far"]


def test_doubled_braces_are_braces() -> None:
    rules = compile_turn("", '  say "a set: {{1, {1 + 1}}} and }} {{"')
    assert said(rules.new_game(2))[-1] == "a set: {1, 2} and } {"


@pytest.mark.parametrize(
    ("text", "code", "col"),
    [
        ('"{current moves {x}"', "E006", 8),  # the unclosed brace
        ('"moves {x"', "E006", 14),
        ('"moves x}"', "E007", 15),
        ('"{{x}"', "E007", 11),
    ],
)
def test_an_unclosed_or_stray_brace_is_a_diagnostic_with_a_hint(
    text: str, code: str, col: int
) -> None:
    turn = f"turn {{\n  choose x in 1..2\n  say {text}\n}}"
    found = problems(f"global {{ done: bool = false }}\n{turn}{TAIL}")
    assert [(d.code, d.span.line, d.span.col) for d in found] == [(code, 6, col)]
    assert ("'{{'" if code == "E006" else "'}}'") in found[0].hint


def test_no_shipped_text_reads_differently() -> None:
    """`{{`, `}}` and quotes inside braces are new: no shipped rule file used them."""
    for path in [*ROOT.glob("rulesets/**/*.rules"), *ROOT.glob("stdlib/*.rules")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            assert "{{" not in line and "}}" not in line, (path, line)


# ------------------------------------------------------------------ grids
GRID = "board g = grid(0, 3, 0, 3) { state mark: int = 0 }\n"


def shown(rules: rulelang.Ruleset) -> str:
    return said(rules.new_game(2))[-1]


def test_neighbour_has_eight_directions() -> None:
    rules = compile_turn(
        "",
        '  say "{[neighbour(g, cell(g, 1, 1), d) for d in 0..7]} '
        '{[neighbour(g, cell(g, 0, 0), d) for d in 4..7]}"',
        extra=GRID,
    )
    assert shown(rules) == "[1,2, 2,1, 1,0, 0,1, 2,2, 2,0, 0,0, 0,2] [1,1, none, none, none]"


def test_a_number_that_is_no_direction_is_r045() -> None:
    rules = compile_turn("", '  say "{neighbour(g, cell(g, 1, 1), 8)}"', extra=GRID)
    with pytest.raises(GameRuntimeError) as info:
        rules.new_game(2)
    assert info.value.code == "R045"


def test_line_from_and_lines_through() -> None:
    rules = compile_turn(
        "",
        '  say "{line_from(g, cell(g, 1, 1), 4, 3)} {line_from(g, cell(g, 1, 1), 4, 9)} '
        '{len(lines_through(g, cell(g, 1, 1), 3))} {lines_through(g, cell(g, 0, 0), 4)}"',
        extra=GRID,
    )
    # rows west to east, columns south to north, both diagonals; only whole lines
    assert shown(rules) == (
        "[1,1, 2,2, 3,3] [1,1, 2,2, 3,3] 7 [[0,0, 1,0, 2,0, 3,0], [0,0, 0,1, 0,2, 0,3], "
        "[0,0, 1,1, 2,2, 3,3]]"
    )


def test_the_grids_module() -> None:
    rules = compile_turn(
        "",
        '  say "{[opposite(d) for d in directions]} {[turn_right(d) for d in directions]} '
        "{[turn_left(d) for d in directions]} {direction_name(north_west)} "
        '{longest_run([true, false, true, true, true, false])} {in_a_row([true, true], 3)}"',
        extra="import grids\n",
    )
    assert shown(rules) == (
        "[2, 3, 0, 1, 6, 7, 4, 5] [1, 2, 3, 0, 5, 6, 7, 4] [3, 0, 1, 2, 7, 4, 5, 6] north-west 3 no"
    )


# ------------------------------------------------------------------ Connect Four
def connect_four(moves: str, seed: int = 0) -> rulelang.Game:
    rules = rulelang.compile_file(ROOT / "rulesets" / "examples" / "connect-four.rules")
    g = rules.new_game(2, seed=seed)
    for m in moves.split():
        g.apply(m)
    return g


def test_the_connect_four_bot_wins_when_it_can() -> None:
    g = connect_four("1 1 2 2 3 3")  # P1 has 1, 2, 3 on the bottom row
    assert g.bot_choice("blocker").text == "4"


def test_the_connect_four_bot_blocks_otherwise() -> None:
    g = connect_four("1 7 2 7 3")  # P2 to move; P1 threatens column 4
    assert g.bot_choice("blocker").text == "4"


def test_the_connect_four_bot_does_not_open_the_cell_above_for_a_four() -> None:
    """P1 has three in row 2 (columns 1-3) and column 4 is empty: a disc there would
    let P1 drop the fourth on it. Without that rule the bot keeps to column 4."""
    picks = {connect_four("3 1 1 2 2 7 3", seed).bot_choice("blocker").text for seed in range(6)}
    assert picks <= {"3", "5"}


def test_the_syntax_errors_read_quotes_inside_braces_as_the_grammar_does() -> None:
    """The hint quotes the whole text before the missing ')', not a piece of it."""
    found = problems('turn {\n  let t = ("{if true then ")" else "b"}"\n}\n')
    assert [d.code for d in found] == ["E003"]
    assert found[0].hint.startswith('expected \')\' after "{if true then ")" e..."')

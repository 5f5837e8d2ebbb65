"""Syntax errors (issue 7, item 6): every broken declaration of a file is reported, each
at the line of the mistake, in the language's own words, with targeted hints for the
mistakes people make. rulelang/syntax/syntax_errors.py explains how.

Each test parses a text and checks the errors: their number, code, line and column,
message and hint. `errors` also checks every message and hint for the parser's own
wording (Lark's messages and terminal names) and for cut-off lists of tokens.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from test_diagnostics import LARK_WORDING as DIAGNOSTICS_LARK_WORDING

import rulelang
from rulelang.diagnostics import Diagnostic, RuleError
from rulelang.syntax.parser import _parser, parse
from rulelang.syntax.syntax_errors import MAX_ERRORS

ROOT = Path(__file__).resolve().parent.parent
HEIMLICH = ROOT / "rulesets" / "heimlich.rules"

LARK_WORDING = (*DIAGNOSTICS_LARK_WORDING, "$END", "__ANON")
# Lark's names for the grammar's terminals ("NAME" is also a placeholder in hints).
TERMINALS = sorted({t.name for t in _parser().terminals if not t.name.startswith("__")} - {"NAME"})

# Lines 1-3 of most texts below.
HEAD = 'game "t"\nplayers 2..4\nglobal { total: int = 0 }\n'


def check_wording(d: Diagnostic) -> None:
    for text in (d.message, d.hint):
        for word in LARK_WORDING:
            assert word not in text, (word, text)
        for name in TERMINALS:
            assert not re.search(rf"(?<![\w']){re.escape(name)}(?![\w'])", text), (name, text)
        assert ", ..." not in text and not text.endswith("..."), text  # a cut-off list
    assert d.code.startswith("E0"), d
    assert d.span.file == "t.rules" and d.span.line >= 1 and d.span.col >= 1


def errors(text: str) -> list[Diagnostic]:
    with pytest.raises(RuleError) as info:
        parse(text, "t.rules")
    diagnostics = info.value.diagnostics
    assert diagnostics
    for d in diagnostics:
        check_wording(d)
    return diagnostics


def one(text: str) -> Diagnostic:
    found = errors(text)
    assert len(found) == 1, [(d.span.line, d.message) for d in found]
    return found[0]


def at(d: Diagnostic) -> tuple[str, int, int]:
    return (d.code, d.span.line, d.span.col)


# --------------------------------------------------------------------- several errors


MANY = """\
game "t"
players 2
global { total: int = 0 }
const a = 1 +
const b = [1, 2,]
param p = 3 "doc"
setup {
  set total = 1 + if a > 1 then 2 else 3
}
turn {
  if total = 1 {
    total += 1
  }
  choose x in 1..3
}
end when total > 10 && total < 20 { win [current] }
"""


def test_every_broken_declaration_is_reported_once() -> None:
    found = errors(MANY)
    assert [(d.span.line, d.message) for d in found] == [
        (2, "expected '..' after '2'"),
        (4, "expected an expression after '+'"),
        (5, "unexpected ']'"),
        (8, "'if' cannot be used here without parentheses"),
        (11, "unexpected '='"),  # the turn's second mistake (line 12) is not reported
        (16, "unexpected '&&'"),
    ]


def test_compile_source_reports_them_all_rendered() -> None:
    with pytest.raises(RuleError) as info:
        rulelang.compile_source(MANY, "many.rules")
    text = str(info.value)
    headers = re.findall(r"^many\.rules:(\d+):\d+: error\[(E\d{3})\]", text, re.M)
    assert headers == [(str(n), "E001") for n in (2, 4, 5, 8, 11, 16)]


def test_an_error_inside_a_block_does_not_echo_in_the_next_declarations() -> None:
    text = HEAD + "turn {\n  set total = = 1\n  set total += 1\n}\n"
    text += "end when total > 3 { win [current] }\n"
    assert at(one(text)) == ("E001", 5, 15)


def test_reading_starts_again_outside_the_broken_declaration() -> None:
    """A phase written without indentation: its `turn` and `end when` lines start in
    column 1 like declarations, but they are inside the phase's braces."""
    text = HEAD + (
        "phase main {\nturn {\n  set total = = 1\n}\nend when total > 3\nnext main\n}\n"
        "end when total > 10 { win [current] }\nconst c = = 2\n"
    )
    assert [at(d) for d in errors(text)] == [("E001", 6, 15), ("E001", 12, 11)]


def test_the_first_error_is_where_the_parser_stops() -> None:
    text = 'game "t"\nplayers 2..4\nturn {\n  choose x in 1..3 )\n}\nconst c = = 1\n'
    found = errors(text)
    assert at(found[0]) == ("E001", 4, 20)
    assert found[0].message == "unexpected ')'"
    assert [d.span.line for d in found] == [4, 6]


def test_at_most_so_many_errors() -> None:
    text = 'game "t"\n' + "".join(f"const c{i} = = {i}\n" for i in range(MAX_ERRORS + 10))
    found = errors(text)
    assert len(found) == MAX_ERRORS
    assert [d.span.line for d in found] == list(range(2, MAX_ERRORS + 2))


def test_one_mistake_on_any_line_of_a_real_game_is_one_error_on_that_line() -> None:
    """Heimlich & Co with a stray ')' or '$' at the end of the code of one line, for
    each line: exactly one error, on that line (no echo in later declarations)."""
    lines = HEIMLICH.read_text(encoding="utf-8").split("\n")
    started = time.process_time()
    cases = 0
    for i, line in enumerate(lines):
        code = re.sub(r'("(?:[^"\\]|\\.)*")|#.*', lambda m: m.group(1) or "", line).rstrip()
        if not code:
            continue
        for junk in (" $", " )") if i % 2 else (" $",):
            broken = [*lines[:i], code + junk + line[len(code) :], *lines[i + 1 :]]
            found = errors("\n".join(broken))
            assert [d.span.line for d in found] == [i + 1], (i + 1, junk, found)
            cases += 1
    assert cases > 80
    assert time.process_time() - started < 60


# --------------------------------------------------------------------------- lines


def test_a_line_that_ends_too_early_is_reported_at_its_end() -> None:
    d = one(HEAD + "turn {\n  set total += total +\n}\n")
    assert at(d) == ("E001", 5, 23)
    assert d.message == "expected an expression after '+'"
    assert d.hint == "'}' on line 6 cannot continue it"


def test_a_keyword_on_the_next_line_is_not_taken_for_a_name() -> None:
    """`+` at the end of a line, then `let` read as a name: the mistake is the `+`."""
    d = one(HEAD + "turn {\n  let a = total +\n  let b = 2\n  set total = a\n}\n")
    assert at(d) == ("E001", 5, 18)
    assert d.message == "expected an expression after '+'"


def test_a_name_that_starts_a_new_line_is_not_taken_to_continue_the_last() -> None:
    d = one('game "t"\nplayer {\n  name: text =\n  score: int = 0\n}\n')
    assert at(d) == ("E001", 3, 15)
    assert d.message == "expected an expression after '='"


def test_a_keyword_that_goes_on_is_not_blamed_on_the_line_before() -> None:
    text = HEAD + 'turn {\n  choose x in 1..3\n    require x > 1\n    else "no" $\n}\n'
    assert at(one(text)) == ("E001", 7, 15)


def test_a_declaration_that_ends_too_early_before_the_next_one() -> None:
    d = one('game "t"\nconst a = 1 +\nconst b = 2\n')
    assert at(d) == ("E001", 2, 14)
    assert d.message == "expected an expression after '+'"
    assert d.hint == "line 3 starts a new declaration ('const')"


def test_a_missing_brace_before_the_next_declaration_is_the_open_brace() -> None:
    text = HEAD + (
        "turn {\n  if total > 1 {\n    set total = 2\n\n}\nend when total > 3 { win [current] }\n"
    )
    d = one(text)
    assert at(d) == ("E003", 5, 16)  # the if's brace: the '}' of line 8 is the turn's
    assert d.message == "the '{' on line 5 is never closed"
    assert d.hint == "add '}' before line 8"


def test_a_missing_brace_at_the_end_of_the_file() -> None:
    d = one(HEAD + "turn {\n  set total += 1\n")
    assert at(d) == ("E003", 4, 6)
    assert d.message == "the '{' on line 4 is never closed"
    assert d.hint == "add '}' at the end of the file"


def test_several_missing_braces_at_the_end_of_the_file() -> None:
    d = one('game "t"\nturn {\n  if true {\n    say "x"\n')
    assert at(d) == ("E003", 3, 11)
    assert d.hint == "add '}' at the end of the file; the '{' on line 2 is not closed either"


def test_a_missing_brace_in_unindented_code_is_the_outer_one() -> None:
    d = one('game "t"\nturn {\nif true {\nsay "x"\n}\nend when true { win [current] }\n')
    assert at(d) == ("E003", 2, 6)


def test_a_missing_brace_before_else() -> None:
    text = HEAD + "turn {\n  if total > 1 {\n    set total = 1\n  else {\n"
    text += "    set total = 2\n  }\n}\n"
    d = one(text)
    assert at(d) == ("E003", 5, 16)
    assert d.hint == "add '}' before line 7"


def test_a_missing_brace_inside_a_phase() -> None:
    text = HEAD + (
        "phase main {\n  begin {\n    set total = 0\n  turn {\n    set total += 1\n  }\n"
        "  end when total > 2\n  next main\n}\nend when total > 9 { win [current] }\n"
    )
    d = one(text)
    assert at(d) == ("E003", 5, 9)
    assert d.hint == "add '}' before line 7"


def test_a_missing_brace_is_not_blamed_on_a_declaration_inside_a_block() -> None:
    d = one(HEAD + "turn {\n  const x = 1\n}\n")
    assert at(d) == ("E001", 5, 3)
    assert d.hint == "'const' declares a value for the whole file; inside a block write 'let'"


def test_reading_goes_on_after_a_missing_brace() -> None:
    text = HEAD + "turn {\n  set total += 1\n\n"
    text += "end when total > 3 { win [current] }\nconst c = = 1\n"
    assert [at(d) for d in errors(text)] == [("E003", 4, 6), ("E001", 8, 11)]


def test_an_unclosed_list_or_call_is_its_bracket() -> None:
    d = one('game "t"\nconst names = ["a", "b"\nturn {\n}\n')
    assert at(d) == ("E003", 2, 15)
    assert d.message == "the '[' on line 2 is never closed"
    assert d.hint == "expected ',' or ']' after \"b\"; line 3 starts a new declaration ('turn')"
    d = one(HEAD + "turn {\n  say max(1, 2\n}\n")
    assert at(d) == ("E003", 5, 10)
    assert d.message == "the '(' on line 5 is never closed"


def test_a_stray_closing_brace() -> None:
    d = one(HEAD + "turn {\n  set total += 1\n}}\n")
    assert at(d) == ("E001", 6, 2)
    assert (d.message, d.hint) == ("unexpected '}'", "this '}' closes no '{'")


def test_an_error_in_an_interpolated_expression_is_in_the_text() -> None:
    text = HEAD + 'turn {\n  say "a {total +} b"\n  say "{)}"\n}\n'
    found = errors(text)
    assert [at(d) for d in found] == [("E001", 5, 18), ("E001", 6, 9)]
    assert found[0].message == "expected an expression after '+'"
    assert found[0].hint == "the expression in braces ends here"
    d = one(HEAD + 'turn {\n  say "a {} b"\n}\n')
    assert at(d) == ("E001", 5, 11)
    assert d.message == "expected an expression"


# -------------------------------------------------------------------------- wording


@pytest.mark.parametrize(
    "text, expected",
    [
        (HEAD + "turn {\n  42\n}\n", "expected '}' or a statement (such as 'set', 'if' or"),
        (HEAD + "const c = ,\n", "expected an expression"),
        (HEAD + "42\n", "expected a declaration (such as 'phase', 'turn' or 'end when')"),
        (HEAD + "const c = 1 2\n", "expected a declaration (such as"),
        (HEAD + "turn {\n  if total {{\n  }\n}\n", "expected '}' or a statement"),
        (
            HEAD + "turn {\n  set total = total 3\n}\n",
            "expected '}', a statement (such as 'set', 'if' or 'choose') or an operator",
        ),
    ],
)
def test_what_is_expected_is_said_in_classes(text: str, expected: str) -> None:
    d = errors(text)[0]
    assert d.hint.startswith(expected), d.hint


def test_an_unexpected_text_is_called_a_text() -> None:
    d = one(HEAD + 'turn {\n  say "a" "b"\n}\n')
    assert d.message == 'unexpected text "b"'


def test_codes_of_the_syntax_family() -> None:
    too_deep = 'game "t"\nturn {\n  set total = ' + "-" * 5000 + "1\n}\n"
    assert [d.code for d in errors(too_deep)] == ["E004"]
    assert errors(too_deep)[0].message == "the rule file nests too deeply to be read"
    numbers = 'game "t"\nconst a = 1234567890123456789\nconst b = 99999999999999999999\n'
    found = errors(numbers)
    assert [at(d) for d in found] == [("E005", 2, 11), ("E005", 3, 11)]
    assert found[0].message == "a number of 19 digits: numbers in rule files have at most 18"
    d = one(HEAD + 'turn {\n  say "hi\n}\n')
    assert at(d) == ("E002", 5, 7)
    assert d.message == "this text has no closing '\"'"


# ---------------------------------------------------------------------------- hints

# (text, (line, col) of the error, message, hint): the lines count from line 1 of the
# text, HEAD being lines 1-3.
HINTS = [
    # conditional expressions: 'if C then A else B'
    (
        HEAD + "turn {\n  set total = 1 + if total > 3 then 1 else 2\n}\n",
        (5, 19),
        "'if' cannot be used here without parentheses",
        "a conditional expression inside another is written in parentheses: "
        "'(if CONDITION then A else B)'",
    ),
    (
        HEAD + "turn {\n  let n = not if total > 3 then true else false\n}\n",
        (5, 15),
        "'if' cannot be used here without parentheses",
        "a conditional expression inside another is written in parentheses: "
        "'(if CONDITION then A else B)'",
    ),
    (
        HEAD + "turn {\n  set total = if total > 3 then 1\n}\n",
        (5, 34),
        "expected 'else' after '1'",
        "a conditional expression needs both branches: 'if CONDITION then A else B'",
    ),
    (
        HEAD + "turn {\n  set total = if total > 3 1 else 2\n}\n",
        (5, 28),
        "unexpected '1'",
        "a conditional expression is written 'if CONDITION then A else B'",
    ),
    (
        HEAD + "turn {\n  set total = if total > 3 { 1 } else { 2 }\n}\n",
        (5, 28),
        "unexpected '{'",
        "in an expression, 'if' is a conditional expression: 'if CONDITION then A else B'; "
        "the if statement ('if CONDITION { ... }') is a statement of its own",
    ),
    (
        HEAD + "turn {\n  if total > 1 then {\n  }\n}\n",
        (5, 16),
        "unexpected 'then'",
        "an if statement has no 'then': write 'if CONDITION { ... }'",
    ),
    (
        HEAD + "turn {\n  let k = total then 1\n}\n",
        (5, 17),
        "unexpected 'then'",
        "'then' follows the condition of a conditional expression: 'if CONDITION then A else B'",
    ),
    # players
    (
        'game "t"\nplayers 2\nglobal { total: int = 0 }\n',
        (2, 10),
        "expected '..' after '2'",
        "'players' takes a range of player counts: write 'players 2..2' for exactly 2 players",
    ),
    (
        'game "t"\nplayers 3',
        (2, 10),
        "expected '..' after '3'",
        "'players' takes a range of player counts: write 'players 3..3' for exactly 3 players",
    ),
    (
        'game "t"\nplayers 2-4\n',
        (2, 10),
        "unexpected '-'",
        "a range of player counts is written with '..': 'players 2..4'",
    ),
    (
        'game "t"\nplayers 2 to 4\n',
        (2, 11),
        "unexpected 'to'",
        "a range of player counts is written with '..': 'players 2..4'",
    ),
    # '=' for '==' and the other way round
    (
        HEAD + "turn {\n  if total = 1 {\n  }\n}\n",
        (5, 12),
        "unexpected '='",
        "to compare two values write '=='; '=' gives a value (let, set, const)",
    ),
    (
        HEAD + "turn { set total += 1 }\nend when total = 3 { win [current] }\n",
        (5, 16),
        "unexpected '='",
        "to compare two values write '=='; '=' gives a value (let, set, const)",
    ),
    (
        HEAD + "turn {\n  while total = 1 {\n  }\n}\n",
        (5, 15),
        "unexpected '='",
        "to compare two values write '=='; '=' gives a value (let, set, const)",
    ),
    (
        HEAD + 'turn {\n  choose x in 1..3 require x = 2 else "no"\n}\n',
        (5, 30),
        "unexpected '='",
        "to compare two values write '=='; '=' gives a value (let, set, const)",
    ),
    (
        HEAD + "const xs = [p for p in players where p = 1]\n",
        (4, 40),
        "unexpected '='",
        "to compare two values write '=='; '=' gives a value (let, set, const)",
    ),
    (
        HEAD + "turn {\n  let x == 1\n}\n",
        (5, 9),
        "unexpected '=='",
        "to give a value write '='; '==' compares two values",
    ),
    (
        HEAD + "const c == 1\n",
        (4, 9),
        "unexpected '=='",
        "to give a value write '='; '==' compares two values",
    ),
    (
        HEAD + "turn {\n  if 1 < total < 3 {\n  }\n}\n",
        (5, 16),
        "unexpected '<'",
        "one comparison at a time: join them with 'and', as in '1 < total and total < 3'",
    ),
    (
        HEAD + "const c = [x for x in 1..3 where (1 < x <= max(2, 3))]\n",
        (4, 41),
        "unexpected '<='",
        "one comparison at a time: join them with 'and', as in '1 < x and x <= max(2, 3)'",
    ),
    # signs from other languages
    (
        HEAD + "turn {\n  // a comment\n  set total = 1\n}\n",
        (5, 3),
        "unexpected '/'",
        "comments start with '#' and run to the end of the line",
    ),
    (
        HEAD + "turn {\n  set total = 1 // a comment\n}\n",
        (5, 18),
        "unexpected '/'",
        "comments start with '#' and run to the end of the line",
    ),
    (
        HEAD + "const x = 1.5\n",
        (4, 13),
        "unexpected '5'",
        "numbers in rules are whole numbers: there are no fractions like 1.5",
    ),
    (
        HEAD + "const xs = {1, 2}\n",
        (4, 12),
        "unexpected '{'",
        "a list is written in square brackets: [1, 2, 3]",
    ),
    (
        HEAD + "turn {\n  for (p in players) {\n  }\n}\n",
        (5, 7),
        "unexpected '('",
        "a loop needs no parentheses: 'for p in players { ... }'",
    ),
    (
        HEAD + "turn {\n  let x := 1\n}\n",
        (5, 9),
        "unexpected ':='",
        "to give a value write '=' (there is no ':=')",
    ),
    (
        HEAD + "turn {\n  set total := 1\n}\n",
        (5, 13),
        "unexpected ':='",
        "to give a value write '=' (there is no ':=')",
    ),
    (
        HEAD + "end when total <> 1 { win [current] }\n",
        (4, 16),
        "unexpected '<>'",
        "write '!=' for 'not equal'",
    ),
    (
        HEAD + "end when total > 1 && total < 3 { win [current] }\n",
        (4, 20),
        "unexpected '&&'",
        "write 'and' (there is no '&&')",
    ),
    (
        HEAD + "end when total > 1 || total < 3 { win [current] }\n",
        (4, 20),
        "unexpected '||'",
        "write 'or' (there is no '||')",
    ),
    (
        HEAD + "end when !(total > 1) { win [current] }\n",
        (4, 10),
        "unexpected character '!'",
        "write 'not' (there is no '!' on its own; '!=' means 'not equal')",
    ),
    (
        HEAD + "turn {\n  set total = 1;\n}\n",
        (5, 16),
        "unexpected character ';'",
        "statements need no ';': remove it",
    ),
    (
        HEAD + "turn {\n  say 'hi'\n}\n",
        (5, 7),
        "unexpected character '''",
        'texts are written in double quotes: "like this"',
    ),
    (
        HEAD + "turn {\n  let é = 1\n}\n",
        (5, 7),
        "unexpected character 'é'",
        "names are written with the letters a to z, digits and '_'",
    ),
    (
        HEAD + "turn {\n  if total > 1:\n    set total = 1\n}\n",
        (5, 15),
        "unexpected ':'",
        "a block is written in braces, '{ ... }', not after ':'",
    ),
    (
        HEAD + "turn {\n  if total > 1 {\n  } else if total > 2 {\n  }\n}\n",
        (6, 10),
        "unexpected 'if'",
        "write 'elif' for 'else if'",
    ),
    # a missing 'set' or 'do'
    (
        HEAD + "turn {\n  total = 1\n}\n",
        (5, 3),
        "unexpected 'total'",
        "to change a value write 'set total = 1'; to declare a new one, 'let total = 1'",
    ),
    (
        HEAD + "turn {\n  total += 1\n}\n",
        (5, 3),
        "unexpected 'total'",
        "to change a value write 'set total += 1'",
    ),
    (
        HEAD + "turn {\n  current.score -= 1\n}\n",
        (5, 3),
        "unexpected 'current'",
        "to change a value write 'set current.score -= 1'",
    ),
    (
        HEAD + "turn {\n  total++\n}\n",
        (5, 3),
        "unexpected 'total'",
        "to change a value write 'set total += 1'",
    ),
    (
        HEAD + "turn {\n  set total++\n}\n",
        (5, 12),
        "unexpected '++'",
        "write 'set total += 1'",
    ),
    (
        HEAD + "proc bump { set total += 1 }\nturn {\n  bump()\n}\n",
        (6, 3),
        "unexpected 'bump'",
        "to run a proc write 'do bump()'",
    ),
    (  # a name that begins with a keyword is one name, not `draw` and `_card`
        HEAD + "proc draw_card { set total += 1 }\nturn {\n  draw_card()\n}\n",
        (6, 3),
        "unexpected 'draw_card'",
        "to run a proc write 'do draw_card()'",
    ),
    # lists and calls
    (
        HEAD + "const xs = [1, 2,]\n",
        (4, 18),
        "unexpected ']'",
        "there is no ',' after the last item: remove the ',' before ']'",
    ),
    (
        HEAD + "const xs = max(1, 2,)\n",
        (4, 21),
        "unexpected ')'",
        "there is no ',' after the last item: remove the ',' before ')'",
    ),
    (
        HEAD + "const xs = [\n  1,\n  2,\n]\n",
        (6, 5),
        "expected an expression after ','",
        "there is no ',' after the last item: remove the ',' before ']'",
    ),
    (
        HEAD + "const xs = [1 2]\n",
        (4, 15),
        "unexpected '2'",
        "is a ',' missing before '2'? (expected ',', ']', 'for' or an operator)",
    ),
    (
        HEAD + "turn {\n  set total = max(1, 2))\n}\n",
        (5, 24),
        "unexpected ')'",
        "this ')' closes no '('",
    ),
    # words and places
    (
        "game The Game\nplayers 2..4\n",
        (1, 6),
        "unexpected 'The'",
        'a text in quotes is expected here: "The Game"',
    ),
    (
        HEAD + 'import "dice"\n',
        (4, 8),
        'unexpected text "dice"',
        "a name is written without quotes: dice",
    ),
    (
        HEAD + "extends base.rules\n",
        (4, 9),
        "unexpected 'base'",
        'a text in quotes is expected here: "base.rules"',
    ),
    (
        HEAD + "def f(x) = x\n",
        (4, 8),
        "unexpected ')'",
        "each parameter has a type, as in 'x: int'",
    ),
    (
        'game "t"\nglobal { score = 0 }\n',
        (2, 16),
        "unexpected '='",
        "an attribute has a type, as in 'score: int = 0'",
    ),
    (
        HEAD + "turn {\n  elif total > 1 {\n  }\n}\n",
        (5, 3),
        "unexpected 'elif'",
        "'elif' comes right after the '}' that ends an if or elif block",
    ),
    (
        HEAD + "turn {\n  choos x in 1..3\n}\n",
        (5, 3),
        "unexpected 'choos'",
        "did you mean 'choose'?",
    ),
    (HEAD + "phse main {\n}\n", (4, 1), "unexpected 'phse'", "did you mean 'phase'?"),
    (HEAD + "Turn {\n}\n", (4, 1), "unexpected 'Turn'", "did you mean 'turn'?"),
    (
        HEAD + "turn {\n  print(total)\n}\n",
        (5, 3),
        "unexpected 'print'",
        "to show a text write 'say'",
    ),
    (
        HEAD + "turn {\n  if total > 1 {\n  } elsif total > 2 {\n  }\n}\n",
        (6, 5),
        "unexpected 'elsif'",
        "write 'elif'",
    ),
    (
        HEAD + "set total = 1\n",
        (4, 1),
        "unexpected 'set'",
        "'set' is a statement: statements go inside a block, such as 'setup { ... }', "
        "'turn { ... }' or a proc",
    ),
    (
        HEAD + "piece cell count 9 { x: int = 0  card: int }\n",
        (4, 34),
        "unexpected 'card'",
        "'card' is a keyword and cannot be used here as a name",
    ),
    (
        HEAD + "def f(x: int) {\n  x + 1\n}\n",
        (5, 3),
        "unexpected 'x'",
        "a def's block gives its value with 'return': 'return x + 1'",
    ),
    (
        HEAD + "def f(x: int) = {\n  return x\n}\n",
        (4, 17),
        "unexpected '{'",
        "a def is either 'def NAME(...) = EXPRESSION' or a block without '=': "
        "'def NAME(...) { ... return EXPRESSION }'",
    ),
    (
        HEAD + "proc f() = 1\n",
        (4, 10),
        "unexpected '='",
        "a proc runs statements in braces: 'proc NAME { ... }'; for a value write "
        "'def NAME(...) = EXPRESSION'",
    ),
]


@pytest.mark.parametrize(
    "text, where, message, hint", HINTS, ids=[f"{i}-{h[2]}" for i, h in enumerate(HINTS)]
)
def test_targeted_hint(text: str, where: tuple[int, int], message: str, hint: str) -> None:
    d = one(text)
    assert (d.span.line, d.span.col) == where
    assert d.message == message
    assert d.hint == hint

"""The colours of rule files: the Pygments lexer (rulelang.highlight), the TextMate grammar
of editors/vscode and the Vim syntax of editors/vim keep the grammar's keywords, and the
lexer reads every shipped rule file without an error token."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Token

from rulelang.check.builtins import BUILTINS as CHECKED_BUILTINS
from rulelang.highlight import BUILTINS, KEYWORDS, RulelangLexer
from rulelang.syntax.parser import _parser

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted(
    [*ROOT.glob("rulesets/*.rules"), *ROOT.glob("rulesets/examples/*.rules")]
    + [*ROOT.glob("stdlib/*.rules")]
)
TEXTMATE = ROOT / "editors/vscode/syntaxes/rulelang.tmLanguage.json"
VIM = ROOT / "editors/vim/syntax/rulelang.vim"


def grammar_keywords() -> set[str]:
    """The words the Lark grammar spells out (its keyword terminals)."""
    return {
        t.pattern.value
        for t in _parser().terminals
        if t.pattern.type == "str" and re.fullmatch(r"[a-z_]+", t.pattern.value)
    }


def test_the_lexer_knows_every_keyword_of_the_grammar_and_no_other() -> None:
    assert len(KEYWORDS) == len(set(KEYWORDS))
    assert set(KEYWORDS) == grammar_keywords()


def test_the_lexer_knows_the_checker_s_built_in_functions() -> None:
    assert set(BUILTINS) == set(CHECKED_BUILTINS)


def textmate_words(grammar: dict[str, object]) -> set[str]:
    """The words of every `\\b(?:a|b)\\b` alternation in the grammar's keyword rules."""
    text = json.dumps(grammar["repository"]["keyword"])  # type: ignore[index]
    alternations = re.findall(r"\\\\b\(\?:([a-z_|]+)\)\\\\b", text)
    words = {w for alt in alternations for w in alt.split("|")}
    players = grammar["repository"]["players"]["match"]  # type: ignore[index]
    return words | set(re.findall(r"\(([a-z]+)\)", players))


def test_the_textmate_grammar_has_the_grammar_s_keywords() -> None:
    grammar = json.loads(TEXTMATE.read_text(encoding="utf-8"))
    assert textmate_words(grammar) == grammar_keywords()
    assert grammar["scopeName"] == "source.rulelang"


def test_the_textmate_regexes_compile() -> None:
    """Python's `re` stands in for Oniguruma here; editors/textmate-check runs the real one."""
    found = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key in ("match", "begin", "end"):
                if key in node:
                    found.append(re.compile(node[key]))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(json.loads(TEXTMATE.read_text(encoding="utf-8")))
    assert len(found) > 15


def test_the_vim_syntax_has_the_grammar_s_keywords() -> None:
    text = VIM.read_text(encoding="utf-8")
    words = {
        w for line in re.findall(r"^syntax keyword \w+ (.*)$", text, re.M) for w in line.split()
    }
    for alternation in re.findall(
        r"^syntax match rulelang(?:Keyword|Type) /\\<\\\((.*?)\\\)", text, re.M
    ):
        words |= set(alternation.split("\\|"))
    words |= set(re.findall(r"\\zs([a-z]+)\\>", text))
    assert words == grammar_keywords()


def test_pygments_finds_the_lexer_by_its_entry_point() -> None:
    assert isinstance(get_lexer_by_name("rulelang"), RulelangLexer)
    assert isinstance(get_lexer_for_filename("saboteur.rules"), RulelangLexer)


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_every_shipped_rule_file_reads_without_an_error_token(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tokens = list(RulelangLexer().get_tokens(text))
    assert [v for t, v in tokens if t in Error] == []
    assert "".join(v for _t, v in tokens) == text


def classified(source: str) -> list[tuple[str, str]]:
    """(token kind, text) for every token that is not blank."""
    out = []
    for kind, value in RulelangLexer().get_tokens(source):
        if value.strip():
            out.append((str(kind).removeprefix("Token."), value))
    return out


def test_keywords_names_numbers_comments_and_operators_are_told_apart() -> None:
    assert classified("card nugget count 28 {  # the gold\n  value: int = -2\n}\n") == [
        ("Keyword", "card"),
        ("Name", "nugget"),
        ("Keyword", "count"),
        ("Literal.Number.Integer", "28"),
        ("Punctuation", "{"),
        ("Comment.Single", "# the gold"),
        ("Name", "value"),
        ("Punctuation", ":"),
        ("Keyword.Type", "int"),
        ("Operator", "="),
        ("Operator", "-"),
        ("Literal.Number.Integer", "2"),
        ("Punctuation", "}"),
    ]


def test_a_text_s_braces_hold_rule_code_and_doubled_braces_are_braces() -> None:
    assert classified('say "{p} has {count(c for c in hand[p])} {{not code}}"') == [
        ("Keyword", "say"),
        ("Literal.String.Double", '"'),
        ("Literal.String.Interpol", "{"),
        ("Name", "p"),
        ("Literal.String.Interpol", "}"),
        ("Literal.String.Double", " has "),
        ("Literal.String.Interpol", "{"),
        ("Name.Builtin", "count"),
        ("Punctuation", "("),
        ("Name", "c"),
        ("Keyword", "for"),
        ("Name", "c"),
        ("Operator.Word", "in"),
        ("Name", "hand"),
        ("Punctuation", "["),
        ("Name", "p"),
        ("Punctuation", "]"),
        ("Punctuation", ")"),
        ("Literal.String.Interpol", "}"),
        ("Literal.String.Escape", "{{"),
        ("Literal.String.Double", "not code"),
        ("Literal.String.Escape", "}}"),
        ("Literal.String.Double", '"'),
    ]


def test_a_text_inside_braces_is_a_text_of_its_own() -> None:
    kinds = classified('log "{if ok then "yes" else "no"}"')
    assert ("Keyword.Constant", "yes") not in kinds
    assert kinds[3:6] == [("Keyword", "if"), ("Name", "ok"), ("Keyword", "then")]
    assert kinds[6:9] == [
        ("Literal.String.Double", '"'),
        ("Literal.String.Double", "yes"),
        ("Literal.String.Double", '"'),
    ]


def test_keywords_used_as_names_read_as_names_where_the_lexer_can_tell() -> None:
    """`path` names an enum value after `.`, `players` opens a line only as the
    player count, and a declared proc is a function."""
    assert classified("players 2..4\nset c.path = len(players)\nproc deal_all {\n}") == [
        ("Keyword", "players"),
        ("Literal.Number.Integer", "2"),
        ("Operator", ".."),
        ("Literal.Number.Integer", "4"),
        ("Keyword", "set"),
        ("Name", "c"),
        ("Punctuation", "."),
        ("Name.Attribute", "path"),
        ("Operator", "="),
        ("Name.Builtin", "len"),
        ("Punctuation", "("),
        ("Name.Builtin", "players"),
        ("Punctuation", ")"),
        ("Keyword", "proc"),
        ("Name", "deal_all"),
        ("Punctuation", "{"),
        ("Punctuation", "}"),
    ]


def test_every_token_kind_is_a_standard_pygments_one() -> None:
    """Styles colour the standard kinds: a made-up kind would stay black."""
    text = (ROOT / "rulesets/saboteur.rules").read_text(encoding="utf-8")
    for kind, _value in RulelangLexer().get_tokens(text):
        assert kind in Token and str(kind).count(".") <= 3

"""A rule file's texts reach the players as written, whatever they read like.

The generated code is rewritten as text after it is made (the state's tables read into
locals, labels resolved, short defs written in place of their calls): a text of the
rules that read like the code those passes look for was rewritten with it, and
`say "st.loc[ ..."` printed `loc[ ...` (runtime/literals.py)."""

from __future__ import annotations

import random
import re

import pytest

import rulelang
from rulelang.runtime import literals

RULES = """
game "Code-like texts"
players 2..2
const words = ["st.loc[ _a0 @L1@", "cols[0] st.vars[0] st.quiet st.bot() cfg.n cfg.players"]
global {
  note: text = "st.current st.budget st.layers[0] st.log = "
  n: int = 0
}
def tag(x: int) = "_a0 {x} _v1 _t2 st.loc["
turn {
  choose k in 1..3 prompt "st.loc[ Which? st.cfg."
  let me = "{current} st.zones["
  say "st.loc[ st.cfg. st.zones[ {me} {k}"
  say "st.cols[1] @L0@ _a0"
  say tag(k)
  say words[0] + words[1]
  set note = note + "."
  set n += 1
  say "{n} st.vars[0] {note}"
}
end when n >= 6 { draw players }
"""
NOTE = "st.current st.budget st.layers[0] st.log = "


def expected(history: list[str]) -> list[str]:
    """The log the rules above say for the choices in history (its 'P chooses k')."""
    out: list[str] = []
    made = 0
    for line in history:
        if " chooses " not in line:
            continue
        who, k = line.split(" chooses ")
        made += 1
        out += [
            line,
            f"st.loc[ st.cfg. st.zones[ {who} st.zones[ {k}",
            "st.cols[1] @L0@ _a0",
            f"_a0 {k} _v1 _t2 st.loc[",
            "st.loc[ _a0 @L1@cols[0] st.vars[0] st.quiet st.bot() cfg.n cfg.players",
            f"{made} st.vars[0] {NOTE}{'.' * made}",
        ]
    return out


def played(through_api: bool, seed: int) -> rulelang.Game:
    game = rulelang.compile_source(RULES).new_game(2, seed)
    rng = random.Random(seed)
    if through_api:
        while not game.is_over():
            assert game.prompt() == "st.loc[ Which? st.cfg."
            game.apply(rng.choice(game.legal_actions()))
    else:
        game.playout(rng)
    return game


@pytest.mark.parametrize("through_api", [True, False], ids=["api", "playout"])
def test_texts_that_read_like_generated_code_are_said_as_written(through_api: bool) -> None:
    for seed in range(4):
        game = played(through_api, seed)
        history = game.history()
        assert len(history) == 36  # six turns of a choice and five lines
        assert history == expected(history)
        assert game.view(0)["globals"]["note"] == NOTE + "......"


def test_a_literal_is_the_same_value_with_nothing_for_a_pass_to_match() -> None:
    for value in ["st.loc[", "a\\b_c", "it's", "é\n@", ("a.b", 1, None, True), ["x_y"], (7,), ()]:
        source = literals.literal(value)
        assert eval(source) == value  # noqa: S307 (our own literal)
        if isinstance(value, str):
            assert not any(ch in source for ch in ".[@_")


ESCAPES = r"""
game "Escapes"
players 2..2
turn {
  choose k in 1..2
  say "a\\n b\\\" c\n d\\ e\"f \t"
}
end when turn_number > 1 { draw players }
"""


def test_a_texts_escapes_are_read_in_one_pass() -> None:
    """`\\\\n` is a backslash and the letter n (docs/language.md: `\\"`, `\\n`, `\\\\`);
    read as one replace after another, it was a backslash and a line break. Any other
    backslash stays as written."""
    game = rulelang.compile_source(ESCAPES).new_game(2, 1)
    game.apply(game.legal_actions()[0])
    assert game.history()[1] == 'a\\n b\\" c\n d\\ e"f \\t'


BRACES = """
game "Braces"
players 2..2
const shapes = ["{{", "}}", "a {{b", "c}} d"]
turn {
  choose k in 1..2
  say "{len(shapes)} {shapes[0]}{shapes[1]} {{{k}}}"
}
end when turn_number > 1 { draw players }
"""


def test_texts_with_a_brace_written_twice_stay_apart() -> None:
    """`{{` is a brace in a text: the lexer read it as a value's opening brace, and
    `["{{", "}}"]` became one text running from the first quote to the last."""
    game = rulelang.compile_source(BRACES).new_game(2, 1)
    game.apply(game.legal_actions()[1])
    assert game.history()[1] == "4 {} {2}"


# What a text may hold: letters, the characters of Python's and the generated code's
# syntax, a text's escapes and braces written twice, and characters beyond ASCII.
PIECES = [*"abcn .[]@_%$'#()+-*/é€😀~`!?;:,=<>|^&", "{{", "}}"]
PIECES += ["\\n", "\\t", '\\"', "\\\\", "\\\\n"]
FUZZED = """
game "f"
players 2..2
const words = ["W1", "W2"]
global { n: int = 0 }
def tag(x: int) = "W3{x}W1"
turn {
  choose k in 1..3 prompt "W2"
  let me = "{current}W1"
  say "W1{me}W2{k}W3"
  say "W2"
  say tag(k)
  say words[0] + words[1] + "{n}"
  set n += 1
}
end when n >= 2 { draw players }
"""
_ESCAPED = re.compile(r"\\(.)")


def value_of(written: str) -> str:
    """The text a rule file's text stands for (docs/language.md, "Texts")."""
    plain = written.replace("{{", "{").replace("}}", "}")
    return _ESCAPED.sub(lambda m: {"n": "\n", "\\": "\\", '"': '"'}.get(m[1], m[0]), plain)


@pytest.mark.parametrize("through_api", [True, False], ids=["api", "playout"])
def test_random_texts_are_said_as_written(through_api: bool) -> None:
    rng = random.Random(2026)
    for _ in range(100):
        written = ["".join(rng.choice(PIECES) for _ in range(rng.randint(0, 8))) for _ in "123"]
        source = FUZZED
        for i, w in enumerate(written, 1):
            source = source.replace(f"W{i}", w)
        game = rulelang.compile_source(source).new_game(2, 1)
        w1, w2, w3 = (value_of(w) for w in written)
        if through_api:
            while not game.is_over():
                assert game.prompt() == w2
                game.apply(game.legal_actions()[rng.randrange(3)])
        else:
            game.playout(random.Random(1))
        want: list[str] = []
        for turn, line in enumerate(game.history()[::5]):
            who, k = line.split(" chooses ")
            want += [line, f"{w1}{who}{w1}{w2}{k}{w3}", w2, f"{w3}{k}{w1}", f"{w1}{w2}{turn}"]
        assert game.history() == want, written

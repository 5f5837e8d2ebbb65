"""What the grammar accepts at a place: the keywords a completion may offer there.

Lark's interactive parser, fed the text before the cursor, says which terminals may
come next; the keywords among them are offered, and names when NAME is one."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from lark import Lark
from lark.exceptions import LarkError

# the parser the checker reads with (private to the syntax package: reused, not rebuilt)
from rulelang.syntax.parser import _parser


def lark() -> Lark:
    return _parser()


@lru_cache(maxsize=1)
def keyword_terminals() -> dict[str, str]:
    """Terminal name -> keyword, for every terminal that is a fixed word."""
    return {
        str(t.name): str(t.pattern.value)
        for t in lark().terminals
        if t.pattern.type == "str" and str(t.pattern.value).isalpha()
    }


def keywords() -> frozenset[str]:
    return frozenset(keyword_terminals().values())


def _accepted(text: str) -> set[str] | None:
    """The terminals that may follow `text`, or None if `text` cannot be read."""
    try:
        parser: Any = lark().parse_interactive(text, start="start")
        parser.exhaust_lexer()
        return set(parser.accepts())
    except (LarkError, RecursionError):
        return None


def expected(before: str) -> tuple[set[str], bool] | None:
    """The keywords that may come after `before` (the text up to the word being typed)
    and whether a name may; None if that cannot be told. If the whole text cannot be
    read (an error earlier in the file), the text from the last line that starts a
    declaration (no indentation) is tried instead."""
    accepted = _accepted(before)
    if accepted is None:
        lines = before.split("\n")
        for n in range(len(lines) - 1, -1, -1):
            if lines[n][:1].isalpha():
                accepted = _accepted("\n".join(lines[n:]))
                break
    if accepted is None:
        return None
    words = keyword_terminals()
    return {words[t] for t in accepted if t in words}, "NAME" in accepted

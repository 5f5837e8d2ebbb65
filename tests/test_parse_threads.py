"""The code generator's passes parse Python one thread at a time: CPython 3.11 counts
the depth of the AST objects it builds in one counter for all threads, and two
threads parsing at once may raise "SystemError: AST constructor recursion depth
mismatch" (python/cpython#106905). A Dask cluster's threads compile the rules side by
side (tests/test_simulate_dask.py met it once in a fresh clone's suite)."""

from __future__ import annotations

import ast
import random
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import rulelang
from rulelang.runtime import lines

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["heimlich.rules", "labyrinth.rules", "saboteur.rules"]


def test_every_parse_of_the_code_generator_holds_the_lock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for game in GAMES:  # the rule files' parser built first: Lark's grammar is Lark's
        rulelang.compile_file(ROOT / "rulesets" / game)
    parses: list[bool] = []
    plain = ast.parse

    def watched(*args: object, **kwargs: object) -> object:
        if threading.current_thread() is threading.main_thread():
            parses.append(lines._PARSING.locked())
        return plain(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(ast, "parse", watched)
    for game in GAMES:
        rulelang.compile_file(ROOT / "rulesets" / game)
    assert len(parses) > 100 and all(parses), (len(parses), parses.count(False))


def test_rules_compiled_in_threads_at_once_are_compiled_alike() -> None:
    path = ROOT / "rulesets" / "heimlich.rules"
    alone = rulelang.compile_file(path).new_game(4, 7).playout(random.Random(3))
    with ThreadPoolExecutor(4) as pool:
        done = list(pool.map(lambda _: rulelang.compile_file(path), range(8)))
    for rules in done:
        assert rules.new_game(4, 7).playout(random.Random(3)) == alone


def test_a_parse_whose_counter_was_upset_is_tried_once_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Code run in the middle of a parse (a gc callback formatting a traceback, which
    Python 3.11 does by parsing its lines) upsets the counter of that parse only: the
    next resets it. Any other SystemError, or a second mismatch, is raised."""
    plain, upsets = ast.parse, [1]

    def upset(*args: object, **kwargs: object) -> object:
        if upsets:
            upsets.pop()
            raise SystemError("AST constructor recursion depth mismatch (before=1, after=2)")
        return plain(*args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr(ast, "parse", upset)
    assert ast.unparse(lines.parse("x = 1")) == "x = 1"
    upsets[:] = [1, 1]
    with pytest.raises(SystemError, match="mismatch"):
        lines.parse_expr("y")

    def broken(*args: object, **kwargs: object) -> object:
        raise SystemError("something else")

    monkeypatch.setattr(ast, "parse", broken)
    with pytest.raises(SystemError, match="something else"):
        lines.parse("x = 1")

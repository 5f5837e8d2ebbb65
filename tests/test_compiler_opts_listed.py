"""List comprehensions compiled as a loop in a function of their own (issue 21, item 1;
runtime/loops.py, switch `loops.LISTED`): no function object made, called and freed
per evaluation.

Shown firing on the compiled code (no list comprehension left in the def, a `_loop`
function called that appends), staying off where the comprehension holds another or a
name it binds with `:=` is read elsewhere, appending what the comprehension listed in
its order, raising what it raised on the same rule line, and playing the games of the
code without it."""

from __future__ import annotations

import random
from pathlib import Path
from types import CodeType

import pytest
from compile_support import compiled_once
from test_compiler_opts_loops import RULES, outcome

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, loops

ROOT = Path(__file__).resolve().parent.parent
LISTS = RULES.replace(
    "def risky()",
    "def highs(q: player) = [c.value for c in hand[q] where c.value > 1]\n"
    "def firsts() = [first(hand[p]).value for p in players]\n"
    "def risky()",
).replace("if rich(current) or", "if len(highs(current)) > 1 or")


PLAIN = LISTS.replace("RISKY", "true")


def compiled(on: bool, text: str | Path = PLAIN) -> Ruleset:
    was = loops.LISTED, codegen.LAZY
    loops.LISTED, codegen.LAZY = on, False
    try:
        if isinstance(text, Path):
            return compiled_once(text)
        return rulelang.compile_source(text, "t.rules")
    finally:
        loops.LISTED, codegen.LAZY = was


def listcomps(code: CodeType) -> list[str]:
    """The names of the list comprehensions a function's code holds, at any depth."""
    found = []
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found += [const.co_name] if const.co_name == "<listcomp>" else []
            found += listcomps(const)
    return found


def def_code(rules: Ruleset, name: str) -> CodeType:
    return rules.code.ops[0].__globals__[f"_d_{name}"].__code__  # type: ignore[no-any-return]


def test_list_comprehensions_are_loops() -> None:
    on, off = compiled(True), compiled(False)
    for name in ("highs", "firsts"):
        assert listcomps(def_code(off, name)) == ["<listcomp>"]
        assert listcomps(def_code(on, name)) == []
        called = [n for n in def_code(on, name).co_names if n.startswith("_loop")]
        assert called and "append" in rulelang_global(on, called[0]).__code__.co_names


def rulelang_global(rules: Ruleset, name: str) -> object:
    return rules.code.ops[0].__globals__[name]


def test_left_as_written_holding_another_comprehension() -> None:
    """`[p for p in players where any(..)]`: without loops.NESTED the generator inside
    keeps it as it is (tests/test_compiler_opts_nested.py has it on)."""
    was, loops.NESTED = loops.NESTED, False
    try:
        assert listcomps(def_code(compiled(True), "nested")) == ["<listcomp>"]
    finally:
        loops.NESTED = was


def test_a_loop_function_lists_as_the_comprehension() -> None:
    made: list[tuple[list[str], list[str]]] = []

    def make(params: list[str], body: list[str]) -> str:
        made.append((params, body))
        return "_loop1"

    line = "return tuple([(x[v] + 1) for v in z[q] if (v != 1)])  # @4"
    out = loops.looped([line], {"x", "z", "q"}, make)
    assert out == ["return tuple(_loop1(q, x, z))  # @4"]
    assert made == [
        (
            ["q", "x", "z"],
            [
                "_made = []",
                "for v in z[q]:  # @4",
                "    if (v != 1):",
                "        _made.append(x[v] + 1)",
                "return _made",
            ],
        )
    ]
    for params, body in made:  # the function gives what the comprehension gave
        scope: dict[str, object] = {}
        exec(f"def f({', '.join(params)}):\n" + "\n".join("    " + b for b in body), scope)  # noqa: S102
        x, z = {0: 5, 1: 6, 2: 7}, {"a": (0, 1, 2)}
        assert scope["f"]("a", x, z) == [(x[v] + 1) for v in z["a"] if (v != 1)]  # type: ignore[operator]


def test_a_name_bound_with_walrus_and_read_elsewhere_stays() -> None:
    """`:=` in a comprehension binds the function's own name: moved into a function
    of its own only if nothing else in the function reads it."""
    made: list[object] = []

    def make(params: list[str], body: list[str]) -> str:
        made.append(body)
        return "_loop1"

    private = ["return [(_t1[0] if (_t1 := x[v]) else 0) for v in z]"]
    assert loops.looped(private, {"x", "z", "_t1"}, make) == ["return _loop1(x, z)"]
    shared = ["y = [(k := x[v]) for v in z]", "return k"]
    assert loops.looped(shared, {"x", "z", "k", "y"}, make) == shared
    # a temp's name (`_t1`) is looked for on its own line with loops.TEMPS_BY_LINE
    # (tests/test_compiler_opts_nested.py); without, as any other name
    was, loops.TEMPS_BY_LINE = loops.TEMPS_BY_LINE, False
    try:
        temp = [line.replace("k", "_t1") for line in shared]
        assert loops.looped(temp, {"x", "z", "_t1", "y"}, make) == temp
    finally:
        loops.TEMPS_BY_LINE = was
    assert len(made) == 1


def test_the_same_games_and_errors() -> None:
    """`firsts()` reads `first(hand[p])`, R004 for an empty hand: the same games, the
    same errors on the same rule line, with and without it."""
    text = LISTS.replace("deal 2", "deal 1").replace(
        "if any(p.score > 2 for p in players where p != current) and RISKY",
        "if turn_number > 1 and sum(firsts()) > 5",
    )
    on, off = compiled(True, text), compiled(False, text)
    assert listcomps(def_code(on, "firsts")) == [] != listcomps(def_code(off, "firsts"))
    errors = 0
    for players in (2, 3, 4):
        for seed in range(5):
            got = outcome(on, players, seed)
            assert got == outcome(off, players, seed)
            errors += isinstance(got, tuple) and got[0] == "R004"
    assert errors > 0


@pytest.mark.parametrize("file", ["saboteur.rules", "labyrinth.rules"])
def test_shipped_games_play_the_same(file: str) -> None:
    on, off = compiled(True, ROOT / "rulesets" / file), compiled(False, ROOT / "rulesets" / file)
    assert any(n.startswith("_loop") for n in on.code.ops[0].__globals__)
    for seed in (1, 2):
        a, b = on.new_game(4, seed), off.new_game(4, seed)
        a.playout(random.Random(seed), max_decisions=4000)
        b.playout(random.Random(seed), max_decisions=4000)
        assert (a.record(), a.results()) == (b.record(), b.results())

"""`if any(E for s in reached(b, x))` run over the network's kept set as it is first,
over the sorted cells only when an item decides or raises (issue 21, item 1;
runtime/unordered.py, switch `unordered.UNORDERED`).

Shown firing on Saboteur's gold test, staying off where the test calls a def, giving
the answer and raising the error (at the first item in order) of the plain loop for
every order of a set, and playing the games of the code without it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, unordered

ROOT = Path(__file__).resolve().parent.parent
SOURCE = "tuple(sorted(_t1.network(st, c)[0]))"


def compiled(on: bool) -> Ruleset:
    was = unordered.UNORDERED, codegen.LAZY
    unordered.UNORDERED, codegen.LAZY = on, False
    try:
        return rulelang.compile_file(ROOT / "rulesets" / "saboteur.rules")
    finally:
        unordered.UNORDERED, codegen.LAZY = was


def test_fires_on_a_test_over_reached_and_stays_off_where_it_must() -> None:
    assert unordered.first_pass(SOURCE, "(k[x] == 1)") == "_t1.network(st, c)[0]"
    assert unordered.first_pass(SOURCE, "(_d_rich(st, x))") is None  # a def may count steps
    assert unordered.first_pass("tuple(sorted(a))", "(k[x] == 1)") is None  # not `reached`
    assert unordered.first_pass("cfg.players", "(k[x] == 1)") is None
    on = "\n".join(compiled(True).code.source)
    off = "\n".join(compiled(False).code.source)
    assert "for _v" in on and "_cells_v" in on  # the gold test of a path card laid
    assert "_cells_v" not in off


def run(lines: list[str], cells: frozenset[int], test: dict[int, object]) -> object:
    """What the lines give (`_found`) or raise, `decides` reading `test` per item: an
    item mapped to an exception raises it."""

    def decide(x: int) -> object:
        got = test.get(x, False)
        if isinstance(got, Exception):
            raise got
        return got

    body = "\n".join("    " + line for line in [*lines[:-1], "return _found"])
    scope: dict[str, object] = {}
    exec(f"def f(cells, decide):\n{body}", scope)  # noqa: S102
    try:
        return scope["f"](cells, decide)  # type: ignore[operator]
    except LookupError as err:
        return ("raised", err.args)


@pytest.mark.parametrize("found", [True, False])
def test_the_answer_and_the_error_of_the_loop_in_order(found: bool) -> None:
    """Every set of up to four of these cells, each cell deciding, raising or not,
    whatever order the set iterates in: the plain loop's answer or first error."""
    cells = (3, 17, 40, 1025)
    for size in range(5):
        for chosen in itertools.combinations(cells, size):
            for kinds in itertools.product(("no", "yes", "raise"), repeat=size):
                test: dict[int, object] = {}
                for c, kind in zip(chosen, kinds, strict=True):
                    test[c] = LookupError(c) if kind == "raise" else (kind == "yes") == found
                decides = "decide(x)" if found else "not decide(x)"
                fast = unordered.unordered_test("x", "cells", f"({decides})", found)
                plain = [
                    f"_found = {not found}",
                    "for x in tuple(sorted(cells)):",
                    f"    if ({decides}):",
                    f"        _found = {found}",
                    "        break",
                    "if _found:",
                ]
                s = frozenset(chosen)
                assert run(fast, s, test) == run(plain, s, test), (chosen, kinds)


@pytest.mark.parametrize("players", [3, 5])
def test_the_same_games(players: int) -> None:
    on, off = compiled(True), compiled(False)
    for seed in (1, 2, 3):
        a, b = on.new_game(players, seed), off.new_game(players, seed)
        a.playout(random.Random(seed))
        b.playout(random.Random(seed))
        assert (a.record(), a.results()) == (b.record(), b.results())

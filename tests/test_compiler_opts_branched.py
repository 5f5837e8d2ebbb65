"""The options of a choice among a few constants, filtered by its requires, as one tuple
literal per outcome of the tests (issue 21, item 1; runtime/codegen.py `branched`,
switch `codegen.BRANCHED_OPTIONS`): `(('play', 'discard',) if T else ('discard',))`
instead of `(('play',) if T else ()) + ('discard',)`.

Shown giving the same tuples with the tests run in the same order, once each, firing
on a choice of two tested values, staying off past BRANCHED_MAX, and playing the
games of the code without it (the options' order and reprs, which the search bots
seed their decisions from, included)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from compile_support import compiled_once

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen

ROOT = Path(__file__).resolve().parent.parent
TEXT = """game "Dials"
players 2..3
card chip count 12 {
  value: int = index % 4
}
zone deck: chip visible to none
zone hand: chip per player visible to owner
zone pile: chip visible to all
setup {
  add pieces(chip) to deck
  shuffle deck
  deal 3 from deck to hand
}
turn {
  choose c in hand[current] prompt "which"
  choose two in [0, 1] require two != c.value else "not that" prompt "two"
  choose four in [0, 1, 2, 3] require four != c.value else "not that" prompt "four"
  move c from hand[current] to pile
  if len(deck) > 0 {
    move last(deck) from deck to hand[current]
  }
}
end when len(pile) >= 9 {
  win [current]
}
"""


def compiled(on: bool, text: str | Path = TEXT) -> Ruleset:
    was = codegen.BRANCHED_OPTIONS, codegen.LAZY
    codegen.BRANCHED_OPTIONS, codegen.LAZY = on, False
    try:
        if isinstance(text, Path):
            return compiled_once(text)
        return rulelang.compile_source(text, "t.rules")
    finally:
        codegen.BRANCHED_OPTIONS, codegen.LAZY = was


def test_the_same_tuples_and_tests_in_the_same_order() -> None:
    values = ["'a'", "'b'", "7"]
    for tested in itertools.product([True, False], repeat=3):
        conds = [f"t({i})" if on else "" for i, on in enumerate(tested)]
        pairs = list(zip(values, conds, strict=True))
        parts = [f"(({v},) if {c} else ())" if c else f"({v},)" for v, c in pairs]
        added = "(" + " + ".join(parts) + ")"
        written = codegen.branched(pairs)
        for answers in itertools.product([True, False], repeat=3):
            runs: list[list[int]] = [[], []]
            for run, source in zip(runs, (added, written), strict=True):

                def t(i: int, run: list[int] = run, answers: tuple[bool, ...] = answers) -> bool:
                    run.append(i)
                    return answers[i]

                run.append(eval(source, {"t": t}))  # noqa: S307
            assert runs[0] == runs[1], (tested, answers)
        assert " + " not in written


def options_lines(rules: Ruleset) -> list[str]:
    """The lines that work out the options of the two choices among numbers."""
    lines = "\n".join(rules.code.source).split("\n")
    return sorted({line.strip() for line in lines if "opts = (" in line})


def test_fires_on_two_tested_values_and_stays_off_past_the_bound() -> None:
    lines = options_lines(compiled(True))
    two = [line for line in lines if "((3,) if " not in line]
    four = [line for line in lines if "((3,) if " in line]  # four tested values
    assert two and all("((0, 1,) if " in line and " + " not in line for line in two)
    assert four and all(" + " in line for line in four)  # added as before (BRANCHED_MAX)
    assert all(" + " in line for line in options_lines(compiled(False)))
    saboteur = "\n".join(compiled(True, ROOT / "rulesets" / "saboteur.rules").code.source)
    assert "('play', 'discard',) if " in saboteur and "('play',) if " not in saboteur


@pytest.mark.parametrize("players", [2, 3])
def test_the_same_games(players: int) -> None:
    on, off = compiled(True), compiled(False)
    for seed in range(5):
        a, b = on.new_game(players, seed), off.new_game(players, seed)
        a.playout(random.Random(seed))
        b.playout(random.Random(seed))
        assert (a.record(), a.results()) == (b.record(), b.results())
    on, off = (compiled(x, ROOT / "rulesets" / "saboteur.rules") for x in (True, False))
    a, b = on.new_game(players + 2, 1), off.new_game(players + 2, 1)
    a.playout(random.Random(1))
    b.playout(random.Random(1))
    assert (a.record(), a.results()) == (b.record(), b.results())

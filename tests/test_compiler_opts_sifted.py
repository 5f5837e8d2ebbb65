"""List comprehensions that pick items by a fixed attribute of their kind, filtered in C
(issue 21, item 1; runtime/sifted.py, switch `sifted.SIFTED`): `[c for c in pile where
c.color == red]` is `tuple(filter(passing.__contains__, pile))`, the passing items
worked out once per column; `[c for c in xs]` is `tuple(xs)`.

Shown firing, staying off where the test reads more than one column, a column a rule
changes, a value of the turn, or might raise (`<`), and in rules that call `known`;
an edited column worked out again; and the same games with the switch off, Saboteur's
included (its round's reset picks the start, the goals and the deck this way)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from test_compiler_opts_locals import played

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, sifted

ROOT = Path(__file__).resolve().parent.parent

RULES = """game "t"
players 2..3
enum color { red, blue, green }
const colors = [color.red, color.blue, color.green, color.red, color.blue, color.green,
                color.red, color.blue, color.green]
card piece count 9 {
  value: int = index
  color: color = colors[index]
  mark: int = 0
}
zone pile: piece visible to all
zone hand: piece per player visible to all
global {
  taken: int = 0
}
setup {
  add pieces(piece) to pile
  shuffle pile
}
turn {
  let reds = [c for c in pile where c.color == red]
  let others = [c for c in pile where c.color not in [red, green] or not (c.color != blue)]
  let same = [c for c in hand[current]]
  let low = [c for c in pile where c.value < 4]
  let two = [c for c in pile where c.color == red and c.value == 3]
  let marked = [c for c in pile where c.mark == 0]
  let listed = [c for c in reds where c.color == red]
  choose c in pile require len(others) == 0 or c.color == others[0].color or len(reds) < 2
    else "no" prompt "Which?"
  move c from pile to hand[current]
  set c.mark = len(same) + len(low) + len(two) + len(marked) + len(listed)
  set taken += len(reds)
}
end when len(pile) == 0 {
  win [p for p in players where len(hand[p]) == max(len(hand[q]) for q in players)]
}
"""
SIFT = re.compile(r"_sift\d+\.items\((?:st\.)?cols_?\[?(\d+)\]?, ")


def compiled(on: bool, text: str = RULES) -> Ruleset:
    was = sifted.SIFTED, codegen.LAZY
    sifted.SIFTED, codegen.LAZY = on, False
    try:
        return rulelang.compile_source(text, "t.rules")
    finally:
        sifted.SIFTED, codegen.LAZY = was


def source(rules: Ruleset) -> str:
    return "\n".join(rules.code.source)


def test_fires_for_a_fixed_attribute_and_a_copy() -> None:
    on, off = source(compiled(True)), source(compiled(False))
    color = next(a.slot for a in compiled(True).program.columns if a.name == "color")
    # `reds` and `others`, each once in the turn's op (and in its chained copy, if any)
    assert {int(m.group(1)) for m in SIFT.finditer(on)} == {color}
    assert len(set(re.findall(r"_sift\d+", on))) == 2
    assert "_sift" not in off
    assert re.search(r"= tuple\((st\.)?zones\[1 \+ (st\.)?current_?\]\)", on)  # `same`
    assert not re.search(r"= tuple\((st\.)?zones\[1 \+ (st\.)?current_?\]\)", off)


def test_stays_off_where_the_test_reads_more_or_may_raise() -> None:
    on = source(compiled(True))
    # `c.value < 4` (may raise for another value), two columns, `mark` (a rule sets it)
    # and the choice's test (reads the turn's `others`) are tested item by item
    for read in (r"\] < 4\)", r"\] == 3\)", r"\] == 0\)", r"\] == cols_?\[?1\]?\["):
        assert re.search(rf"for _v\d+ in zones\[0\] if .*{read}", on), read
    # over a list, which may hold `none` (its attribute raises), not a zone
    assert re.search(r"for _v\d+ in (\(?_t\d+ := )?loc\[\d+\]\)? if .*== 'red'", on)


def test_off_where_known_evaluates() -> None:
    # in rules that call `known`, what `known` works out keeps its guards (an item's
    # attribute is read through seen.py there); the turn's own lines, never run while
    # `known` is worked out, do not
    text = (
        RULES.replace(
            "set taken += len(reds)",
            'set taken += len(reds)\n  say "{known(current, len(reds_in(pile)))}"',
        )
        + "def reds_in(z: list(piece)) = [c for c in z where c.color == red]\n"
    )
    on = source(compiled(True, text))
    assert len(set(re.findall(r"_sift\d+", on))) == 2  # `reds`, `others`
    asked = [line for line in on.split("\n") if "_kn.known(" in line]
    assert asked and all("_sift" not in line and "for _v" in line for line in asked)


def test_the_items_passing_are_worked_out_per_column() -> None:
    sift = sifted.Sift(lambda v: v == "red")
    col = ["red", "blue", "red", "green"]
    assert sift.items(col, (3, 2, 1, 0, 2)) == (2, 0, 2)  # the source's order, as is
    kept = sift.kept
    assert sift.items(col, ()) == () and sift.kept is kept  # the same column: kept
    edited = list(col)
    edited[1] = "red"  # an edit copies a column before writing it
    assert sift.items(edited, (0, 1, 2, 3)) == (0, 1, 2)
    assert sift.kept[0] is edited


def test_an_edited_column_is_read_anew() -> None:
    def taken(on: bool, edited: bool) -> tuple[object, ...]:
        rules = compiled(on)
        game = rules.new_game(2, 1)  # paused at the first choice: `reds` worked out
        if edited:  # every blue piece red: the second turn's `reds` are more
            for c in range(9):
                if game.state.cols[_column(rules, "color")][c] == "blue":
                    game.edit().set("color", "red", of=c, kind="piece")
        game.playout(random.Random(1), max_decisions=2)
        return tuple(game.state.vars), tuple(game.state.zones)

    assert taken(True, True) == taken(False, True)
    assert taken(True, True) != taken(True, False)


def _column(rules: Ruleset, name: str) -> int:
    return next(a.slot for a in rules.program.columns if a.name == name)


@pytest.mark.parametrize("limit", [1, 4, 3000])
@pytest.mark.parametrize("players", [2, 3])
def test_the_same_games(players: int, limit: int) -> None:
    on, off = compiled(True), compiled(False)
    for seed in (1, 2, 3):
        assert played(on, players, seed, limit) == played(off, players, seed, limit)


def test_a_tile_game_plays_the_same_games() -> None:
    text = (ROOT / "rulesets" / "saboteur.rules").read_text()
    path = str(ROOT / "rulesets" / "saboteur.rules")
    on, off = (compiled_file(o, path) for o in (True, False))
    assert len(set(re.findall(r"_sift\d+", source(on)))) >= 3  # start, goals, deck
    assert "_sift" not in source(off) and "[start, gold, stone]" in text
    for seed in (1, 2):
        assert played(on, 3, seed, 60) == played(off, 3, seed, 60)
        assert played(on, 4, seed, 3000) == played(off, 4, seed, 3000)


def compiled_file(on: bool, path: str) -> Ruleset:
    was = sifted.SIFTED, codegen.LAZY
    sifted.SIFTED, codegen.LAZY = on, False
    try:
        return rulelang.compile_file(path)
    finally:
        sifted.SIFTED, codegen.LAZY = was

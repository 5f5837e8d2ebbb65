"""Every tile of a board given back by one `add` (issue 21, item 1; runtime/gathered.py,
switch `gathered.GATHERED`): `for s in placed(maze) { add tile(maze, s) to box }` is
compiled as `add [tile(maze, s) for s in placed(maze)] to box`, whose tiles leave the
board in one call. Shown firing in Saboteur's round's reset, staying off for another
body, and playing the same games (records, views, results) with the switch off."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_compiler_opts_locals import played

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, gathered

SABOTEUR = Path(__file__).resolve().parent.parent / "rulesets" / "saboteur.rules"
LOOP = "  for s in placed(maze) {\n    add tile(maze, s) to box\n  }\n"
ONE_ADD = re.compile(r"_h\.add\(st, tuple\(.*_seq\d+.*\), 0, _z\d+\)")


def compiled(on: bool, text: str) -> Ruleset:
    was = gathered.GATHERED, codegen.LAZY
    gathered.GATHERED, codegen.LAZY = on, False
    try:
        return rulelang.compile_source(text, str(SABOTEUR))
    finally:
        gathered.GATHERED, codegen.LAZY = was


def source(rules: Ruleset) -> str:
    return "\n".join(rules.code.source)


def test_fires_for_every_tile_given_back() -> None:
    text = SABOTEUR.read_text()
    assert LOOP in text
    on, off = source(compiled(True, text)), source(compiled(False, text))
    assert ONE_ADD.search(on) and not ONE_ADD.search(off)
    loop = re.compile(r"for _v(\d+) in _seq\1:\n\s+_h\.add\(st, \(")
    assert loop.search(off) and not loop.search(on)


@pytest.mark.parametrize(
    "body",
    [
        "    add tile(maze, start()) to box\n",  # not the tile at the loop's cell
        '    add tile(maze, s) to box\n    say "{s}"\n',  # more than the `add`
    ],
)
def test_stays_off_for_another_body(body: str) -> None:
    text = SABOTEUR.read_text().replace(LOOP, "  for s in placed(maze) {\n" + body + "  }\n")
    assert not ONE_ADD.search(source(compiled(True, text)))


def test_the_same_games() -> None:
    text = SABOTEUR.read_text()
    on, off = compiled(True, text), compiled(False, text)
    for seed in (1, 2):
        assert played(on, 3, seed, 3000) == played(off, 3, seed, 3000)
        assert played(on, 5, seed, 200) == played(off, 5, seed, 200)

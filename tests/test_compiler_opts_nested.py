"""A generator or comprehension holding one of its own, compiled as loops in functions
of their own (issue 21, item 1; runtime/loops.py, switch `loops.NESTED`), and the two
things that let a def written in place give loops.py such code: the def's own `:=`
names made anew at each place (exprgen.py, switch `exprgen.FRESH_TEMPS`), and such a
name looked for in its own statement alone (loops.py, switch `loops.TEMPS_BY_LINE`).

`any(c.marks[0] not in [d.marks[0] for d in front[p]] for p in players)` was left a
generator (and the list inside it a comprehension): a function object, a generator
and a frame made at each evaluation. Shown firing (no generator or comprehension left
at any depth), staying off with the switches off and where a `:=` name is read
outside the loop, and playing the games of the code without them, errors included."""

from __future__ import annotations

import random
from pathlib import Path
from types import CodeType

import pytest
from test_compiler_opts_listed import listcomps
from test_compiler_opts_loops import generators, outcome

import rulelang
from rulelang import Ruleset
from rulelang.runtime import codegen, exprgen, loops

ROOT = Path(__file__).resolve().parent.parent
RULES = """game "Nested"
players 2..4
card chip count 12 {
  value: int = index % 4
  marks: list(int) = [1, 2]
}
zone deck: chip visible to none
zone hand: chip per player visible to owner
zone front: chip per player visible to all
setup {
  add pieces(chip) to deck
  shuffle deck
  deal 2 from deck to hand
}
def marked(p: player) = [c.marks[0] for c in front[p]]
def open_to(c: chip, p: player) = c.marks[0] not in marked(p)
def nested(c: chip) = any(c.marks[0] not in [d.marks[0] for d in front[p]] for p in players)
def both(c: chip) = open_to(c, current) and any(open_to(c, p) for p in players)
turn {
  choose c in hand[current] prompt "which"
  if nested(c) and both(c) and FIRST {
    move c from hand[current] to front[current]
  } else {
    move c from hand[current] to deck
  }
  if len(deck) > 0 {
    move last(deck) from deck to hand[current]
  }
}
end when turn_number > 30 { win [current] }
"""
PLAIN = RULES.replace("FIRST", "true")
SWITCHES = ("NESTED", "TEMPS_BY_LINE")


def compiled(
    on: bool, text: str | Path = PLAIN, inline_max: int | None = None, fresh: bool | None = None
) -> Ruleset:
    """Compiled with the three switches on or off (FRESH_TEMPS as `fresh` if given), and
    given, a longer INLINE_MAX."""
    was = (*(getattr(loops, s) for s in SWITCHES), exprgen.FRESH_TEMPS, exprgen.INLINE_MAX)
    lazy = codegen.LAZY
    for s in SWITCHES:
        setattr(loops, s, on)
    exprgen.FRESH_TEMPS, codegen.LAZY = on if fresh is None else fresh, False
    exprgen.INLINE_MAX = inline_max or exprgen.INLINE_MAX
    try:
        if isinstance(text, Path):
            return rulelang.compile_file(text)
        return rulelang.compile_source(text, "t.rules")
    finally:
        for s, v in zip(SWITCHES, was, strict=False):
            setattr(loops, s, v)
        exprgen.FRESH_TEMPS, exprgen.INLINE_MAX = was[-2], was[-1]
        codegen.LAZY = lazy


def made(rules: Ruleset, code: CodeType, seen: set[str] | None = None) -> list[str]:
    """The generators and comprehensions of a function and of the loop functions it
    calls, at any depth."""
    seen = set() if seen is None else seen
    found = generators(code) + listcomps(code)
    for name in code.co_names:
        fn = rules.code.ops[0].__globals__.get(name)
        if name.startswith("_loop") and name not in seen and hasattr(fn, "__code__"):
            seen.add(name)
            found += made(rules, fn.__code__, seen)  # type: ignore[union-attr]
    return found


def def_code(rules: Ruleset, name: str) -> CodeType:
    return rules.code.ops[0].__globals__[f"_d_{name}"].__code__  # type: ignore[no-any-return]


def test_fires_on_a_generator_holding_a_comprehension() -> None:
    on, off = compiled(True), compiled(False)
    assert sorted(made(off, def_code(off, "nested"))) == ["<genexpr>", "<listcomp>"]
    assert made(on, def_code(on, "nested")) == []
    assert any(n.startswith("_loop") for n in def_code(on, "nested").co_names)


def test_a_def_written_in_place_twice_binds_names_of_its_own() -> None:
    """`open_to` written in place twice in `both` (a longer INLINE_MAX), once outside
    the generator: each copy's `:=` names its own (FRESH_TEMPS), so that the generator
    is a loop; without, the copy outside reads the generator's names: it stays."""
    on = compiled(True, inline_max=400)
    assert "_d_open_to" not in def_code(on, "both").co_names  # written in place
    assert made(on, def_code(on, "both")) == []
    # NAMED_READS off: its unnamed copies of a body for comprehensions would hide it
    named, exprgen.NAMED_READS = exprgen.NAMED_READS, False
    try:
        alone = compiled(True, inline_max=400)
        off = compiled(True, inline_max=400, fresh=False)
    finally:
        exprgen.NAMED_READS = named
    assert made(alone, def_code(alone, "both")) == []
    assert "<genexpr>" in made(off, def_code(off, "both"))


def test_a_temp_is_looked_for_in_its_statement() -> None:
    """A `_t` name of ExprGen.temp bound inside the generator and standing on another
    line (a copy of the statement) is the loop's own with TEMPS_BY_LINE; any other
    name, or a temp read outside the generator on its own line, keeps it as written."""
    names: list[str] = []

    def make(params: list[str], body: list[str]) -> str:
        names.append(f"_loop{len(names) + 1}")
        return names[-1]

    line = "x = any((_t7[0] if (_t7 := c[v]) else 0) for v in z)"
    copied = [line, line.replace("x =", "y =")]
    assert loops.looped(copied, {"c", "z", "x", "y", "_t7"}, make) == [
        "x = _loop1(c, z)",
        "y = _loop2(c, z)",
    ]
    was, loops.TEMPS_BY_LINE = loops.TEMPS_BY_LINE, False
    try:
        assert loops.looped(copied, {"c", "z", "x", "y", "_t7"}, make) == copied
    finally:
        loops.TEMPS_BY_LINE = was
    outside = ["x = any((_t7 := c[v]) for v in z) and _t7"]
    assert loops.looped(outside, {"c", "z", "x", "_t7"}, make) == outside
    named = [line.replace("_t7", "k"), line.replace("_t7", "k").replace("x =", "y =")]
    assert loops.looped(named, {"c", "z", "x", "y", "k"}, make) == named


def test_a_lambda_inside_stays() -> None:
    def make(params: list[str], body: list[str]) -> str:
        raise AssertionError("no loop function for it")

    line = ["x = any(f(lambda: v) for v in z)"]
    assert loops.looped(line, {"f", "z", "x"}, make) == line


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_games(players: int) -> None:
    on, off = compiled(True), compiled(False)
    longer = compiled(True, inline_max=400)
    for seed in range(4):
        want = outcome(off, players, seed)
        assert outcome(on, players, seed) == want == outcome(longer, players, seed)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("FIRST", "any(first(front[p]).value >= 0 for p in players)"),
        ("for c in front[p]]", "for c in front[p]] + [first(front[p]).value]"),
    ],
)
def test_the_same_errors_on_the_same_line(old: str, new: str) -> None:
    """`first(front[p]).value` raises R004 for an empty front unless an earlier
    player answered: the nested loops stop and raise where the generator did, on the
    same rule line, a def written in place (`marked`, read in `open_to`) too."""
    text = RULES.replace(old, new).replace("FIRST", "true")
    on, off = compiled(True, text), compiled(False, text)
    longer = compiled(True, text, inline_max=1200)
    errors = 0
    for seed in range(8):
        got = outcome(on, 3, seed)
        assert got == outcome(off, 3, seed) == outcome(longer, 3, seed)
        errors += isinstance(got, tuple) and got[0] == "R004"
    assert errors > 0


def test_a_tile_game_the_same() -> None:
    path = ROOT / "rulesets" / "saboteur.rules"
    on, off = compiled(True, path), compiled(False, path)
    for players, seed in ((3, 1), (5, 2), (10, 3)):
        a, b = on.new_game(players, seed), off.new_game(players, seed)
        a.playout(random.Random(seed))
        b.playout(random.Random(seed))
        assert (a.record(), a.results()) == (b.record(), b.results())

"""Shortcuts of the code generator that must not change what the rules mean: short defs
written in place of their calls, list reads checked inline, `[xs[k] for k in a..b]`
as a slice, defs with arguments worked out once per table, and a bot's def calls that
do not name the option worked out once per choice (runtime/exprgen.py, bots.py).
Each gives the same values and the same errors, at the same places, as the plain code.
"""

from __future__ import annotations

import pytest

import rulelang
from rulelang import Game, Limits, Ruleset, Said
from rulelang.diagnostics import GameRuntimeError


def rules_of(body: str, limits: Limits | None = None) -> Ruleset:
    src = f'game "t"\nplayers 2..2\n{body}'
    if limits is None:
        return rulelang.compile_source(src, "t.rules")
    return rulelang.compile_source(src, "t.rules", limits=limits)


def said(g: Game) -> list[str]:
    return [e.text for e in g.events() if isinstance(e, Said)]


def said_after(rules: Ruleset, *moves: str) -> list[str]:
    g = rules.new_game(2, seed=1)
    for m in moves:
        g.apply(m)
    return said(g)


def fails(rules: Ruleset, *moves: str) -> GameRuntimeError:
    with pytest.raises(GameRuntimeError) as info:
        said_after(rules, *moves)
    return info.value


SLICES = """
board b = grid(0, 3, 0, 3)
def rim(c: node(b)) = any(neighbour(b, c, d) == none for d in 0..3)
def key(x: int, y: int) = "{x},{y}"
def twice(v: int) = [v + k for k in 0..1]
def pick2(xs: list(int), i: int) = xs[i] + xs[i]
turn {
  choose n in -1..4
  let xs = [10, 20, 30, 40]
  say "{[xs[k] for k in 0..len(xs) - 2]} {[xs[k] for k in 2..1]} {[xs[k] for k in 1..n]}"
  let rims = count(c for c in nodes(b) where rim(c))
  say "{key(xs[1] + 1, len(xs))} {[twice(k) for k in 0..1]} {rims}"
  say "{pick2(xs, n)}"
}
end when false { }
"""


def test_slices_inlined_defs_and_reads_give_the_plain_values() -> None:
    rules = rules_of(SLICES)
    assert said_after(rules, "3")[:3] == [
        "[10, 20, 30] [] [20, 30, 40]",
        "21,4 [[0, 1], [1, 2]] 12",
        "80",
    ]
    assert said_after(rules, "1")[0] == "[10, 20, 30] [] [20]"
    assert said_after(rules, "0")[0] == "[10, 20, 30] [] []"  # 1..0 is empty


def line_of(fragment: str) -> int:
    hits = [i for i, line in enumerate(SLICES.splitlines(), start=3) if fragment in line]
    assert len(hits) == 1, fragment
    return hits[0]


def test_reads_outside_the_list_stop_the_game_as_before() -> None:
    rules = rules_of(SLICES)
    err = fails(rules, "4")  # [xs[k] for k in 1..4]: xs[4] is outside
    assert err.code == "R003" and err.span.line == line_of("for k in 1..n")
    err = fails(rules, "-1")  # [xs[k] for k in 1..-1] is empty; then pick2(xs, -1)
    assert err.code == "R003" and err.span.line == line_of("def pick2")


def test_a_slice_keeps_the_limit_of_items() -> None:
    body = """
turn {
  choose n in [3, 5]
  let xs = [0, 1, 2, 3, 4, 5, 6, 7]
  say "{[xs[k] for k in 0..n]}"
}
end when false { }
"""
    rules = rules_of(body, Limits(items=5))
    assert said_after(rules, "3")[0] == "[0, 1, 2, 3]"
    assert fails(rules, "5").code == "R009"  # 0..5: six numbers, one more than the limit


BOT = """
global { calls: int = 0 }
player { seen: list(int) = [3, 1, 2] }
def best_of(xs: list(int)) = max(x for x in xs)
def score(n: int, top: int) = if n == top then 10 else n
turn {
  choose n in [1, 2, 3, 4]
  say "{n}"
}
end when turn_number > 4 { }
bot keen {
  when choosing n { prefer n != 4  best score(n, best_of(me.seen)) }
}
"""


def test_a_bot_ranks_as_before_with_a_call_that_names_no_option() -> None:
    rules = rules_of(BOT)
    g = rules.new_game(2, seed=3)
    for _ in range(4):
        assert g.bot_choice("keen").text == "3"  # best_of(me.seen) is 3: score 10
        g.apply(g.bot_choice("keen"))

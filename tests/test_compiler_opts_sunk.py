"""A chained op's pushes carried down to where the op leaves (issue 21, item 1;
runtime/sunk.py, switch `sunk.SUNK`): a proc's return address pushed and popped
within one turn of the op's loop runs neither.

Shown on lines: carried into an `if` that leaves and past plain statements, taken by a
pop, written out before a statement that leaves, a call not known, a loop, an `if` with
an `else`, and at the end of a block that falls through. On the rules: fewer pushes in
the looping op, the same stack at every pause (playouts stopped part way, then the
API), and the same games."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_compiler_opts_locals import RELAY, looping

import rulelang
from rulelang import CHANCE, Ruleset
from rulelang.runtime import codegen, sunk

ROOT = Path(__file__).resolve().parent.parent


def compiled(on: bool, path: Path | None = None) -> Ruleset:
    was = sunk.SUNK, codegen.LAZY
    sunk.SUNK, codegen.LAZY = on, False
    try:
        if path is not None:
            return rulelang.compile_file(path)
        return rulelang.compile_source(RELAY, "t.rules")
    finally:
        sunk.SUNK, codegen.LAZY = was


def test_carried_into_an_if_that_leaves_and_taken_by_a_pop() -> None:
    lines = [
        "while True:",
        "    st.stack.append(6)  # @1",
        "    x = _d_f(st, 1)",
        "    if x:",
        "        st.budget = budget",
        "        return -11",
        "    if not quiet:",  # no way out, calls nothing: carried past
        "        st.log = (1, st.log)",
        "    _h.move(st, x, 1, 2, _s1, 'hand', _z1)",
        "    st.stack.pop()  # @2",
        "    continue",
    ]
    assert sunk.sunk(lines) == [
        "while True:",
        "    x = _d_f(st, 1)",
        "    if x:",
        "        st.budget = budget",
        "        st.stack.append(6)",
        "        return -11",
        "    if not quiet:",
        "        st.log = (1, st.log)",
        "    _h.move(st, x, 1, 2, _s1, 'hand', _z1)",
        "    continue",
    ]


def test_carried_past_a_set_method_of_any_value() -> None:
    """`not set(a).isdisjoint(b)` (a def written in place): `.isdisjoint` of a call's
    value reads no stack, as of a name's; a method not known is still a barrier."""
    disjoint = ["st.stack.append(6)", "x = not set(a).isdisjoint(b)", "st.stack.pop()"]
    assert sunk.sunk(disjoint) == ["x = not set(a).isdisjoint(b)"]
    other = ["st.stack.append(6)", "x = set(a).pop()", "st.stack.pop()"]
    assert sunk.sunk(other) == other


def test_written_out_where_it_may_be_read() -> None:
    unknown = ["st.stack.append(6)", "_h.chance(st, _spec1)", "st.stack.pop()"]
    assert sunk.sunk(unknown) == unknown  # a call not known: the push runs first
    looped = ["st.stack.append(6)", "for v in z:", "    f(v)", "st.stack.pop()"]
    assert sunk.sunk(looped) == looped
    branches = [
        "st.stack.append(6)",
        "if x:",
        "    return 1",
        "else:",
        "    y = 2",
        "st.stack.pop()",
    ]
    assert sunk.sunk(branches) == branches  # nothing written between `if` and `else`
    falls = ["if x:", "    st.stack.append(6)", "    y = 1", "z = 2"]
    assert sunk.sunk(falls) == ["if x:", "    y = 1", "    st.stack.append(6)", "z = 2"]
    nested = ["st.stack.append(6)", "st.stack.append(19)", "st.stack.pop()", "return 4"]
    assert sunk.sunk(nested) == ["st.stack.append(6)", "return 4"]


def test_fires_on_the_looping_op() -> None:
    on, off = looping(compiled(True)), looping(compiled(False))
    pushes = [sum("st.stack.append(" in ln for ln in op) for op in (on, off)]
    pops = [sum("st.stack.pop()" in ln for ln in op) for op in (on, off)]
    assert pops[0] < pops[1]  # a pop taken by the push before it: neither runs
    assert pushes[0] >= 1 and pushes[1] >= 1


def stacks(rules: Ruleset, players: int, seed: int, limit: int) -> list[object]:
    """The stack at every pause: after a playout of `limit` decisions, then through
    the API, each decision a pause and a resume; and the game's record."""
    game = rules.new_game(players, seed)
    game.playout(random.Random(seed), max_decisions=limit)
    seen: list[object] = [tuple(game.state.stack)]
    rng = random.Random(seed + 1)
    while not game.is_over():
        if game.current_player() == CHANCE:
            game.resolve_chance()
        else:
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
        seen.append(tuple(game.state.stack))
    return [*seen, game.record(), game.results()]


@pytest.mark.parametrize("limit", [1, 4, 9, 3000])
def test_the_same_stack_at_every_pause_and_the_same_games(limit: int) -> None:
    on, off = compiled(True), compiled(False)
    for players in (2, 4):
        for seed in (1, 2, 3):
            assert stacks(on, players, seed, limit) == stacks(off, players, seed, limit)


def test_a_tile_game_the_same() -> None:
    path = ROOT / "rulesets" / "saboteur.rules"
    on, off = compiled(True, path), compiled(False, path)
    for seed, limit in ((1, 40), (2, 150), (3, 5000)):
        assert stacks(on, 5, seed, limit) == stacks(off, 5, seed, limit)

"""Locals of an op read from Python locals (runtime/forward.py): a value stored in a
slot and read twice or more after it (`loc[5] = fw_5 = ...`, switch
`forward.FORWARD`), a slot the op reads three times and never writes read once where
it starts (`forward.READ_ONCE`), and a board read twice read once from `cfg.boards`
(`forward.BOARDS`).

Shown firing on the generated source, staying off where a helper given the state may
write the slot (a chance drawn, `WRITER`), past a write of the slot and inside a
comprehension, and playing the very games of the plain code and of the switches off.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager

from compile_support import compiled

from rulelang import GameRuntimeError, Ruleset
from rulelang.runtime import forward

GAME = """
import dice
player { score: int = 0  seen: list(int) = [] }
board b = grid(0, 3, 0, 3) { state mark: int = 0 }
turn {
  choose d in [0, 1, 2, 3]
  let c = cell(b, current.score % 4, turn_number % 4)
  let n = neighbour(b, c, d)
  if n != none and b.mark[n] < 3 { set b.mark[n] += 1 }
  roll r = d6
  let t = r + d
  set current.score += t + t * t
  set current.seen = current.seen + [t, r, d, len([x for x in current.seen where x == t])]
  if t > 7 { set current.seen = [] }
}
end when turn_number == 30 { }
"""


@contextmanager
def switched(**off: bool) -> Iterator[None]:
    was = {name: getattr(forward, name) for name in off}
    for name, value in off.items():
        setattr(forward, name, value)
    try:
        yield
    finally:
        for name, value in was.items():
            setattr(forward, name, value)


def played(rules: Ruleset, seed: int) -> object:
    g = rules.new_game(2, seed=seed)
    try:
        g.playout(random.Random(seed))
    except GameRuntimeError as err:
        return g.record(), err.code, str(err)
    return g.record(), g.results(), g.state.cols


def ops_text(rules: Ruleset) -> str:
    return "\n".join(rules.code.source)


def test_a_stored_value_is_read_again_from_a_local() -> None:
    rules = compiled(GAME)
    text = ops_text(rules)
    assert "= fw_" in text  # the store written through a local...
    stored = [ln for ln in text.split("\n") if "= fw_" in ln]
    slot = stored[0].split("loc[")[1].split("]")[0]
    assert f"fw_{slot}" in text.split(stored[0], 1)[1]  # ...read after it
    with switched(FORWARD=False):
        alone = compiled(GAME)
    assert "fw_" not in ops_text(alone)
    plain = compiled(GAME, optimised=False)
    outcomes = [played(rules, seed) for seed in range(1, 9)]
    assert outcomes == [played(plain, seed) for seed in range(1, 9)]
    assert outcomes == [played(alone, seed) for seed in range(1, 9)]


def test_the_lines_read_from_the_local_end_where_the_slot_may_change() -> None:
    lines = [
        "loc = st.loc",
        "loc[5] = a + b  # @1",
        "x = loc[5] + loc[5]",
        "while x:",
        "    y = loc[5] + loc[5]",
        "    loc[5] = 2",
        "z = [q for q in loc[5]]",
    ]
    out = forward.forwarded(lines)
    assert out[1] == "loc[5] = fw_5 = a + b  # @1"
    assert out[2] == "x = fw_5 + fw_5"
    assert out[4] == "    y = loc[5] + loc[5]"  # the loop writes it: its rounds come back
    assert out[6] == lines[6]  # a comprehension's scope would make the local a cell
    drawn = ["loc = st.loc", "loc[5] = a", "_h.chance(st, _spec1)", "x = loc[5] + loc[5]"]
    assert forward.forwarded(drawn) == drawn  # the chance may write the slot
    texts = ["loc = st.loc", "loc[5] = 'a = (' + b", "x = loc[5] + loc[5]"]
    assert forward.forwarded(texts)[1] == "loc[5] = fw_5 = 'a = (' + b"  # inside a text
    assert forward.forwarded(["loc = st.loc", "loc[5] = f(x=1)", "y = loc[5] + loc[5]"])[1] == (
        "loc[5] = f(x=1)"
    )  # a keyword's `=`: not a whole value on its own


def test_a_slot_read_three_times_and_never_written_is_read_once() -> None:
    lines = ["loc = st.loc", "cfg = st.cfg", "x = loc[7] + loc[7]", "if x:", "    y = loc[7]"]
    out = forward.forwarded(lines)
    assert out[:3] == ["loc = st.loc", "cfg = st.cfg", "fw_7 = loc[7]"]
    assert out[3:] == ["x = fw_7 + fw_7", "if x:", "    y = fw_7"]
    assert forward.forwarded(lines[:3]) == lines[:3]  # twice: not worth a read at the start
    written = [*lines, "loc[7] += 1"]
    assert "fw_7" not in "\n".join(forward.forwarded(written))
    drawn = [*lines, "_gen3.run(st)"]
    assert forward.forwarded(drawn) == drawn  # a map generated may write any slot
    with switched(READ_ONCE=False):
        assert forward.forwarded(lines) == lines


def test_a_board_read_twice_is_read_once() -> None:
    text, head = forward.boards("a = cfg.boards['b'].canon[1]\nc = cfg.boards['b'].next_cell[2]")
    assert head == ["board_0 = cfg.boards['b']"]
    assert text == "a = board_0.canon[1]\nc = board_0.next_cell[2]"
    once = "a = cfg.boards['b'].canon[1] + cfg.boards['c'].canon[1]"
    assert forward.boards(once) == (once, [])
    rules = compiled(GAME)
    assert "board_0 = cfg.boards['b']" in ops_text(rules)
    with switched(BOARDS=False, FORWARD=False):
        alone = compiled(GAME)
    assert "board_0" not in ops_text(alone)
    outcomes = [played(rules, seed) for seed in range(1, 5)]
    assert outcomes == [played(alone, seed) for seed in range(1, 5)]

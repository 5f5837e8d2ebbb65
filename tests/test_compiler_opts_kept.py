"""More of the code generator's optimisations (issue 21, the labyrinth's random games):
an op's locals read from Python variables instead of their slots of `st.loc`
(runtime/slots.py), and a text whose one value is a player read from a table of its
texts per seat (`Config.named`) instead of made anew at each message.

As in test_compiler_opts.py, each is shown to fire on the generated source, and the
optimised code to play the very games the plain code plays (`exprgen.OPTIMISED` off);
every shipped game is played both ways there (test_the_optimised_code_plays_the_same_games).
"""

from __future__ import annotations

import random
import re

from compile_support import compiled

from rulelang import Ruleset, Said
from rulelang.runtime import slots
from rulelang.runtime.exprgen import Namespace

AWARD = """
player { score: int = 0 }
proc award(p: player, n: int) {
  choose k in 1..2
  set p.score += k * n
  say "{p} has {p.score}" to p
  if p.score > 5 {
    set p.score -= n
    say "{p} is cut back to {p.score}" to p
  }
}
turn {
  do award(current, 2)
}
end when turn_number == 8 { }
"""


def plays(rules: Ruleset, seed: int) -> tuple[object, ...]:
    g = rules.new_game(2, seed=seed)
    g.playout(random.Random(seed))
    return g.record(), g.results(), [e.text for e in g.events() if isinstance(e, Said)]


def test_an_ops_locals_are_read_from_python_variables() -> None:
    rules, plain = compiled(AWARD), compiled(AWARD, optimised=False)
    kept = [src for src in rules.code.source if re.search(r"\b_L\d+\b", src)]
    assert kept, "no op keeps a local in a variable"
    assert any(re.search(r"\b_L(\d+) = loc\[\1\]", src) for src in kept)  # loaded once
    assert not any(re.search(r"\b_L\d+\b", src) for src in plain.code.source)
    for seed in range(1, 6):
        assert plays(rules, seed) == plays(plain, seed)


def _body(lines: list[str]) -> object:
    """The function of a generated body (of `st`), compiled with the slots kept."""
    return slots.function(Namespace(), "_op_test", "st", lines)


class _St:
    def __init__(self, loc: list[object]) -> None:
        self.loc = loc
        self.x = False


def test_a_store_that_runs_first_needs_no_load() -> None:
    lines = ["loc = st.loc", "loc[1] = 7", "return loc[1] + loc[1]"]
    body, fn = _body(lines)
    assert body == ["loc = st.loc", "loc[1] = _L1 = 7", "return _L1 + _L1"]
    st = _St([0, 0])
    assert fn(st) == 14 and st.loc[1] == 7  # the slot is still written


def test_a_store_in_a_branch_is_loaded_first() -> None:
    """Stored on one branch only, read after it: the variable is loaded from the slot
    before the branch, so the read sees the slot's value either way."""
    lines = ["loc = st.loc", "if st.x:", "    loc[1] = 5", "return loc[1] * 10 + loc[1]"]
    body, fn = _body(lines)
    assert body[1] == "_L1 = loc[1]"
    st = _St([0, 3])
    assert fn(st) == 33
    st.x = True
    assert fn(st) == 55 and st.loc[1] == 5


def test_slots_changed_in_place_or_by_a_helper_are_left_in_their_slots() -> None:
    augmented = ["loc = st.loc", "loc[1] += 2", "return loc[1] + loc[1]"]
    assert _body(augmented)[0] == augmented
    settled = ["loc = st.loc", "_h.settle(st, _spec1, 0)", "return loc[1] + loc[1]"]
    assert _body(settled)[0] == settled
    unpacked = ["loc = st.loc", "loc[1], loc[2] = 1, 2", "return loc[1] + loc[1]"]
    assert _body(unpacked)[0] == unpacked


def test_a_text_that_names_a_slot_is_left_as_written() -> None:
    """A text of the rules may hold `loc[1]`: the rewrite must not reach into it (the
    body is compiled plain when a text constant shows a kept name)."""
    lines = ["loc = st.loc", 'return f"loc[1] is {loc[1]}, {loc[1]}"']
    body, fn = _body(lines)
    assert body == lines
    assert fn(_St([0, 4])) == "loc[1] is 4, 4"


WALKS = """
global { winner: player = none }
turn {
  say "{current} walks." to current
  say "{winner} has won." to players
  say "{current} and {current} again." to current
  choose n in 1..2
}
end when turn_number == 4 { }
"""


def test_a_text_whose_one_value_is_a_player_is_read_from_a_table() -> None:
    rules, plain = compiled(WALKS), compiled(WALKS, optimised=False)
    source = "\n".join(rules.code.source)
    assert set(re.findall(r"cfg\.named\[(\d+)\]", source)) == {"0", "1"}
    assert "and {" in source  # the text with two values: an f-string still
    assert "cfg.named[" not in "\n".join(plain.code.source)
    for seed in range(1, 4):
        assert plays(rules, seed) == plays(plain, seed)
    texts = plays(rules, 1)[2]
    assert "none has won." in texts  # none shown as the formatter shows it
    assert "P1 walks." in texts


def test_the_table_of_texts_follows_the_players_names() -> None:
    rules = compiled(WALKS)
    for names in (("Ann", "Bob"), ("Cy", "Di"), ("Ann", "Bob")):
        g = rules.new_game(2, seed=1, names=names)
        said = [e.text for e in g.events() if isinstance(e, Said)]
        assert f"{names[0]} walks." in said
        assert not any(n in t for t in said for n in ("P1", "P2"))

"""The state's attributes read into Python locals once per generated function (issue 21,
item 1; runtime/statelocals.py, switch `statelocals.STATE_LOCALS`): a chained op, which
runs turn after turn in one call, reads `st.current`, `st.budget`, `st.quiet`,
`st.bot`, `st.vars`, `st.layers`, `cfg.n` and `cfg.players` once; `st.current` and
`st.budget` are written back.

Shown firing on the generated source, staying off where a function reads an attribute
once or writes it otherwise than as a statement of its own, and playing the games of
the code without it: records, views, and the decisions a playout stopped by its
`max_decisions` counts (the budget written back)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from compile_support import compiled_once

import rulelang
from rulelang import CHANCE, Ruleset
from rulelang.runtime import codegen, statelocals

ROOT = Path(__file__).resolve().parent.parent

RELAY = """game "Relay"
players 2..4
enum use { play, discard }
card chip count 30 {
  value: int = index % 5
}
zone deck: chip visible to none
zone hand: chip per player visible to owner
zone pile: chip visible to all
zone bank: chip per player visible to all
global {
  passes: int = 0
}
setup {
  add pieces(chip) to deck
  shuffle deck
  deal 3 from deck to hand
}
proc bank_one(c: chip) {
  choose p in players prompt "who banks it?"
  move c from hand[current] to bank[p]
}
turn {
  choose c in hand[current] prompt "which"
  choose action in use require action == discard or c.value > 0 else "worthless"
  if action == discard {
    move c from hand[current] to pile
    set passes = passes + 1
    if len(hand[current]) > 0 and c.value == 4 {
      do bank_one(first(hand[current]))
    }
  } else {
    do bank_one(c)
  }
  if len(deck) > 0 {
    move last(deck) from deck to hand[current]
  }
}
end when len(deck) == 0 or turn_number > 40 { win [current] }
"""


def compiled(on: bool, path: Path | None = None) -> Ruleset:
    """The rules (RELAY, or the file at path) with the switch on or off, every op
    compiled at once (chained)."""
    was = statelocals.STATE_LOCALS, codegen.LAZY
    statelocals.STATE_LOCALS, codegen.LAZY = on, False
    try:
        if path is not None:
            return compiled_once(path)
        return rulelang.compile_source(RELAY, "t.rules")
    finally:
        statelocals.STATE_LOCALS, codegen.LAZY = was


def looping(rules: Ruleset) -> list[str]:
    """The lines of the longest op that loops over the turns (chaining.py)."""
    ops = [s.splitlines() for s in rules.code.source if "while True:" in s]
    return max(ops, key=len)


def test_the_looping_op_reads_the_state_from_locals() -> None:
    lines = looping(compiled(True))
    head = lines[: lines.index("while True:")]
    for read in ("quiet = st.quiet", "bot = st.bot", "vars_ = st.vars", "cfg_n = cfg.n"):
        assert read in head
    assert "current_ = st.current" in head and "budget = st.budget" in head
    body = "\n".join(lines[len(head) :])
    assert "st.quiet" not in body and "st.bot()" not in body and "st.vars[" not in body
    assert "if budget:" in body and "budget -= 1" in body and "current_ + 1" in body
    # st.current written through the local; st.budget written back at every return
    assert all("current_ =" in ln for ln in lines[len(head) :] if "st.current" in ln)
    for i, line in enumerate(lines):
        if line.strip().startswith("return"):  # (pushes carried there come between: sunk.py)
            before = [ln.strip() for ln in lines[:i] if "st.stack.append(" not in ln]
            assert before[-1] == "st.budget = budget", line


def test_off_the_op_reads_the_state() -> None:
    lines = looping(compiled(False))
    text = "\n".join(lines)
    assert "st.quiet" in text and "st.budget" in text and "st.current" in text
    assert not re.search(r"\b(budget|current_|quiet|bot) = st\.", text)


def test_off_where_read_once_or_written_otherwise() -> None:
    """A def reading `current` once keeps `st.current`; an op taking fewer than three
    decisions keeps `st.budget`; a write that is not a statement of its own (here
    made up) keeps `st.current` everywhere."""
    once = ["return st.current + 1"]
    assert statelocals.hoisted(once) == once
    two = ["if st.budget:", "    st.budget -= 1", "if st.budget:", "    st.budget -= 1"]
    assert statelocals.hoisted(two) == two
    odd = ["x = st.current = 1", "return st.current"]
    assert statelocals.hoisted(odd) == odd
    plain = ["st.current = 1", "return st.current"]
    assert statelocals.hoisted(plain) == [
        "current_ = st.current",
        "st.current = current_ = 1",
        "return current_",
    ]


def played(rules: Ruleset, players: int, seed: int, limit: int) -> list[object]:
    """A playout stopped after `limit` decisions (the budget written back counts
    them), then played on through the API, each decision a pause and a resume."""
    game = rules.new_game(players, seed)
    taken = game.playout(random.Random(seed), max_decisions=limit)
    rng, seen = random.Random(seed + 1), []
    while not game.is_over():
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        seen.append([tuple(a) for a in actions])
        game.apply(actions[int(rng.random() * len(actions))])
    views = [game.view(p) for p in (rulelang.PUBLIC, *range(players))]
    return [taken, *seen, game.record(), game.results(), views]


@pytest.mark.parametrize("limit", [1, 5, 17, 3000])
@pytest.mark.parametrize("players", [2, 4])
def test_the_same_games(players: int, limit: int) -> None:
    on, off = compiled(True), compiled(False)
    for seed in (1, 2):
        assert played(on, players, seed, limit) == played(off, players, seed, limit)


@pytest.mark.parametrize("quiet", [True, False])
def test_playouts_count_the_same_decisions(quiet: bool) -> None:
    on, off = compiled(True), compiled(False)
    for seed in range(6):
        counts = [
            r.new_game(3, seed).playout(random.Random(seed), max_decisions=9, quiet=quiet)
            for r in (on, off)
        ]
        assert counts[0] == counts[1] == 9


def test_a_column_or_layer_at_a_constant_index_is_read_once() -> None:
    """`cols[3]` read for each item of a comprehension and again after it: one local,
    read where the function starts; a column read once, or rebound, is left."""
    lines = [
        "loc = st.loc",
        "cols = st.cols",
        "x = [c for c in loc[1] if cols[3][c] and st.layers[0].get(c)]",
        "return cols[3][x[0]] + cols[4][0] + len(st.layers[0])",
    ]
    assert statelocals.hoisted(lines) == [
        "loc = st.loc",
        "cols = st.cols",
        "cols_3 = cols[3]",
        "layers_0 = st.layers[0]",
        "x = [c for c in loc[1] if cols_3[c] and layers_0.get(c)]",
        "return cols_3[x[0]] + cols[4][0] + len(layers_0)",
    ]
    rebound = ["loc = st.loc", "cols = st.cols", "cols[3] = []", "return cols[3]"]
    assert statelocals.hoisted(rebound) == rebound


def test_a_tile_game_plays_the_same_games() -> None:
    """Saboteur (columns and a layer of tiles read from locals in its chained turn):
    the same records, views and results, played out and through the API."""
    path = ROOT / "rulesets" / "saboteur.rules"
    on, off = (compiled(flag, path) for flag in (True, False))
    assert "layers_0 = st.layers[0]" in "\n".join(looping(on))
    for seed in (1, 2):
        assert played(on, 4, seed, 3000) == played(off, 4, seed, 3000)
        assert played(on, 3, seed, 40) == played(off, 3, seed, 40)

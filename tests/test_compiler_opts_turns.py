"""The code generator's optimisations of a turn (issue 21, item 1): where a tile fits
over a network's spots asked at once and kept per layout (runtime/fitting.py,
`TileOps.fitting`), a choice among a few constants tested value by value (codegen,
`unrolled_options`), and a chance event's candidates worked out once (helpers.chance).

Each is shown to fire on the generated source, to stay off where the rules do not
read so, and the optimised code to play the very games the plain code plays
(`exprgen.OPTIMISED` off); tests/test_compiler_opts.py plays every shipped game."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from compile_support import both_of_source, compiled, with_loops

import rulelang
from rulelang import CHANCE, Ruleset
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import codegen
from rulelang.runtime.literals import literal

ROOT = Path(__file__).resolve().parent.parent
# a small tile game (`place` takes the tile from the pile)
TUNNELS = (ROOT / "tests" / "games" / "tunnels.rules").read_text()


def source_of(rules: Ruleset, name: str) -> str:
    """The generated Python of a def, or of every op (name "ops")."""
    if name == "ops":
        return "\n".join(rules.code.source)
    return with_loops(rules.code.ops[0].__globals__[name])  # any/all: loops.py


def record_of(rules: Ruleset, players: int, seed: int) -> tuple[object, ...]:
    game = rules.new_game(players, seed)
    game.playout(random.Random(seed), max_decisions=3000)
    return (game.record(), game.results(), game.view(rulelang.PUBLIC))


# ---------------------------------------------------------------- where a tile fits
def test_where_a_tile_fits_is_asked_once_per_layout() -> None:
    """`any(any(joins(..) for r in [0, 2]) for c in spots(..))` in a def and `choose c
    in spots(..) require any(joins(..) ..)` read the kept spots that fit; the plain
    code calls `joins` per spot and turn."""
    rules, plain = both_of_source(TUNNELS)
    playable = source_of(rules, "_d_playable")
    start = "(st.cfg.memo[0] if st.cfg.memo[0] is not _UNSET else _d_start(st))"  # MEMO_INLINE
    assert f".fitting(st, {start}, _a" in playable and "joins" not in playable
    assert "joins" in source_of(plain, "_d_playable")
    in_ops = start.replace("st.cfg", "cfg")  # `st.cfg` read once where an op starts
    assert f"opts = _t1.fitting(st, {in_ops}, " in source_of(rules, "ops")
    assert ".fitting(" not in source_of(plain, "ops")


def test_a_tile_game_plays_the_same_games_with_the_spots_kept() -> None:
    rules, plain = both_of_source(TUNNELS)
    for seed in range(1, 9):
        players = 2 + seed % 2
        assert record_of(rules, players, seed) == record_of(plain, players, seed)


ELSEWHERE = TUNNELS.replace(
    "def start() = cell(maze, 0, 0)\n",
    "def start() = cell(maze, 0, 0)\n"
    "def near() = cell(maze, 1, 0)\n"
    # another start than the spots': `joins` asked as written
    "def other(t: tunnel) = any(any(joins(maze, c, t, r, near()) for r in [0, 2])"
    " for c in spots(maze, start()))\n"
    # the spot as the turn: not the question `fitting` answers
    "def odd(t: tunnel) = any(any(joins(maze, c, t, c % 4, start()) for r in [0, 2])"
    " for c in spots(maze, start()))\n",
)


def test_other_questions_over_spots_call_joins_as_written() -> None:
    rules, _plain = both_of_source(ELSEWHERE)
    for name in ("_d_other", "_d_odd"):
        assert "joins" in source_of(rules, name) and "fitting" not in source_of(rules, name)


def test_fitting_is_joins_over_the_spots_at_every_position() -> None:
    """`TileOps.fitting` against its definition, for every tile of the pile, with
    several sets of turns, at every position of random games (kept answers included:
    each turn asks again on the same layout)."""
    rules = rulelang.compile_source(TUNNELS, "tunnels.rules")
    (ops,) = rules.ex.tiles.values()
    checked = 0
    for seed in range(1, 5):
        game = rules.new_game(2, seed)
        rng = random.Random(seed)
        st = game.state
        start = st.cfg.boards["maze"].cell(0, 0)
        while not game.is_over() and checked < 4000:
            for turns in ((0, 2), (1,), (0, 1, 2, 3), (2, 0)):
                for t in st.zones[0]:
                    spots = ops.network(st, start)[2]
                    want = tuple(
                        s for s in spots if any(ops.joins(st, s, t, r, start) for r in turns)
                    )
                    assert ops.fitting(st, start, t, turns) == want
                    checked += 1
            if game.current_player() == CHANCE:
                game.resolve_chance()
                continue
            actions = game.legal_actions()
            game.apply(actions[int(rng.random() * len(actions))])
    assert checked > 500


# ---------------------------------------------------------------- a choice among constants
CONSTANTS = """
enum use { keep, drop, pass_on }
global { total: int = 0 }
turn {
  choose k in [-1, 0, 2, 3] require k != 0 and k != total % 4 else "not that"
  choose u in use require u != pass_on or k > 0 else "not that"
  set total += k
  say "{current} {k} {u}"
}
end when turn_number > 12 { win [current] }
"""


def test_a_choice_among_a_few_constants_is_tested_value_by_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The options are the constants whose requires hold, in the list's order: no
    comprehension made at each decision; the plain code makes one. (Shown on the
    options added value by value: `codegen.BRANCHED_OPTIONS` off.)"""
    monkeypatch.setattr(codegen, "BRANCHED_OPTIONS", False)
    rules, plain = compiled(CONSTANTS), compiled(CONSTANTS, optimised=False)
    fast = source_of(rules, "ops")
    # (a text of the rules is written with its `_` escaped: runtime/literals.py)
    assert "((-1,) if " in fast and f"(({literal('pass_on')},) if " in fast
    assert "for _v" not in "".join(ln for ln in fast.splitlines() if "opts =" in ln)
    assert "for _v" in "".join(ln for ln in source_of(plain, "ops").splitlines() if "opts =" in ln)
    for seed in range(1, 6):
        assert record_of(rules, 2, seed) == record_of(plain, 2, seed)
    game = rules.new_game(2, 1)
    assert [a.text for a in game.legal_actions()] == ["-1", "2", "3"]


def test_a_choice_among_constants_with_no_option_left_fails_as_before() -> None:
    none_left = CONSTANTS.replace("require k != 0 and", "require k > 5 and")
    failed = []
    for rules in (compiled(none_left), compiled(none_left, optimised=False)):
        with pytest.raises(GameRuntimeError) as err:
            rules.new_game(2, 1).playout(random.Random(1))
        failed.append((err.value.code, err.value.span))
    assert failed[0] == failed[1] and failed[0][0] == "R002"  # no option left


# ---------------------------------------------------------------- chance events
SHUFFLED = """
card card count 6 {
  n: int = index
}
zone box: card visible to all
zone deck: card visible to all
setup {
  add pieces(card) to box
  shuffle odd = [c for c in box where c.n % 2 == 1]
  add odd to deck
  shuffle deck
}
turn {
  say "{[c.n for c in deck]}"
}
end when true { }
"""


def test_a_chance_event_works_out_its_candidates_once() -> None:
    """The plain code draws the outcome from the candidates and then settles it on
    them worked out again; the optimised code works them out once, for the same
    outcome."""
    rules, plain = compiled(SHUFFLED), compiled(SHUFFLED, optimised=False)
    assert "_h.chance(st, " in source_of(rules, "ops")
    assert "_h.settle(st, " in source_of(plain, "ops")
    asked: list[int] = []
    for ruleset in (rules, plain):  # compiled for this test alone: changed in place
        for spec in ruleset.code.chances.values():

            def counting(st: object, counted: Any = spec.source) -> object:
                asked.append(1)
                return counted(st)

            object.__setattr__(spec, "source", counting)  # a frozen dataclass
    fast = [e.text for e in rules.new_game(2, 3).events() if isinstance(e, rulelang.Said)]
    once = len(asked)
    slow = [e.text for e in plain.new_game(2, 3).events() if isinstance(e, rulelang.Said)]
    assert fast == slow and len(fast) == 1
    assert once == 2 and len(asked) - once == 4  # two shuffles: once each, twice each


# ---------------------------------------------------------------- reads without guards
PEEK = (ROOT / "tests" / "games" / "peek.rules").read_text() + (
    "def purse_total(p: player) = sum(c.value for c in purse[p])\n"
    "def top_in(q: player) = if len(purse[q]) == 0 then 0 else last(purse[q]).value\n"
    "def guess(p: player, q: player) = known(p, top_in(q))\n"
    "measure total per player = purse_total(me)\n"
    "measure mine per player = if guess(me, me) == none then -1 else guess(me, me)\n"
    "measure theirs per player = if guess(me, next_player(me)) == none then -1\n"
    "  else guess(me, next_player(me))\n"
)


def lines_reading_viewer(source: str) -> list[str]:
    """The lines that test `st.viewer` outside a `known` (its lambda cut off)."""
    return [ln for ln in source.splitlines() if "st.viewer" in ln.split("_kn.known(")[0]]


def test_statements_and_defs_outside_known_read_without_guards() -> None:
    """Only `known(P, EXPR)`'s expression and the defs it may call (at any depth) run
    while P's view is worked out: every other def and every statement reads hidden
    things without testing `st.viewer`; the plain code tests it everywhere."""
    rules, plain = both_of_source(PEEK)
    assert "st.viewer" not in source_of(rules, "_d_purse_total")
    assert "st.viewer" in source_of(plain, "_d_purse_total")
    assert "st.viewer" in source_of(rules, "_d_top_in")  # guess calls it in known
    assert "st.viewer" in source_of(rules, "_d_top_value")  # known's own expression
    assert lines_reading_viewer(source_of(rules, "ops")) == []
    assert lines_reading_viewer(source_of(plain, "ops")) != []


def test_games_reading_hidden_things_are_the_plain_codes() -> None:
    """The bot reads the top coin through `known` at every choice, the measures with
    and without it: the very games, results and measures of the plain code."""
    rules, plain = both_of_source(PEEK)
    seen = []
    for seed in range(1, 9):
        games = []
        for ruleset in (rules, plain):
            game = ruleset.new_game(2 + seed % 2, seed)
            game.playout(random.Random(seed), bots=seed % 2 == 0)
            games.append((game.record(), game.results(), game.measures()))
        assert games[0] == games[1]
        seen += zip(games[0][2]["mine"], games[0][2]["theirs"], strict=True)
    mine = [m for m, _theirs in seen]
    assert min(mine) >= 0 and max(mine) > 0  # a purse's owner knows its top coin
    # nobody knows another's top coin (an empty purse's 0 is public: its size is)
    assert {theirs for _mine, theirs in seen} == {-1, 0}

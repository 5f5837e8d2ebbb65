"""The code generator's optimisations of the playout path (issue 21): an op that jumps
to itself loops in Python, and a choice over a bare range takes its value without
making the range. Each is shown to fire on the generated source, and the optimised
code to play the very games the plain code plays (`exprgen.OPTIMISED` off), by the
fast path and by the API."""

from __future__ import annotations

import inspect
import random
import re
from pathlib import Path

import compile_support
import pytest

from rulelang import CHANCE, Game, Ruleset, Said
from rulelang.diagnostics import GameRuntimeError
from rulelang.runtime import codegen

ROOT = Path(__file__).resolve().parent.parent


def compiled(src: str, optimised: bool = True) -> Ruleset:
    return compile_support.compiled(src, optimised, players="2..3")


def ops_source(rules: Ruleset) -> str:
    return "\n".join(rules.code.source)


# Points spent in a loop whose every round asks twice (who gains, and how many).
SPEND = """
player {
  pts: int = 0
}
global {
  rounds: int = 0
}
turn {
  do spend(5)
  set rounds += 1
}
proc spend(points: int) {
  let left = points
  while left > 0 {
    choose who in players
    choose k in 1..left
    set left -= k
    set who.pts += k * (rounds % 3)
  }
}
end when rounds >= 8 {
  let best = max(p.pts for p in players)
  win [p for p in players where p.pts == best]
}
"""


def test_a_loop_that_asks_every_round_loops_inside_its_op() -> None:
    rules, plain = compiled(SPEND), compiled(SPEND, optimised=False)
    assert "while True:" in ops_source(rules) and "continue" in ops_source(rules)
    assert "while True:" not in ops_source(plain)
    for seed in range(1, 6):
        for api in (False, True):
            assert played_by(rules, 3, seed, api) == played_by(plain, 3, seed, api)


def test_a_choice_over_a_range_takes_its_value_without_a_range() -> None:
    rules, plain = compiled(SPEND), compiled(SPEND, optimised=False)
    assert "value = low + int(st.bot() * (high + 1 - low))" in ops_source(rules)
    assert "opts = range(" not in ops_source(rules)
    assert "opts = range(" in ops_source(plain)
    game = rules.new_game(3, 1)  # asked by the API, the options are the range
    game.apply(game.legal_actions()[2])
    assert list(game.legal_values()) == [1, 2, 3, 4, 5]
    game.apply(game.legal_actions()[3])
    game.apply(game.legal_actions()[0])
    assert list(game.legal_values()) == [1]


EMPTY = """
global {
  n: int = 2
}
turn {
  choose k in 1..n
  set n -= 1
}
end when false { }
"""


@pytest.mark.parametrize("api", [False, True])
def test_an_empty_range_fails_as_before(api: bool) -> None:
    """`1..0`: no option left (R002), the same error by either code and path."""
    seen = []
    for optimised in (True, False):
        game = compiled(EMPTY, optimised).new_game(2, seed=1)
        with pytest.raises(GameRuntimeError) as info:
            if api:
                for _ in range(3):
                    game.apply(game.legal_actions()[0])
            else:
                game.playout(random.Random(1))
        seen.append((info.value.code, str(info.value.span), game.record()))
    assert seen[0] == seen[1]
    assert seen[0][0] == "R002"


def test_a_jump_inside_a_python_loop_is_left_a_jump() -> None:
    """`continue` there would mean the inner loop: the op keeps its `return`."""
    body = ["for x in xs:", "    if x:", "        return 3", "return 3"]
    assert codegen._looping(3, body) == body
    assert codegen._looping(3, ["if a:", "    return 3", "return 4"]) == [
        "while True:",
        "    if a:",
        "        continue",
        "    return 4",
    ]


@pytest.mark.parametrize("players", [2, 7])
def test_the_shipped_dice_game_plays_the_same_games(players: int, full: bool) -> None:
    """The loop of moves and the points taken by range: the same records, results and
    legal actions at every decision, by the fast path and by the API."""
    path = ROOT / "rulesets" / "heimlich.rules"
    rules, plain = compile_support.both_of_file(path)
    for seed in range(1, (30 if full else 3) + 1):
        for api in (False, True):
            mine = played_by(rules, players, seed, api)
            assert mine == played_by(plain, players, seed, api)


def played_by(rules: Ruleset, players: int, seed: int, api: bool) -> list[object]:
    """A game played to its end, by the fast path or one API decision at a time: the
    actions offered at each decision, its record, log lines, results and measures."""
    game: Game = rules.new_game(players, seed)
    rng = random.Random(seed)
    seen: list[object] = []
    if not api:
        seen.append(game.playout(rng))
    while not game.is_over():
        if game.current_player() == CHANCE:
            game.resolve_chance()
            continue
        actions = game.legal_actions()
        seen.append([a.text for a in actions])
        game.apply(actions[int(rng.random() * len(actions))])
    return [*seen, game.record(), game.history(), game.results(), game.measures()]


TEXTS = """
const names = ["ann", "bo"]
global {
  pct: int = 50
  shown: bool = true
}
turn {
  say "{current} at {pct}% ({names}, {shown}) 100%s {{x}}"
  say "{pct}{pct}"
  let t = "{pct}/{current}"
  say t
  choose k in 1..2
}
end when false { }
"""

NONE_TEXT = """
global {
  label: text = none
  pct: int = 50
}
turn {
  say "{label} and {pct}"
  choose k in 1..2
}
end when false { }
"""


def test_a_text_of_several_parts_is_one_formatting() -> None:
    """Numbers, players, truth values: a message one `%` formatting (its template kept
    to be formatted when read), another text one f-string; the same text; a `%` of the
    rule file's text stays a `%`."""
    rules, plain = compiled(TEXTS), compiled(TEXTS, optimised=False)
    assert "'%s at %s%% (%s, %s) 100%%s {x}'" in ops_source(rules)
    # a text that is not a message: an f-string (its number's text from a table)
    assert 'f"{_INTS.get(st.vars[0], st.vars[0])}/{' in ops_source(rules)
    assert "%%" not in ops_source(plain) and 'f"' not in ops_source(plain)
    for r in (rules, plain):
        said = [e.text for e in r.new_game(2, seed=1).events() if isinstance(e, Said)]
        assert said == ["P1 at 50% ([ann, bo], yes) 100%s {x}", "5050", "50/P1"]


def test_a_text_value_in_a_text_keeps_failing_on_none() -> None:
    """`+` fails on a text that is none (R030); `%s` would write "None": such a text
    is not formatted."""
    for optimised in (True, False):
        with pytest.raises(GameRuntimeError) as info:
            compiled(NONE_TEXT, optimised).new_game(2, seed=1)
        assert info.value.code == "R030"


TESTS = """
player {
  pts: int = 0
}
global {
  rounds: int = 0
}
turn {
  choose k in 1..3
  set current.pts += k
  if any(p.pts == 100 / (rounds - ROUND) for p in players where p != current) {
    choose j in 4..5
  } elif any(p.pts > 6 for p in players where p != current) {
    choose j in 1..2
    set current.pts -= j
  } elif all(p.pts % 2 == 0 for p in players) {
    choose j in 2..3
    set current.pts += j
  }
  set rounds += 1
}
end when rounds >= 12 {
  win [p for p in players where p.pts == max(q.pts for q in players)]
}
"""


@pytest.mark.parametrize("fails", [False, True])
def test_a_test_of_any_or_all_is_a_loop(fails: bool) -> None:
    """`if any(...)` / `elif all(...)` before a choice: a Python loop that stops where
    the generator would, the same games; an error in the loop is placed on its
    condition (`100 / 0` in the tenth round: R-code and place as before)."""
    src = TESTS.replace("ROUND", "9" if fails else "99")
    rules, plain = compiled(src), compiled(src, optimised=False)
    for decided in ("_found = True", "_found = False"):  # any, all
        assert decided in ops_source(rules)
    assert "any(" not in ops_source(rules) and "all(" not in ops_source(rules)
    assert "any(" in ops_source(plain)
    outcomes = []
    for r in (rules, plain):
        seen = []
        for seed in range(1, 6):
            for api in (False, True):
                try:
                    seen.append(played_by(r, 3, seed, api))
                except GameRuntimeError as err:
                    seen.append([err.code, str(err.span)])
        outcomes.append(seen)
    assert outcomes[0] == outcomes[1]
    assert (outcomes[0][0] == ["R005", "t.rules:13:19"]) == fails


RING = """
board town = ring(["a", "b", "c"]) {
  points = [5, -1, 7]
}
global {
  at: node(town) = 1
  total: int = 0
}
turn {
  choose k in 1..2
  set at = step(town, at, k)
  set total += town.points[at]
  say "{town.points[at]} at {at}"
}
end when total > 20 { }
"""


def test_a_fixed_board_attribute_read_by_its_node_has_no_check() -> None:
    """A board's attribute has one value per node (R019 when a game starts), so a
    node of that board reads it without a check; the same games."""
    rules, plain = compiled(RING), compiled(RING, optimised=False)
    assert ".attrs['points'][st.vars[0]]" in ops_source(rules)
    assert "_h.index(" not in ops_source(rules) and "_h.index(" in ops_source(plain)
    for seed in range(1, 4):
        assert played_by(rules, 2, seed, False) == played_by(plain, 2, seed, False)


NAMES = """
board town = ring(["a", "b", "c"])
piece agent count 2 {
  name: text = ["Perry", "Bucci"][index]
}
piece token count 2 { }
global {
  who: player = none
  at: node(town) = none
  it: agent = none
  tok: token = none
}
turn {
  say "{who}/{at}/{it}/{tok}"
  set who = current
  set at = 2
  set it = last(pieces(agent))
  set tok = first(pieces(token))
  say "{who}/{at}/{it}/{tok}"
  choose k in 1..2
}
end when false { }
"""


def test_names_are_read_in_place() -> None:
    """A player, a named item and a node shown in a text: their names read in place
    of the formatter's call, `none` shown as "none"; other kinds keep the formatter."""
    rules, plain = compiled(NAMES), compiled(NAMES, optimised=False)
    src = ops_source(rules)
    assert "cfg.player_names[st.vars[0]]" in src
    assert ".names[st.vars[1]]" in src and "str(cols[0][st.vars[2]])" in src
    # the token, which has no name, alone is shown by its formatter
    assert {call.split("(st, ")[1] for call in re.findall(r"_fmt\d+\(st, [^)]*", src)} == {
        "st.vars[3]"
    }
    assert "cfg.player_names" not in ops_source(plain)
    for r in (rules, plain):
        said = [e.text for e in r.new_game(2, seed=1).events() if isinstance(e, Said)]
        assert said == ["none/none/none/none", "P1/c/Bucci/token1"]


def test_an_end_rule_of_any_is_a_loop() -> None:
    """The end rule's condition, checked before every decision that follows a change
    it reads: a loop, the same games."""
    src = TESTS.replace("ROUND", "99").replace(
        "end when rounds >= 12", "end when any(p.pts >= 15 for p in players)"
    )
    rules, plain = compiled(src), compiled(src, optimised=False)
    assert "_found = True" in inspect.getsource(rules.code.check_end)
    assert "any(" in inspect.getsource(plain.code.check_end)
    for seed in range(1, 6):
        assert played_by(rules, 3, seed, False) == played_by(plain, 3, seed, False)


def test_a_message_to_all_is_formatted_when_read() -> None:
    """`say` of a text formatted by `%`: the log keeps the template and its values
    (taken when said), and every reader sees the text the plain code wrote."""
    rules, plain = compiled(TEXTS), compiled(TEXTS, optimised=False)
    game, other = rules.new_game(2, seed=1), plain.new_game(2, seed=1)
    kept = game.state.log[3][3]  # the first message, under the third and second
    assert kept[0] == "said" and kept[2] == (
        "%s at %s%% (%s, %s) 100%%s {x}",
        ("P1", 50, "[ann, bo]", "yes"),
    )
    assert isinstance(other.state.log[3][3][2], str)
    for viewer in (None, 0, 1):
        assert game.history(viewer) == other.history(viewer)
    assert game.events() == other.events() and game.record() == other.record()
